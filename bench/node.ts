/**
 * Node benchmarks: `*.bench.ts` files under bench/ (outside bench/browser) or
 * next to the code export `default defineBench({ name, run })`. The runner
 * (bench/run.ts) calls `run(ctx)`; the bench records metrics with
 * `ctx.record`, against baselines from `ctx.linearPass` / `ctx.jsonParse`.
 */
import {
  makeLinearPass,
  quantile,
  sizeLabel,
  timeRepeated,
  withBaseline,
  type Metric,
  type Timing,
} from './harness.js';

export interface NodeBenchContext {
  /** `--quick`: run the small size of everything. */
  readonly quick: boolean;
  /** `full` normally, `quick` under `--quick`. */
  size(full: number, quick: number): number;
  /** `1_000_000` → `1m`. */
  label(n: number): string;
  /** Median of repeated timings (ms). */
  time(fn: () => unknown, options?: { repeat?: number; warmup?: number }): Promise<Timing>;
  /** The linear-pass baseline for `n` objects (measured once per n, recorded as `core.noop-pass.<n>`). */
  linearPass(n: number): Promise<Metric>;
  /**
   * The event-pass baseline: one linear pass over these events reading the
   * fields every builder reads (`event`, `uuid`, `span_id`, `timestamp`).
   * Real events are large, varied objects scattered over the heap, so this
   * pass costs ~30× the plain-object pass; it is the honest floor for
   * anything that walks a run ("one linear pass over the events",
   * ARCHITECTURE.md). Recorded once per array as `core.event-pass.<n>`.
   */
  eventPass(events: readonly object[]): Promise<Metric>;
  /**
   * Times `fn` as {@link time} does, and the event pass over `events` right
   * before each of its samples. For ratios with a tight target: on a machine
   * whose speed drifts, a baseline measured once, seconds before, moved such
   * a ratio by ±15 % between runs; paired samples see the same machine.
   */
  timePaired(
    fn: () => unknown,
    events: readonly object[],
    options?: { repeat?: number; warmup?: number },
  ): Promise<{ timing: Timing; pass: Timing }>;
  /** The JSON.parse baseline for `text` (recorded as `<name>.json-parse`). */
  jsonParse(text: string, name: string): Promise<Metric>;
  /** Heap in use after a full GC, in MB (needs `--expose-gc`, which `npm run bench` passes). */
  heapUsedMB(): number;
  /** Adds a metric (with its baseline, if given) to the results. */
  record(metric: Metric, baseline?: Metric): void;
}

export interface NodeBench {
  /** A short name shown while running, e.g. `core.noop-pass`. */
  name: string;
  run(ctx: NodeBenchContext): Promise<void> | void;
}

/**
 * Declares a Node benchmark.
 *
 * @example
 * export default defineBench({
 *   name: 'core.noop-pass',
 *   async run(ctx) { const base = await ctx.linearPass(ctx.size(1e6, 1e5)); },
 * });
 */
export function defineBench(bench: NodeBench): NodeBench {
  return bench;
}

declare const gc: undefined | (() => void);

/** Creates the context the runner hands to every Node bench. */
export function createNodeContext(quick: boolean, out: Metric[]): NodeBenchContext {
  const passes = new Map<number, Metric>();
  const eventPasses = new WeakMap<readonly object[], Metric>();
  const record = (metric: Metric, baseline?: Metric) => out.push(withBaseline(metric, baseline));
  // Under --quick a timing takes at most 3 samples after 1 warm-up, with no
  // full collection before each: the figures are indicative there (the full
  // bench is the measurement; in CI `--quick` is the smoke check that every
  // bench runs and prints its figure), and those collections were most of
  // its run time (~0.1 s each with every bench's modules loaded, two per
  // sample). A heap figure still collects first (`heapUsedMB`).
  const QUICK_REPEAT = 3;
  const fewer = (o?: { repeat?: number; warmup?: number }) =>
    quick
      ? { repeat: Math.min(o?.repeat ?? 5, QUICK_REPEAT), warmup: Math.min(o?.warmup ?? 1, 1) }
      : {};
  const collectAlways = () => {
    if (typeof gc === 'function') {
      gc();
      if (!quick) gc();
    }
  };
  const collect = quick ? () => {} : collectAlways;
  return {
    quick,
    size: (full, small) => (quick ? small : full),
    label: sizeLabel,
    time: (fn, options) => timeRepeated(fn, { settle: collect, ...options, ...fewer(options) }),
    async linearPass(n) {
      const known = passes.get(n);
      if (known) return known;
      const pass = makeLinearPass(n);
      const timing = await timeRepeated(pass, {
        repeat: quick ? QUICK_REPEAT : 15,
        warmup: quick ? 1 : 3,
        settle: collect,
      });
      const metric: Metric = {
        name: `core.noop-pass.${sizeLabel(n)}`,
        value: timing.median,
        unit: 'ms',
        n,
      };
      passes.set(n, metric);
      out.push(metric);
      collect();
      return metric;
    },
    async eventPass(events) {
      const known = eventPasses.get(events);
      if (known) return known;
      const timing = await timeRepeated(makeEventPass(events), {
        repeat: quick ? QUICK_REPEAT : 9,
        warmup: quick ? 1 : 2,
        settle: collect,
      });
      const n = events.length;
      const metric: Metric = {
        name: `core.event-pass.${sizeLabel(n)}`,
        value: timing.median,
        unit: 'ms',
        n,
      };
      eventPasses.set(events, metric);
      out.push(metric);
      return metric;
    },
    async timePaired(fn, events, options) {
      const { repeat = 5, warmup = 1 } = { ...options, ...fewer(options) };
      const pass = makeEventPass(events);
      for (let i = 0; i < warmup; i++) {
        pass();
        await fn();
      }
      const passes: number[] = [];
      const samples: number[] = [];
      for (let i = 0; i < repeat; i++) {
        collect();
        let t0 = performance.now();
        pass();
        passes.push(performance.now() - t0);
        collect();
        t0 = performance.now();
        await fn();
        samples.push(performance.now() - t0);
      }
      return { timing: timingOf(samples), pass: timingOf(passes) };
    },
    async jsonParse(text, name) {
      const timing = await timeRepeated(() => JSON.parse(text), {
        repeat: quick ? QUICK_REPEAT : 5,
        warmup: 1,
        settle: collect,
      });
      const metric: Metric = { name: `${name}.json-parse`, value: timing.median, unit: 'ms' };
      out.push(metric);
      collect();
      return metric;
    },
    heapUsedMB() {
      collectAlways();
      return process.memoryUsage().heapUsed / 2 ** 20;
    },
    record,
  };
}

/**
 * One linear pass over `events` reading the fields every builder reads
 * (`event`, `uuid`, `span_id`, `timestamp`): the event-pass baseline.
 */
function makeEventPass(events: readonly object[]): () => number {
  return () => {
    let h = 0;
    for (let i = 0; i < events.length; i++) {
      const e = events[i] as {
        event?: string;
        uuid?: string;
        span_id?: string | null;
        timestamp?: string;
      };
      h +=
        (e.event?.length ?? 0) +
        (e.uuid?.length ?? 0) +
        (e.span_id ? 1 : 0) +
        (e.timestamp?.length ?? 0);
    }
    return h;
  };
}

/** Median, min, max of `samples`. */
function timingOf(samples: number[]): Timing {
  return {
    median: quantile(samples, 0.5),
    min: Math.min(...samples),
    max: Math.max(...samples),
    samples,
  };
}
