// Find searches all the text a row shows (issue 16): tool output, errors,
// tracebacks (without their ANSI escapes), model errors and display bundles,
// not only what a kind's describer chose to add.
import { describe, expect, it } from 'vitest';
import {
  EventStream,
  buildEventTree,
  createTranscriptFind,
  describeEvent,
  events,
  generateRun,
  type DisplayMetadata,
} from '../../src/index.js';
import { markdownToPlainText } from '../../src/core/display/markdown-text.js';

// eslint-disable-next-line no-control-regex
const stripAnsi = (t: string) => t.replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, '');

describe('searchText holds every open body', () => {
  it('on a generated run with errors', () => {
    const run = EventStream.from(generateRun({ seed: 5, events: 1500, errorRate: 0.3 })).latest();
    let checked = 0;
    for (const event of run) {
      const d = describeEvent(event);
      if (d.searchTextTruncated > 0) continue;
      for (const body of d.bodies) {
        if ((body.metadata?.skein as DisplayMetadata | undefined)?.collapsed) continue;
        const plain = body.data['text/plain'];
        const markdown = body.data['text/markdown'];
        const text =
          typeof markdown === 'string'
            ? markdownToPlainText(markdown)
            : typeof plain === 'string'
              ? stripAnsi(plain)
              : undefined;
        if (text === undefined) continue;
        for (const line of text
          .split('\n')
          .filter((l) => l.trim() !== '')
          .slice(0, 5)) {
          expect(d.searchText, `${d.kind} ${d.uuid}`).toContain(line);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('a model error traceback, in colour, is found by its words', () => {
    const e = events.model({
      uuid: 'm1',
      timestamp: '2026-01-01T00:00:00Z',
      model: 'm',
      error: 'RateLimitError: slow down',
      traceback: 'Traceback (most recent call last)\n  File "agent.py", line 7\nRateLimitError',
      traceback_ansi:
        '\u001b[31mTraceback\u001b[0m (most recent call last)\n  File \u001b[35m"agent.py"\u001b[0m, line 7',
    });
    const d = describeEvent(e);
    expect(d.searchText).toContain('File "agent.py", line 7');
    expect(d.searchText).not.toContain('\u001b');
  });

  it('the text of display bundles and markdown as rendered', () => {
    const d = describeEvent(
      events.display({
        uuid: 'd1',
        timestamp: '2026-01-01T00:00:00Z',
        outputs: [{ data: { 'text/markdown': 'Accuracy is **97.5%** on [the set](x)' } }],
      }),
    );
    expect(d.searchText).toContain('Accuracy is 97.5% on the set');
  });
});

describe('createTranscriptFind', () => {
  it('counts every event whose traceback holds the query', async () => {
    const run = EventStream.from(generateRun({ seed: 9, events: 800, errorRate: 0.4 })).latest();
    const tree = buildEventTree(run);
    const withTrace = run.filter((e) =>
      stripAnsi(String((e as { traceback_ansi?: unknown }).traceback_ansi ?? '')).includes(
        'Traceback',
      ),
    );
    const find = createTranscriptFind({ schedule: (task) => queueMicrotask(task), sliceMs: 1 });
    find.search('Traceback', tree);
    while (!find.getSnapshot().done) await new Promise((r) => setTimeout(r, 0));
    const found = new Set(find.getSnapshot().matches.map((i) => tree.events[i]!.uuid));
    for (const e of withTrace) expect(found.has(e.uuid)).toBe(true);
    expect(withTrace.length).toBeGreaterThan(0);
  });
});
