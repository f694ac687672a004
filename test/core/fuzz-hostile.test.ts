// The hostile-shape corpus (src/core/generate/hostile.ts) through every core
// layer: importAny (and streamImport for line formats) → EventStream → span
// tree (whole and incremental) →
// timeline (and its dump/load) → swimlane layout → transcript rows, find,
// the span tree's views → describe, mimeStream, structured clone. Every case
// gives a typed error or a result that kept what it must, within its CPU
// budget, with no prototype touched. `npm test` runs the small sizes (seed 1);
// `npm run fuzz:hostile` the full ones (a new seed each run, printed on failure).
// A failure prints the command that replays it.
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
  displayOf,
  formats,
  importAny,
  layoutSwimlane,
  mimeStream,
  streamImport,
  timelineDump,
  timelineLoad,
  toMimeStream,
  type Event,
  type ImportResult,
} from '../../src/index.js';
import {
  HOSTILE_FORMATS,
  HOSTILE_SHAPES,
  hostileCase,
  type HostileCase,
} from '../../src/core/generate/hostile.js';
import { toJsonSafe } from '../../src/core/display/mime-stream.js';
import {
  HOSTILE_CPU_LIMIT_S,
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
} from './helpers/hostile.js';

const FILE = 'test/core/fuzz-hostile.test.ts';

/** Every layer a case goes through; returns what the checks need. */
async function pipeline(c: HostileCase): Promise<{ result: ImportResult; depth: number } | null> {
  let result: ImportResult;
  try {
    result = await importAny(c.input, { filename: c.filename });
  } catch (e) {
    if (isTyped(e)) return null;
    throw e;
  }
  const events = result.events;
  await streamed(c, result);
  const stream = EventStream.from(events);
  const latest = stream.latest();
  const tree = buildEventTree(latest);
  // A live feed: the same events one at a time (the same tree), and again
  // last to first (children before their parents, ends before begins).
  const forward = createEventTreeBuilder();
  for (const e of latest) forward.append(e);
  expect(forward.getSnapshot().length).toBe(tree.length);
  const backward = createEventTreeBuilder();
  for (let i = latest.length - 1; i >= 0; i--) backward.append(latest[i]!);
  void backward.getSnapshot();

  const timeline = buildTimeline(latest);
  timelineLoad(timelineDump(timeline), latest);
  const layout = layoutSwimlane(timeline, { showBranches: true });
  for (const row of layout.rows.slice(0, 200)) void [row.bars, row.markers, row.tokens];
  createSwimlaneIndex(layout);

  buildTranscriptRows(tree);
  buildSpanTreeView(tree);
  buildSpanTreeView(tree, { mode: 'outline' });
  buildSpanTreeView(tree, { mode: 'events' });
  await findAll(tree);

  // What a view and a worker do with single events: describe, serialize, clone.
  const some = [...latest.slice(0, 100), ...latest.slice(-100)];
  for (const e of some) void describeEvent(e).searchText;
  for (const r of toMimeStream(some)) JSON.stringify(r);
  // What the viewer's worker posts: every event at the test sizes, a slice at full size.
  structuredClone(HOSTILE_RUN_FULL ? latest.slice(0, 100_000) : latest);
  return { result, depth: maxDepth(tree.depth) };
}

/**
 * The streaming form of a line format (`streamImport`, 64 KiB chunks, every
 * batch appended to an EventStream as a live view does): it ends, and its
 * latest events are as many as the whole import's. OTLP is streamed as JSON
 * Lines of one-span exports (`lines`), in the document's order: children first.
 */
