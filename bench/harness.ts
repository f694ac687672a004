/**
 * The benchmark harness shared by Node and browser benchmarks.
 *
 * Every figure skein reports is a ratio against a physical baseline measured
 * in the same run on the same machine (ARCHITECTURE.md, "Performance model"):
 * one linear pass over N objects, a JSON.parse of the same bytes, a 16.7 ms
 * frame. Absolute milliseconds differ between machines; ratios travel.
 */

/** One row of `bench/results.json`. */
export interface Metric {
  /** Dotted name with the size last, e.g. `core.stream.append.1m`. */
  name: string;
  value: number;
  unit: 'ms' | 'MB' | 'count' | 'events/s' | 'spans/s' | 'kB' | 'ratio' | 'fps';
  /** The baseline's value, in the same unit, measured in this run. */
  baseline?: number;
  /** Name of the baseline metric. */
  baselineName?: string;
  /** `value / baseline`. */
  ratio?: number;
  /** Problem size (events, objects, rows). */
  n?: number;
  /** The target, as text (`≤ 1.5×`), shown in the table. */
  target?: string;
  /**
   * Where a value that was not measured in this run comes from (a peer's
   * figure from research notes, as `peers.md §7`). The table marks the row
   * so, and its ratio compares that figure with `baseline`, ours.
   */
  reference?: string;
}

/** Statistics of repeated timings, in ms. */
export interface Timing {
  median: number;
  min: number;
  max: number;
  samples: number[];
}

/** `1_000_000` → `1m`, `100_000` → `100k`, `512` → `512`. */
export function sizeLabel(n: number): string {
  if (n >= 1_000_000 && n % 1_000_000 === 0) return `${n / 1_000_000}m`;
  if (n >= 1_000 && n % 1_000 === 0) return `${n / 1_000}k`;
  return String(n);
}

/** The value at quantile `q` (0..1) of `values` (nearest-rank). */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

/**
 * Times `fn` `repeat` times after `warmup` untimed runs and returns the median.
 * `fn` may return a promise. `now` is injected so the browser and Node share it.
 * `settle` runs untimed before each sample: the Node runner passes a full GC,
 * so a sample does not pay for collecting the garbage of the one before it
 * (back-to-back 1M builds otherwise land a full mark of the whole heap in
 * most samples, which no single real build would). A GC that the measured
 * code itself triggers is still timed.
 */
export async function timeRepeated(
  fn: () => unknown,
  {
    repeat = 5,
    warmup = 1,
    now = () => performance.now(),
    settle = () => {},
  }: { repeat?: number; warmup?: number; now?: () => number; settle?: () => void } = {},
): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < repeat; i++) {
    settle();
    const t0 = now();
    await fn();
    samples.push(now() - t0);
  }
  return {
    median: quantile(samples, 0.5),
    min: Math.min(...samples),
    max: Math.max(...samples),
    samples,
  };
}

/** Adds `baseline`, `baselineName` and `ratio` to a metric. */
export function withBaseline(metric: Metric, baseline: Metric | undefined): Metric {
  if (!baseline || baseline.value <= 0) return metric;
  return {
    ...metric,
    baseline: baseline.value,
    baselineName: baseline.name,
    ratio: metric.value / baseline.value,
  };
}

/**
 * The physical baseline: one linear pass over `n` small objects, reading one
 * field of each (what any O(n) algorithm over the events must at least do).
 * The objects are built outside the timed region.
 */
export function makeLinearPass(n: number): () => number {
  const objects = Array.from({ length: n }, (_, i) => ({ i, kind: i % 7, t: i * 1.5 }));
  return () => {
    let sum = 0;
    for (let i = 0; i < objects.length; i++) sum += objects[i]!.t;
    return sum;
  };
}

/** Formats the metrics as the table `npm run bench` prints. */
export function formatTable(metrics: readonly Metric[]): string {
  const fmt = (v: number | undefined) =>
    v === undefined || Number.isNaN(v)
      ? ''
      : Math.abs(v) >= 100
        ? v.toFixed(0)
        : Math.abs(v) >= 1
          ? v.toFixed(2)
          : v.toFixed(3);
  const rows = metrics.map((m) => [
    m.reference === undefined ? m.name : `${m.name} [not measured: ${m.reference}]`,
    fmt(m.value),
    m.unit,
    m.baseline === undefined ? '' : `${fmt(m.baseline)} (${m.baselineName ?? ''})`,
    m.ratio === undefined ? '' : `${fmt(m.ratio)}×`,
    m.target ?? '',
    m.n === undefined ? '' : String(m.n),
  ]);
  const head = ['metric', 'value', 'unit', 'baseline', 'ratio', 'target', 'n'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) =>
        i === 1 || i === 4 || i === 6 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!),
      )
      .join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
