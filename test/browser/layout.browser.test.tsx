// Every component, bare (only src/styles.css, no provider), in boxes of 320,
// 390, 495, 740 and 1280 px, light and dark, on realistic runs (long titles,
// errors, deep nesting; generated and imported): no word is broken across
// lines, and no component box scrolls sideways or spills out of its box.
//
// A word (a Unicode word, UAX #29: `claude-sonnet-4-5` is four, a URL
// several) counts as broken when its Range lies on more than one line box —
// unless it is wider than the line it sits in (a 200-character token must
// wrap somewhere). Each theme mounts everything once; the widths are box
// resizes.
import { act, cleanup, render } from '@testing-library/react';
import { useState, type ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTimeline,
  generateRun,
  importAny,
  type Event,
  type MimeBundle,
} from '../../src/index.js';
import {
  AsciiSwimlane,
  Display,
  Player,
  SpanTree,
  Swimlane,
  Transcript,
  useReplayPlayer,
} from '../../src/react.js';
import claudeCode from '../fixtures/claude-code/session.jsonl?raw';
import openHands from '../fixtures/openhands/events-v1.jsonl?raw';
import '../../src/styles.css';

afterEach(() => cleanup());

const WIDTHS = [320, 390, 495, 740, 1280];
const T0 = Date.parse('2026-06-10T18:23:50Z');

/** A chain of nested spans with long names (words and one long hyphenated name), an error at the bottom. */
function deepRun(depth: number): Event[] {
  const out: Record<string, unknown>[] = [];
  const at = (ms: number) => new Date(T0 + ms).toISOString();
  for (let d = 0; d < depth; d++) {
    out.push({
      event: 'span_begin',
      uuid: `deep-b${d}`,
      timestamp: at(d),
      id: `deep${d}`,
      parent_id: d === 0 ? null : `deep${d - 1}`,
      span_id: `deep${d}`,
      type: d % 2 === 0 ? 'agent' : 'solver',
      name:
        d % 3 === 0
          ? `Summarise the failing integration tests and propose a minimal fix ${d}`
          : `collect-and-summarise-evaluation-transcripts-level-${d}`,
    });
  }
  out.push({
    event: 'error',
    uuid: 'deep-err',
    timestamp: at(depth + 1),
    span_id: `deep${depth - 1}`,
    error: {
      message: 'RuntimeError: the sandbox container exited unexpectedly while running the tests',
      traceback: 'Traceback (most recent call last):\n  File "run.py", line 1\nRuntimeError',
      traceback_ansi: '',
    },
  });
  for (let d = depth - 1; d >= 0; d--)
    out.push({
      event: 'span_end',
      uuid: `deep-e${d}`,
      timestamp: at(depth + 2 + d),
      id: `deep${d}`,
      span_id: `deep${d}`,
    });
  return out as unknown as Event[];
}

const bundles: MimeBundle[] = [
  {
    data: {
      'text/markdown':
        '## Findings of the evaluation\n\nThe agent called `pytest -x tests/test_decoder.py` three times; ' +
        'each run failed with **AssertionError** in `test_type_5_voyage_static_data`. ' +
        'See [the report](https://example.com/reports/ais-decoder/2026-06-10) for details.\n\n' +
        '| step | result | duration |\n| --- | --- | --- |\n| install | ok | 12 s |\n| test | failed | 48 s |\n',
    },
  },
  {
    data: {
      'text/plain': `A long unbreakable token: ${'x'.repeat(180)} and then ordinary words after it.`,
    },
  },
  {
    data: {
      'application/json': {
        model: 'anthropic/claude-sonnet-4-5',
        usage: { input_tokens: 1582, output_tokens: 386 },
        messages: ['You are a careful software engineer working in a Linux sandbox.'],
      },
    },
  },
];

let run: Event[];
let imported: Event[];
beforeAll(async () => {
  run = [
    ...generateRun({ seed: 11, events: 300, depth: 4, errorRate: 0.3, pendingRate: 0 }),
    ...deepRun(14),
  ];
  imported = [
    ...(await importAny(claudeCode, { filename: 'session.jsonl' })).events,
    ...(await importAny(openHands, { filename: 'events-v1.jsonl' })).events,
  ];
});

function PlayerOf({ events }: { events: readonly Event[] }) {
  const player = useReplayPlayer(events);
  return <Player player={player} />;
}

/** Every component in its own box (the widths change later). */
function Gallery() {
  const [timeline] = useState(() => buildTimeline(run));
  const [oneAgent] = useState(() =>
    generateRun({ seed: 5, events: 120, agents: 0, errorRate: 0.3, pendingRate: 0 }),
  );
  const box = (name: string, height: number | undefined, child: ReactNode) => (
    <div
      key={name}
      data-box={name}
      style={{ width: WIDTHS[0], height, overflow: 'auto', marginBottom: 8 }}
    >
      {child}
    </div>
  );
  return (
    <>
      {box('transcript', 480, <Transcript events={run} />)}
      {box('transcript-imported', 360, <Transcript events={imported} />)}
      {box('span-tree', 360, <SpanTree events={run} defaultMode="events" />)}
      {box('span-tree-imported', 300, <SpanTree events={imported} defaultMode="events" />)}
      {box('swimlane', 300, <Swimlane timeline={timeline} />)}
      {box('swimlane-tile', 120, <Swimlane events={oneAgent} compact />)}
      {box('ascii-swimlane', undefined, <AsciiSwimlane timeline={timeline} />)}
      {box('player', undefined, <PlayerOf events={run} />)}
      {box(
        'display',
        undefined,
        bundles.map((b, i) => <Display key={i} bundle={b} trust="untrusted" />),
      )}
    </>
  );
}