async function streamed(c: HostileCase, whole: ImportResult): Promise<void> {
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
  if (c.format !== 'otlp')
    expect(live.latest().length, 'streamed').toBe(EventStream.from(whole.events).latest().length);
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

describe(`hostile shapes through the core (seed ${HOSTILE_SEED})`, () => {
  const pairs = hostilePairs(HOSTILE_FORMATS, HOSTILE_SHAPES);

  it('has a case for every format and every shape', () => {
    // Each format expresses most shapes; each shape is expressed by some format.
    const formats = new Set(pairs.map(([f]) => f));
    const shapes = new Set(pairs.map(([, s]) => s));
    if (pairs.length < (HOSTILE_FORMATS.length * HOSTILE_SHAPES.length) / 2) return; // filtered run
    expect([...formats].sort()).toEqual([...HOSTILE_FORMATS].sort());
    expect([...shapes].sort()).toEqual([...HOSTILE_SHAPES].sort());
  });

  it.each(pairs)(
    '%s / %s',
    async (format, shape) => {
      const c = hostileCase(format, shape, HOSTILE_SIZES, HOSTILE_SEED)!;
      const before = prototypeSnapshot();
      let outcome: Awaited<ReturnType<typeof pipeline>>;
      let cpu: number;
      try {
        [outcome, cpu] = await cpuSeconds(() => pipeline(c));
      } catch (e) {
        throw new Error(`${c.name} threw ${String(e)}\nreplay: ${replayCommand(c, 'core', FILE)}`, {
          cause: e,
        });
      }
      const problems = outcome === null ? [] : checkResult(c, outcome.result, outcome.depth);
      if (prototypeSnapshot() !== before) problems.push('a prototype gained or lost a property');
      if (cpu > HOSTILE_CPU_LIMIT_S)
        problems.push(`took ${cpu.toFixed(2)} CPU-s, over ${HOSTILE_CPU_LIMIT_S} s`);
      expect(problems, `${c.name}\nreplay: ${replayCommand(c, 'core', FILE)}`).toEqual([]);
    },
    600_000,
  );

  it('reports a value cut for depth once, with its count, and keeps the rest', async () => {
    const c = hostileCase('skein', 'deep-value', HOSTILE_SIZES, HOSTILE_SEED)!;
    const { events, diagnostics } = await importAny(c.input, { filename: c.filename });
    const cuts = diagnostics.filter((d) => d.code === 'value_too_deep');
    expect(cuts).toHaveLength(1);
    // Two values were cut (the message's content and the tool's result and
    // arguments): counted in the one diagnostic.
    expect(cuts[0]!.message).toMatch(/^3 values were nested more than 1000 levels deep/);
    const tool = events.find((e) => e.event === 'tool') as Event & { result: unknown };
    let depth = 0;
    let v: unknown = tool.result;
    while (typeof v === 'object' && v !== null) {
      v = Array.isArray(v) ? v[0] : (v as Record<string, unknown>)['d'];
      depth++;
    }
    expect(depth).toBe(1000);
    expect(v).toMatch(/^\[value_too_deep/);
    expect(JSON.stringify(events).length).toBeGreaterThan(0);
  });
});

describe('hostile values handed to the display layer directly (not imported)', () => {
  // What an agent framework passes to mimeStream or <Display value>: raw
  // JavaScript values, neither frozen nor cut. 100,000 levels: cheap to build.
  const deep = () => {
    let v: unknown = 'HOSTILE-LEAF';
    for (let i = 0; i < 100_000; i++) v = i % 2 ? [v] : { d: v };
    return v;
  };
  const cyclic = () => {
    const a: Record<string, unknown> = { name: 'a' };
    a['self'] = a;
    a['list'] = [a, { back: a }];
    return a;
  };
  const wide = () => {
    const o: Record<string, number> = {};
    for (let i = 0; i < HOSTILE_SIZES.keys; i++) o[`k${i}`] = i;
    return o;
  };
  const values: [string, () => unknown][] = [
    ['100,000 levels', deep],
    ['a cycle', cyclic],
    [`${HOSTILE_SIZES.keys} keys`, wide],
    [
      '__proto__ keys',
      () =>
        JSON.parse('{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 1}}}'),
    ],
  ];

  it.each(values)(
    '%s: displayOf, mimeStream, toJsonSafe, describeEvent, EventStream.append',
    (_, make) => {
      const before = prototypeSnapshot();
      const bundle = displayOf(make());
      expect(JSON.stringify(bundle).length).toBeGreaterThan(0);
      const records = [...mimeStream([make()])];
      expect(() => JSON.stringify(records)).not.toThrow();
      expect(() => structuredClone(toJsonSafe(make()))).not.toThrow();
      const event = { event: 'info', uuid: 'raw', timestamp: '2026-01-01T00:00:00Z', data: make() };
      void describeEvent(event as never).searchText;
      const stream = new EventStream();
      const kept = stream.append(event as never);
      // Appended: frozen, and (deep) cut, so it serializes like any event.
      expect(Object.isFrozen(kept)).toBe(true);
      if (make !== cyclic) expect(() => structuredClone(kept)).not.toThrow();
      expect(prototypeSnapshot()).toBe(before);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    },
    // A million keys is walked by each layer in turn (every layer lists them):
    // seconds at full size on a loaded machine.
    HOSTILE_RUN_FULL ? 600_000 : undefined,
  );
});
