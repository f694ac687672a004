import { codeFence } from '../../src/core/share/markdown.js';
import { describe, expect, it } from 'vitest';
import {
  buildEventTree,
  buildTranscriptRows,
  createEventBuilders,
  eventsToJsonArray,
  eventsToJsonLines,
  eventsToMarkdown,
  generateRun,
  importAny,
  selectedTranscriptEvents,
  transcriptKeyAction,
  transcriptRowRange,
  type Event,
} from '../../src/index.js';
import { begin, end, info } from './helpers/tree-oracle.js';

const events = createEventBuilders({ now: () => Date.parse('2026-06-10T18:24:12Z') });

/** The fenced blocks of a Markdown text, as CommonMark closes them. */
function fencedBlocks(md: string): { fence: string; body: string }[] {
  const out: { fence: string; body: string }[] = [];
  const lines = md.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})/.exec(lines[i]!);
    if (open === null) continue;
    const fence = open[1]!;
    const body: string[] = [];
    let j = i + 1;
    // A closing fence: backticks only, at least as many as the opening.
    while (j < lines.length && !new RegExp(`^${fence}\`*\\s*$`).test(lines[j]!))
      body.push(lines[j++]!);
    out.push({ fence, body: body.join('\n') });
    i = j;
  }
  return out;
}

describe('share: JSON Lines and JSON', () => {
  it('round-trips a generated run through importAny (JSON Lines and JSON array)', async () => {
    const run = generateRun({ events: 60, seed: 7 });
    const jsonl = eventsToJsonLines(run);
    expect(jsonl.endsWith('\n')).toBe(true);
    expect(jsonl.split('\n')).toHaveLength(run.length + 1);
    const back = await importAny(jsonl, { filename: 'selection.jsonl' });
    expect(back.format).toBe('skein');
    expect(back.events.map((e) => JSON.stringify(e))).toEqual(run.map((e) => JSON.stringify(e)));
    const array = await importAny(eventsToJsonArray(run));
    expect(array.events.map((e) => e.uuid)).toEqual(run.map((e) => e.uuid));
    expect(eventsToJsonLines([])).toBe('');
    expect(eventsToJsonArray([])).toBe('[]\n');
  });

  it('a selection of rows reads back as a well-formed run', async () => {
    const run = [
      begin('b1', 's1'),
      info('i1', 's1'),
      begin('b2', 's2', 's1'),
      info('i2', 's2'),
      end('e2', 's2'),
      end('e1', 's1'),
      info('i3'),
    ];
    const tree = buildEventTree(run);
    const rows = buildTranscriptRows(tree);
    // The outer header and the last event: begin, its end after the subtree, the event.
    const picked = selectedTranscriptEvents(tree, rows, new Set(['b1', 'i3']));
    expect(picked.map((e) => e.uuid)).toEqual(['b1', 'e1', 'i3']);
    // A collapsed section stands for everything in it, inner ends in place.
    const folded = buildTranscriptRows(tree, { collapsed: new Set(['s1']) });
    const all = selectedTranscriptEvents(tree, folded, new Set(['b1']));
    expect(all.map((e) => e.uuid)).toEqual(['b1', 'i1', 'b2', 'i2', 'e2', 'e1']);
    const back = await importAny(eventsToJsonLines(all));
    expect(buildEventTree(back.events).spans.map((s) => s.end?.uuid)).toEqual(['e1', 'e2']);
    expect(transcriptRowRange(tree, rows, 3, 1)).toEqual(['i1', 'b2', 'i2']);
  });
});

describe('share: Markdown', () => {
  it('shows kind, time, role, content, and tool arguments in a json block', () => {
    const md = eventsToMarkdown(
      [
        events.message({ role: 'user', content: 'What is in **src**?' } as never),
        events.tool({ id: 'c1', function: 'bash', arguments: { cmd: 'ls src' }, result: 'a.ts' }),
        events.tool({
          id: 'c2',
          function: 'search',
          arguments: { query: 'fences', limit: 3 },
          result: 'none',
        }),
      ] as Event[],
      { title: 'Two steps' },
    );
    expect(md).toMatch(/^## Two steps\n/);
    expect(md).toContain('### 1. message');
    expect(md).toContain('role: user');
    expect(md).toContain('`2026-06-10T18:24:12');
    expect(md).toContain('### 2. tool');
    const blocks = fencedBlocks(md);
    expect(blocks.some((b) => b.body.includes('What is in **src**?'))).toBe(true);
    // A command as its language's block; other tools' arguments as JSON.
    expect(md).toContain('```bash\nls src\n```');
    expect(blocks.some((b) => b.fence === '```' && b.body.includes('"query": "fences"'))).toBe(
      true,
    );
    expect(md).toContain('```json');
  });

  it('hostile content stays inside its fence, and titles are escaped', () => {
    const evil = 'before\n```\n# escaped!\n<img src=x onerror=alert(1)>\n````````\nafter `x`';
    expect(codeFence(evil)).toBe('`'.repeat(9));
    expect(codeFence('plain')).toBe('```');
    const md = eventsToMarkdown([
      events.message({ role: 'assistant', content: evil } as never),
      events.tool({
        id: 'c2',
        function: '<b>[x](javascript:alert(1))</b>',
        arguments: { s: evil },
        result: evil,
      }),
    ] as Event[]);
    const blocks = fencedBlocks(md);
    // Every hostile line is inside a block; none opens a heading or HTML outside one.
    const outside = md
      .split('\n')
      .filter((line) => !blocks.some((b) => b.body.split('\n').includes(line)));
    expect(outside.some((l) => l.startsWith('# escaped'))).toBe(false);
    expect(outside.some((l) => l.includes('<img'))).toBe(false);
    expect(outside.some((l) => l.includes('](javascript'))).toBe(false);
    expect(blocks.find((b) => b.body === evil)?.fence).toBe('`'.repeat(9));
  });

  it('cuts long bodies and says so', () => {
    const md = eventsToMarkdown(
      [events.message({ role: 'user', content: 'x'.repeat(500) } as never)] as Event[],
      {
        maxBodyLength: 100,
      },
    );
    expect(md).toContain('400 more characters not shown');
    expect(md).not.toContain('x'.repeat(101));
  });
});

describe('share: selection keys', () => {
  it('extends, selects all and clears only when selectable', () => {
    expect(transcriptKeyAction({ key: 'ArrowDown', shiftKey: true, selectable: true })).toBe(
      'extend-next',
    );
    expect(transcriptKeyAction({ key: 'ArrowUp', shiftKey: true, selectable: true })).toBe(
      'extend-previous',
    );
    expect(transcriptKeyAction({ key: 'End', shiftKey: true, selectable: true })).toBe(
      'extend-last',
    );
    expect(transcriptKeyAction({ key: 'a', ctrlKey: true, selectable: true })).toBe('select-all');
    expect(transcriptKeyAction({ key: 'a', ctrlKey: true })).toBe(null);
    expect(transcriptKeyAction({ key: 'ArrowDown', shiftKey: true })).toBe('next');
    expect(transcriptKeyAction({ key: 'Escape', selectable: true, hasSelection: true })).toBe(
      'clear-selection',
    );
    expect(
      transcriptKeyAction({ key: 'Escape', selectable: true, hasSelection: true, findOpen: true }),
    ).toBe('close-find');
    expect(transcriptKeyAction({ key: 'Escape', selectable: true, hasSelection: false })).toBe(
      null,
    );
  });
});
