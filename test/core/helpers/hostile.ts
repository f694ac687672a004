// Running the hostile-shape corpus (src/core/generate/hostile.ts) in tests:
// which sizes and seed a run uses, how a failure names its replay command,
// and the checks every layer's test shares (a typed error or a result that
// kept what it must, and no prototype touched).
import {
  HOSTILE_FULL,
  HOSTILE_TEST,
  hostileCase,
  type HostileCase,
  type HostileFormat,
  type HostileShape,
  type HostileSizes,
} from '../../../src/core/generate/hostile.js';
import { SkeinError, type Event, type ImportResult } from '../../../src/index.js';

/**
 * Full size under `npm run fuzz:hostile` (`HOSTILE_SIZE=full`) or `FUZZ_RUNS` ≥ 1,000;
 * else the `npm test` size ({@link HOSTILE_TEST}).
 */
export const HOSTILE_RUN_FULL =
  process.env['HOSTILE_SIZE'] === 'full' ||
  (process.env['HOSTILE_SIZE'] !== 'small' && Number(process.env['FUZZ_RUNS'] ?? 0) >= 1000);

export const HOSTILE_SIZES: HostileSizes = HOSTILE_RUN_FULL ? HOSTILE_FULL : HOSTILE_TEST;

/** The seed: `HOSTILE_SEED`, else a new one per full run, else 1 (`npm test` is repeatable). */
export const HOSTILE_SEED = process.env['HOSTILE_SEED']
  ? Number(process.env['HOSTILE_SEED'])
  : HOSTILE_RUN_FULL
    ? Math.floor(Math.random() * 2 ** 31)
    : 1;

/** Only cases whose `format/shape` starts with `HOSTILE` (e.g. `otlp/deep`). */
export const HOSTILE_ONLY = process.env['HOSTILE'] ?? '';

/**
 * CPU seconds a case may take before it counts as a hang: five times the
 * issue's 2 s at the `npm test` sizes (a loaded machine slows CPU time too;
 * the 2 s itself is measured in `npm run bench`, `core.hostile.case-max`), and
 * generous at full size. CPU time, not wall time: other processes do not
 * count, a quadratic walk does.
 */
export const HOSTILE_CPU_LIMIT_S = HOSTILE_RUN_FULL ? 300 : 10;

/**
 * A file to which each case appends one JSON line: its name, CPU seconds (in
 * all and per layer) and the worker's peak resident memory so far.
 */
export const HOSTILE_CPU_LOG = process.env['HOSTILE_CPU_LOG'] ?? '';

/** The command that replays one case. */
export function replayCommand(c: HostileCase, project: string, file: string): string {
  const size = HOSTILE_RUN_FULL ? ' HOSTILE_SIZE=full' : '';
  return `HOSTILE=${c.form}/${c.shape} HOSTILE_SEED=${c.seed}${size} npx vitest run --project ${project} ${file}`;
}

/** Every `[format, shape]` the corpus has a case for, filtered by {@link HOSTILE_ONLY}. */
export function hostilePairs(
  formats: readonly HostileFormat[],
  shapes: readonly HostileShape[],
): [HostileFormat, HostileShape][] {
  const out: [HostileFormat, HostileShape][] = [];
  // A tiny size answers "does the format express this shape" without building the big input.
  const tiny: HostileSizes = {
    depth: 4,
    width: 4,
    stringBytes: 64,
    keys: 4,
    valueDepth: 4,
    duplicates: 4,
  };
  for (const f of formats)
    for (const s of shapes)
      if (`${f}/${s}`.startsWith(HOSTILE_ONLY) && hostileCase(f, s, tiny, 1)) out.push([f, s]);
  return out;
}

/** Own property names of the prototypes input could reach, to compare after a case. */
export function prototypeSnapshot(): string {
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype]
    .map((p) => Object.getOwnPropertyNames(p).sort().join(','))
    .join('|');
}

/** What a case must still show: failures as messages (empty: it passed). */
export function checkResult(c: HostileCase, result: ImportResult, depth: number): string[] {
  const problems: string[] = [];
  const { expect } = c;
  if (result.format !== c.format) problems.push(`read as ${result.format}, not ${c.format}`);
  if (result.events.length < expect.events)
    problems.push(`${result.events.length} events, expected at least ${expect.events}`);
  if (expect.depth !== undefined && depth < expect.depth)
    problems.push(`the tree is ${depth} deep, expected at least ${expect.depth}`);
  for (const code of expect.diagnostics ?? [])
    if (!result.diagnostics.some((d) => d.code === code)) problems.push(`no ${code} diagnostic`);
  if (expect.contains !== undefined && !result.events.some((e) => holds(e, expect.contains!)))
    problems.push(`no event holds ${expect.contains}`);
  const probe = {} as Record<string, unknown>;
  if (
    probe['polluted'] !== undefined ||
    Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')
  )
    problems.push('Object.prototype was polluted');
  return problems;
}

/** Whether `event` holds `text` in any string (an explicit stack: values nest deep). */
function holds(event: Event, text: string): boolean {
  const stack: unknown[] = [event];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes(text)) return true;
    } else if (v !== null && typeof v === 'object') {
      for (const k of Object.keys(v)) {
        if (k.includes(text)) return true;
        stack.push((v as Record<string, unknown>)[k]);
      }
    }
  }
  return false;
}

/** Whether an error is one skein throws on purpose (typed, with a catalogue code). */
export function isTyped(error: unknown): error is SkeinError {
  return error instanceof SkeinError && typeof error.code === 'string';
}

/** The deepest node of a tree's depth column. */
export function maxDepth(depth: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < depth.length; i++) if (depth[i]! > max) max = depth[i]!;
  return max;
}

/** CPU seconds (user + system) spent by this process while `run` ran. */
export async function cpuSeconds<T>(run: () => Promise<T> | T): Promise<[T, number]> {
  const before = process.cpuUsage();
  const value = await run();
  const used = process.cpuUsage(before);
  return [value, (used.user + used.system) / 1e6];
}