/** Component boxes that must never scroll sideways, per component root. */
const SCROLLERS =
  '.skein-transcript, .skein-transcript__scroller, .skein-span-tree, .skein-span-tree__scroller, ' +
  '.skein-swimlane, .skein-swimlane__body, .skein-ascii-swimlane, .skein-player, .skein-display';

/** Whether an element is drawn (not `display: none`, hidden or visually hidden), memoized up the tree. */
function renderedIn(memo: Map<Element, boolean>) {
  const rendered = (el: Element | null): boolean => {
    if (el === null) return true;
    let known = memo.get(el);
    if (known === undefined) {
      const style = getComputedStyle(el);
      known =
        style.display !== 'none' &&
        style.visibility !== 'hidden' &&
        // Visually hidden (for assistive technology only).
        style.clipPath !== 'inset(50%)' &&
        style.clip !== 'rect(0px, 0px, 0px, 0px)' &&
        rendered(el.parentElement);
      memo.set(el, known);
    }
    return known;
  };
  return rendered;
}

/** The width of the line box `node` sits in: its nearest block container's content box. */
function lineWidth(node: Node): number {
  let el = node.parentElement;
  while (el !== null && getComputedStyle(el).display.startsWith('inline')) el = el.parentElement;
  if (el === null) return Infinity;
  const style = getComputedStyle(el);
  return el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
}

/** Unicode words (UAX #29): a line may break between them, at a hyphen or a slash, never inside. */
const words = new Intl.Segmenter('en', { granularity: 'word' });

/** Words on more than one line box, as `"word" (n lines)`. */
function brokenWords(root: Element): string[] {
  const out: string[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const rendered = renderedIn(new Map());
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent === null || parent.closest('svg') !== null) continue;
    if (!rendered(parent)) continue;
    const text = node.textContent ?? '';
    for (const segment of words.segment(text)) {
      if (segment.isWordLike !== true || segment.segment.length < 2) continue;
      range.setStart(node, segment.index);
      range.setEnd(node, segment.index + segment.segment.length);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0);
      const tops = new Set(rects.map((r) => Math.round(r.top / 3)));
      if (tops.size <= 1) continue;
      const width = rects.reduce((sum, r) => sum + r.width, 0);
      if (width > lineWidth(node) - 1) continue; // longer than any line: it must break
      out.push(`"${segment.segment}" (${tops.size} lines, in .${parent.className})`);
    }
  }
  return out;
}

function sideways(box: HTMLElement): string[] {
  const out: string[] = [];
  if (box.scrollWidth > box.clientWidth + 1)
    out.push(`the box scrolls sideways: ${box.scrollWidth} > ${box.clientWidth}`);
  for (const el of box.querySelectorAll<HTMLElement>(SCROLLERS)) {
    if (el.scrollWidth > el.clientWidth + 1)
      out.push(
        `.${el.className.split(' ')[0]} scrolls sideways: ${el.scrollWidth} > ${el.clientWidth}`,
      );
  }
  return out;
}

const frames = (n: number) =>
  new Promise<void>((resolve) => {
    const step = (k: number) => (k === 0 ? resolve() : requestAnimationFrame(() => step(k - 1)));
    step(n);
  });

/** A page that prefers dark: what a user's stylesheet or the OS does, no provider. */
const DARK_PAGE = `[data-scheme='dark'] :is(.skein-transcript, .skein-span-tree, .skein-swimlane,
  .skein-ascii-swimlane, .skein-player) { color-scheme: dark; }`;

describe('every component, bare', () => {
  it('breaks no word and scrolls no box sideways, from 320 to 1280 px, light and dark', async () => {
    const style = document.createElement('style');
    style.textContent = DARK_PAGE;
    document.head.append(style);
    const { container } = render(
      <div data-scheme="light">
        <Gallery />
      </div>,
    );
    const page = container.firstElementChild as HTMLElement;
    try {
      await expect
        .poll(
          () =>
            container.querySelectorAll('[aria-busy="true"]').length === 0 &&
            container.querySelector('[data-box="display"] .skein-md') !== null &&
            container.querySelector('.skein-display__loading, .skein-md__pending') === null,
          { timeout: 20_000 },
        )
        .toBe(true);
      const boxes = [...container.querySelectorAll<HTMLElement>('[data-box]')];
      const problems: string[] = [];
      let words = 0;
      // One mount: the scheme is a page attribute, the widths are box resizes.
      for (const scheme of ['light', 'dark'] as const) {
        page.dataset['scheme'] = scheme;
        // The scheme is really in force.
        const bg = getComputedStyle(container.querySelector('.skein-transcript')!).backgroundColor;
        expect(bg).toBe(scheme === 'dark' ? 'rgb(15, 20, 25)' : 'rgb(255, 255, 255)');
        for (const width of WIDTHS) {
          act(() => {
            for (const box of boxes) box.style.width = `${width}px`;
          });
          // Resize observers, then the rows they bring, then their bodies.
          await frames(3);
          await new Promise((r) => setTimeout(r, 30));
          await frames(2);
          for (const box of boxes) {
            const where = `${box.dataset['box']} @ ${width}px, ${scheme}`;
            for (const p of sideways(box)) problems.push(`${where}: ${p}`);
            for (const w of brokenWords(box)) problems.push(`${where}: ${w}`);
            words += box.textContent?.length ?? 0;
          }
        }
      }
      expect(words).toBeGreaterThan(20_000);
      expect(problems).toEqual([]);
    } finally {
      style.remove();
    }
  }, 90_000);
});
