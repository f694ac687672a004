// The hostile-shape corpus (src/core/generate/hostile.ts) through every core
// layer: importAny (and streamImport for line formats) → EventStream → span
// tree (whole and incremental) → timeline (and its dump/load) → swimlane
// layout → transcript rows, find, the span tree's views → describe,
// mimeStream, structured clone. Every case gives a typed error or a result
// that kept what it must, within its CPU budget, with no prototype touched.
// The corpus is split over test files by format (`describeHostileFormats`)
// so that `npm run fuzz:hostile` runs its full sizes two files at a time.
import { appendFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  EventStream,
  buildEventTree,
  buildSpanTreeView,
  buildTimeline,
  buildTranscriptRows,
  createEventTreeBuilder,
  createSwimlaneIndex,
  createTranscriptFind,
  describeEvent,
  formats,
  importAny,
  layoutSwimlane,
  streamImport,
  timelineDump,
  timelineLoad,
  toMimeStream,
  type ImportResult,
} from '../../../src/index.js';
import {
  HOSTILE_SHAPES,
  hostileCase,
  type HostileCase,
  type HostileFormat,
} from '../../../src/core/generate/hostile.js';
import {
  HOSTILE_CPU_LIMIT_S,
  HOSTILE_CPU_LOG,
  HOSTILE_RUN_FULL,
  HOSTILE_SEED,
  HOSTILE_SIZES,
  checkResult,
  cpuSeconds,
  hostilePairs,
  isTyped,
  maxDepth,
  prototypeSnapshot,
  replayCommand,
} from './hostile.js';

/**
 * CPU seconds per layer of one case, in the order they ran (`HOSTILE_CPU_LOG`
 * writes them, to tell which layer a slow case spends its time in).
 */
class Laps {
  readonly laps: Record<string, number> = {};
  #last = process.cpuUsage();

