import { createRoot } from 'react-dom/client';
import { generateRun, type Event } from 'skein';
import { ViewerApp } from '../../viewer/app.js';
import '../../viewer/viewer.css';
import { inspectJsonLog } from '../inspect-log.js';
import { defineBrowserBench } from './context.js';

/**
 * `viewer.open.*` (issue 22): the viewer opening a generated single-sample
 * inspect_ai `.json` log of 300k events (30k with `--quick`, which cannot
 * afford to generate and hold 300k twice) through `?src=<url>`, the path
 * `skein view <file>` takes (the file is a blob: URL here, fetched by the
 * loader's worker as it fetches `/api/file/…`).
 *
 * - `first-rows`: from mounting the viewer to the first transcript rows
 *   painted; its baseline is one `JSON.parse` of the same text on this page
 *   (the issue: below one parse of the file, ≤ 1 s).
 * - `loaded`: until the last event is appended and the load says done.
 * - `longest-task`: the longest main-thread task (PerformanceObserver
 *   `longtask`) from mount to loaded (≤ 50 ms).
 * - `heap`: the page's JS heap after the load, over the file's bytes (≤ 2×).
 *   The loader worker's heap is its own isolate and is not in this figure.
 *
 * Page start-up (fetching and compiling the bundle) is not included: the
 * viewer is mounted in the already loaded bench page.
 */
export default defineBrowserBench({
  name: 'viewer.open',
  async run(ctx) {
    const n = ctx.size(300_000, 30_000);
    const label = ctx.label(n);
    // The log, made before anything is measured; only its bytes stay.
    let bytes: Uint8Array | null = inspectJsonLog(
      smallPayloads(generateRun({ seed: 1, events: n, pendingRate: 0 })),
    );
    const size = bytes.length;
    ctx.record({ name: `viewer.open.file.${label}`, value: size / 2 ** 20, unit: 'MB', n });
    let text: string | null = new TextDecoder().decode(bytes);
    const parse = await ctx.time(() => JSON.parse(text!), { repeat: 1, warmup: 0 });
    text = null;
    const parseMetric = {
      name: `viewer.open.json-parse.${label}`,
      value: parse.median,
      unit: 'ms' as const,
      n,
    };
    ctx.record(parseMetric);
    const url = URL.createObjectURL(
      new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/json' }),
    );
    bytes = null;
    const heapBefore = ctx.heapMB();

    const el = ctx.container(1280, 900);
    const before = location.href;
    history.replaceState(null, '', `?src=${encodeURIComponent(url)}`);
    const root = createRoot(el);
    let firstRows = NaN;
    let loaded = NaN;
    const t0 = performance.now();
    try {
      const stats = await ctx.frames(async () => {
        root.render(<ViewerApp />);
        for (;;) {
          await ctx.nextPaint();
          const now = performance.now();
          if (Number.isNaN(firstRows) && el.querySelector('[aria-label="Transcript"] article'))
            firstRows = now - t0;
          const doc = el.querySelector('.viewer-doc');
          const phase = doc?.getAttribute('data-phase');
          if (phase === 'error') throw new Error(`viewer failed: ${doc?.textContent ?? ''}`);
          if (phase === 'done' && !Number.isNaN(firstRows)) {
            loaded = now - t0;
            break;
          }
          if (now - t0 > 600_000) throw new Error('viewer did not finish loading in 10 min');
        }
      });
      ctx.record(
        {
          name: `viewer.open.first-rows.${label}`,
          value: firstRows,
          unit: 'ms',
          n,
          target: '≤ 1 s, < JSON.parse',
        },
        parseMetric,
      );
      ctx.record(
        { name: `viewer.open.loaded.${label}`, value: loaded, unit: 'ms', n },
        parseMetric,
      );
      ctx.record({
        name: `viewer.open.longest-task.${label}`,
        value: stats.longestTask,
        unit: 'ms',
        n,
        target: '≤ 50 ms',
      });
      ctx.record({
        name: `viewer.open.long-tasks.${label}`,
        value: stats.longTasks,
        unit: 'count',
        n,
      });
      const heapAfter = ctx.heapMB();
      if (heapBefore !== undefined && heapAfter !== undefined) {
        ctx.record({
          name: `viewer.open.heap.${label}`,
          value: (heapAfter - heapBefore) / (size / 2 ** 20),
          unit: 'ratio',
          n,
          target: '≤ 2×',
        });
      }
    } finally {
      root.unmount();
      URL.revokeObjectURL(url);
      history.replaceState(null, '', before);
    }
  },
});

/**
 * The generated run with small payloads, as in the peer measurement
 * (research/peers.md §7): a model event keeps the last input message and no
 * tool definitions (the generator repeats the whole conversation and every
 * tool in each call, ~5 kB an event, where inspect pools them).
 */
function smallPayloads(events: readonly Event[]): Event[] {
  return events.map((e) => {
    if (e.event !== 'model') return e;
    const input = (e as { input?: unknown }).input;
    return { ...e, tools: [], input: Array.isArray(input) ? input.slice(-1) : input } as Event;
  });
}