  /** Charges the CPU time since the previous lap to `name`. */
  lap(name: string): void {
    const used = process.cpuUsage(this.#last);
    this.#last = process.cpuUsage();
    this.laps[name] = Math.round((used.user + used.system) / 1e4) / 100;
  }
}

/** Every layer a case goes through; returns what the checks need. */
async function pipeline(
  c: HostileCase,
  t: Laps,
): Promise<{ result: ImportResult; depth: number } | null> {
  let result: ImportResult;
  try {
    result = await importAny(c.input, { filename: c.filename });
  } catch (e) {
    if (isTyped(e)) return null;
    throw e;
  }
  t.lap('import');
  const latest = EventStream.from(result.events).latest();
  t.lap('eventstream');
  await streamed(c, latest.length);
  t.lap('stream');
  const tree = buildEventTree(latest);
  t.lap('tree');
  // A live feed: the same events one at a time (the same tree), and again
  // last to first (children before their parents, ends before begins).
  const forward = createEventTreeBuilder();
  for (const e of latest) forward.append(e);
  expect(forward.getSnapshot().length).toBe(tree.length);
  const backward = createEventTreeBuilder();
  for (let i = latest.length - 1; i >= 0; i--) backward.append(latest[i]!);
  void backward.getSnapshot();
  t.lap('tree-builders');

  const timeline = buildTimeline(latest);
  t.lap('timeline');
  timelineLoad(timelineDump(timeline), latest);
  t.lap('timeline-dump-load');
  const layout = layoutSwimlane(timeline, { showBranches: true });
  for (const row of layout.rows.slice(0, 200)) void [row.bars, row.markers, row.tokens];
  createSwimlaneIndex(layout);
  t.lap('swimlane');

  buildTranscriptRows(tree);
  t.lap('rows');
  buildSpanTreeView(tree);
  buildSpanTreeView(tree, { mode: 'outline' });
  buildSpanTreeView(tree, { mode: 'events' });
  t.lap('span-tree-views');
  await findAll(tree);
  t.lap('find');

  // What a view and a worker do with single events: describe, serialize, clone.
  const some = [...latest.slice(0, 100), ...latest.slice(-100)];
  for (const e of some) void describeEvent(e).searchText;
  for (const r of toMimeStream(some)) JSON.stringify(r);
  // What the viewer's worker posts: every event at the test sizes, a slice at full size.
  structuredClone(HOSTILE_RUN_FULL ? latest.slice(0, 100_000) : latest);
  t.lap('describe-clone');
  return { result, depth: maxDepth(tree.depth) };
}

/**
 * The streaming form of a line format (`streamImport`, 64 KiB chunks, every
 * batch appended to an EventStream as a live view does): it ends, and its
 * latest events are as many as the whole import's (`wholeLatest`). OTLP is streamed as JSON
 * Lines of one-span exports (`lines`), in the document's order: children first
 * (test/core/import-otlp-stream.test.ts compares its events with the
 * document's, shape by shape); stored Vercel AI messages (a JSON array) as one
 * message a line.
 */
async function streamed(c: HostileCase, wholeLatest: number): Promise<void> {
  const format = formats.find((f) => f.id === c.format)!;
  if (!format.incremental) return;
  // The corpus writes Jupyter as notebooks: one document, not the iopub
  // message log that Jupyter's incremental importer reads.
  if (c.format === 'jupyter' && c.lines === undefined) return;
  const text =
    c.lines ?? (typeof c.input === 'string' ? c.input : new TextDecoder().decode(c.input));
  const chunks = (async function* () {
    for (let at = 0; at < text.length; at += 65_536) yield text.slice(at, at + 65_536);
  })();
  const live = new EventStream();
  try {
    for await (const batch of streamImport(chunks, { format: c.format, filename: c.filename }))
      for (const e of batch) live.append(e);
  } catch (e) {
    if (isTyped(e)) return;
    throw e;
  }
  expect(live.latest().length, 'streamed').toBe(wholeLatest);
}

/**
 * Runs a transcript find over the whole tree to its end. Its search text is
 * the kind (the walk is what is tested here; describing every event is
 * linear and slow, and runs below on the first and last hundred).
 */
function findAll(tree: ReturnType<typeof buildEventTree>): Promise<void> {
  const find = createTranscriptFind({
    searchText: (e) => e.event,
    schedule: (task) => void setImmediate(task),
    sliceMs: 50,
  });
  find.search('HOSTILE', tree);
  return new Promise((done) => {
    const check = () => (find.getSnapshot().done ? done() : setImmediate(check));
    check();
  });
}

/**
 * The formats of fuzz-hostile-2.test.ts; fuzz-hostile.test.ts has the rest
 * (so a new format is never left out). Chosen so that the two files' full
 * sizes cost about the same CPU time (`HOSTILE_CPU_LOG`, seed 1, measured
 * under load: 597 CPU-s for the first file's five formats and 622 for these
 * five; then openai-agents 44 and ag-ui 45 to the first, vercel-ai 27 and
 * vercel-ai-messages 22 here: about 685 and 670), since `npm run
 * fuzz:hostile` runs one file per worker and ends with the slower.
 */
export const HOSTILE_SECOND_FILE: readonly HostileFormat[] = [
  'otlp',
  'claude-code',
  'acp',
  'cantus',
  'vercel-ai',
  'vercel-ai-messages',
  'skein',
];

/**
 * One test per shape each of `formats` expresses, through {@link pipeline};
 * `file` is the test file, named in the replay command a failure prints.
 */
export function describeHostileFormats(formats: readonly HostileFormat[], file: string): void {
  describe(`hostile shapes through the core: ${formats.join(', ')} (seed ${HOSTILE_SEED})`, () => {
    it.each(hostilePairs(formats, HOSTILE_SHAPES))(
      '%s / %s',
      async (format, shape) => {
        const laps = new Laps();
        const c = hostileCase(format, shape, HOSTILE_SIZES, HOSTILE_SEED)!;
        laps.lap('generate');
        const before = prototypeSnapshot();
        let outcome: Awaited<ReturnType<typeof pipeline>>;
        let cpu: number;
        try {
          [outcome, cpu] = await cpuSeconds(() => pipeline(c, laps));
        } catch (e) {
          throw new Error(
            `${c.name} threw ${String(e)}\nreplay: ${replayCommand(c, 'core', file)}`,
            {
              cause: e,
            },
          );
        }
        if (HOSTILE_CPU_LOG)
          appendFileSync(
            HOSTILE_CPU_LOG,
            `${JSON.stringify({ case: c.name, cpu: Math.round(cpu * 100) / 100, typedError: outcome === null, laps: laps.laps, maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`,
          );
        const problems = outcome === null ? [] : checkResult(c, outcome.result, outcome.depth);
        if (prototypeSnapshot() !== before) problems.push('a prototype gained or lost a property');
        if (cpu > HOSTILE_CPU_LIMIT_S)
          problems.push(`took ${cpu.toFixed(2)} CPU-s, over ${HOSTILE_CPU_LIMIT_S} s`);
        expect(problems, `${c.name}\nreplay: ${replayCommand(c, 'core', file)}`).toEqual([]);
      },
      600_000,
    );
  });
}
