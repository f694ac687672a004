/**
 * The hostile-shape corpus: inputs built to break a reader, for every format
 * skein imports, generated from a seed at any size. Each case is one shape
 * (below) written in one format's own terms — a 100,000-deep chain of OTLP
 * parents listed children first, Claude Code sub-agents spawned inside
 * sub-agents, a 50 MB tool result, `__proto__` as a span id — so a test can
 * push it through every layer (import, stream, tree, timeline, swimlane,
 * transcript, the components, the CLI, the viewer) and expect a result or a
 * typed error, never a crash, a hang or a polluted prototype.
 *
 * Shapes, and the formats that can express them (`hostileCase` returns
 * `undefined` for the others):
 *
 * | shape | what | formats |
 * | --- | --- | --- |
 * | `deep` | `depth`-deep nesting: spans (skein, inspect), OTLP parents, sub-agents (claude-code, defect, openhands), tasks (agex), `partial_state` (cantus), span parents with agents used as tools (openai-agents), runs by `parentRunId` and steps (ag-ui) | all but acp, jupyter, vercel-ai (their records do not nest) |
 * | `wide` | `width` siblings under one span | all |
 * | `cycle` | parent cycles | skein, inspect, otlp, claude-code, defect, openai-agents, ag-ui |
 * | `self-parent` | a span (record) its own parent | skein, inspect, otlp, claude-code, defect, openai-agents, ag-ui |
 * | `end-before-begin` | a span ending before it begins | skein, inspect, otlp, claude-code, openhands, jupyter, openai-agents, ag-ui, vercel-ai |
 * | `end-without-begin` | ends, results and replies of nothing | all |
 * | `duplicate-ids` | `duplicates` records sharing ids | all |
 * | `huge-string` | a `stringBytes`-long string in a result | all |
 * | `huge-object` | a `keys`-key object in a result | all |
 * | `deep-value` | a `valueDepth`-deep JSON value in a result and in a message | all |
 * | `big-numbers` | numbers past 2^53 in ids and times | all |
 * | `non-finite` | bare `NaN`, `Infinity`, `-Infinity` where Python writes them | all |
 * | `bad-times` | reversed and out-of-range times | all that carry times (not acp, cantus, vercel-ai) |
 * | `bad-text` | lone surrogates, NUL, BOMs (leading and inside) | all |
 * | `proto-keys` | `__proto__`, `constructor`, `prototype` as keys and ids | all |
 *
 * The Vercel AI SDK's one format (`vercel-ai`) is written in both its forms:
 * the UI message stream (`vercel-ai`: chunks) and the stored `UIMessage[]`
 * (`vercel-ai-messages`, a corpus name of its own: {@link HostileFormat}).
 *
 * Sizes are parameters ({@link HostileSizes}): {@link HOSTILE_TEST} keeps
 * `npm test` fast (its depth still overflows a recursive walk),
 * {@link HOSTILE_FULL} is the full size, run through the core by `npm run
 * fuzz` (and through the CLI and the viewer's loader with
 * `HOSTILE_SIZE=full`). The seed varies ids, names and order; a case's `name`
 * (`otlp/deep#7`) and its seed replay it:
 *
 *   HOSTILE=otlp/deep HOSTILE_SEED=7 npx vitest run --project core hostile
 *
 * Pure (no Node built-ins), like the rest of core; not part of the public API.
 */
import type { FormatId } from '../import/format.js';
import { Prng } from './prng.js';
import { FORMAT_WRITERS } from './hostile-formats.js';

/** The shapes of the corpus (module comment). */
export const HOSTILE_SHAPES = [
  'deep',
  'wide',
  'cycle',
  'self-parent',
  'end-before-begin',
  'end-without-begin',
  'duplicate-ids',
  'huge-string',
  'huge-object',
  'deep-value',
  'big-numbers',
  'non-finite',
  'bad-times',
  'bad-text',
  'proto-keys',
] as const;

/**
 * One hostile shape.
 * @example
 * import type { HostileShape } from 'src/core/generate/hostile.js';
 * const shape: HostileShape = 'deep';
 */
export type HostileShape = (typeof HOSTILE_SHAPES)[number];

/**
 * How big the shapes are.
 * @example
 * import { HOSTILE_SMALL, type HostileSizes } from 'src/core/generate/hostile.js';
 * const sizes: HostileSizes = { ...HOSTILE_SMALL, depth: 50_000 };
 */
export interface HostileSizes {
  /** Levels of the `deep` shape. */
  readonly depth: number;
  /** Siblings of the `wide` shape. */
  readonly width: number;
  /** Length of the `huge-string` string (UTF-16 units, ASCII: bytes). */
  readonly stringBytes: number;
  /** Keys of the `huge-object` object. */
  readonly keys: number;
  /** Levels of the `deep-value` JSON value. */
  readonly valueDepth: number;
  /** Records sharing ids in `duplicate-ids`. */
  readonly duplicates: number;
}

/**
 * The sizes the issue names: what `npm run fuzz:hostile` runs.
 * @example
 * import { HOSTILE_FULL } from 'src/core/generate/hostile.js';
 * HOSTILE_FULL.depth; // 100_000
 */
export const HOSTILE_FULL: HostileSizes = {
  depth: 100_000,
  width: 1_000_000,
  stringBytes: 50 * 1024 * 1024,
  keys: 1_000_000,
  valueDepth: 10_000,
  duplicates: 100_000,
};

/**
 * A mid size for trying a change: deep enough for any recursion (20,000
 * levels, the OTLP chain), wide enough to show a quadratic walk.
 * @example
 * import { HOSTILE_SMALL } from 'src/core/generate/hostile.js';
 * HOSTILE_SMALL.depth; // 20_000
 */
export const HOSTILE_SMALL: HostileSizes = {
  depth: 20_000,
  width: 20_000,
  stringBytes: 1024 * 1024,
  keys: 20_000,
  valueDepth: 10_000,
  duplicates: 2_000,
};

/**
 * The sizes of `npm test`: still past the call stack (recursive walks over
 * spans overflowed at 6,000 to 12,000 levels, depending on the JIT) and past
 * `MAX_VALUE_DEPTH`; small enough that the whole corpus runs in seconds.
 * @example
 * import { HOSTILE_TEST } from 'src/core/generate/hostile.js';
 * HOSTILE_TEST.depth; // 12_000
 */
export const HOSTILE_TEST: HostileSizes = {
  depth: 12_000,
  width: 2_000,
  stringBytes: 1024 * 1024,
  keys: 10_000,
  valueDepth: 10_000,
  duplicates: 300,
};

/**
 * What a reader must still show of a case (the rest is free: a typed error,
 * or a result with diagnostics).
 */
export interface HostileExpect {
  /** At least this many events are imported. */
  readonly events: number;
  /** The span tree is at least this deep (the `deep` shape is shown in full, not cut). */
  readonly depth?: number;
  /** These diagnostic codes are reported. */
  readonly diagnostics?: readonly string[];
  /** A text that some event's JSON holds (a marker placed in the case). */
  readonly contains?: string;
}

/**
 * One generated input.
 * @example
 * import { hostileCase, HOSTILE_SMALL } from 'src/core/generate/hostile.js';
 * const c = hostileCase('otlp', 'cycle', HOSTILE_SMALL, 1)!;
 * c.name; // 'otlp/cycle#1'
 */
export interface HostileCase {
  /** `<form>/<shape>#<seed>`: what a failure prints, and what replays it. */
  readonly name: string;
  /** The format it is read as. */
  readonly format: FormatId;
  /** The corpus format it is written in (`format`, or its second form: {@link HostileFormat}). */
  readonly form: HostileFormat;
  readonly shape: HostileShape;
  readonly seed: number;
  /** A file name with the format's usual extension. */
  readonly filename: string;
  /** The file's content: text, or bytes where a byte-level shape needs it (a BOM). */
  readonly input: string | Uint8Array<ArrayBuffer>;
  readonly expect: HostileExpect;
  /** The same records as JSON Lines, where `input` is one document (OTLP, stored UI messages): for streaming. */
  readonly lines?: string;
}

/**
 * A format of the corpus: a format's id, or `vercel-ai-messages`, the
 * `vercel-ai` format's second form (stored `UIMessage[]`, where `vercel-ai`
 * is its UI message stream): read as the same format, written apart.
 * @example
 * import type { HostileFormat } from 'src/core/generate/hostile.js';
 * const f: HostileFormat = 'vercel-ai-messages';
 */
export type HostileFormat = FormatId | 'vercel-ai-messages';

/**
 * The format a corpus format is read as.
 * @example
 * import { formatOf } from 'src/core/generate/hostile.js';
 * formatOf('vercel-ai-messages'); // 'vercel-ai'
 */
export function formatOf(form: HostileFormat): FormatId {
  return form === 'vercel-ai-messages' ? 'vercel-ai' : form;
}

/** The formats of the corpus, in the registry's order. */
export const HOSTILE_FORMATS: readonly HostileFormat[] = [
  'inspect',
  'otlp',
  'jupyter',
  'claude-code',
  'openhands',
  'openai-agents',
  'acp',
  'defect',
  'agex',
  'cantus',
  'ag-ui',
  'vercel-ai',
  'vercel-ai-messages',
  'skein',
];

/**
 * The case of `shape` in `format`, or `undefined` where the format cannot
 * express the shape (module comment).
 *
 * @example
 * import { hostileCase, HOSTILE_SMALL } from 'src/core/generate/hostile.js';
 * const c = hostileCase('claude-code', 'deep', HOSTILE_SMALL, 42);
 * if (c) await importAny(c.input, { filename: c.filename });
 */
export function hostileCase(
  form: HostileFormat,
  shape: HostileShape,
  sizes: HostileSizes,
  seed: number,
): HostileCase | undefined {
  const writer = FORMAT_WRITERS[form];
  const made = writer?.(shape, { sizes, rng: new Prng(seed), seed });
  if (made === undefined) return undefined;
  return {
    name: `${form}/${shape}#${seed}`,
    format: formatOf(form),
    form,
    shape,
    seed,
    filename: made.filename,
    input: made.input,
    expect: made.expect,
    ...(made.lines !== undefined ? { lines: made.lines } : {}),
  };
}

/**
 * Every case at `sizes`, lazily (one input in memory at a time), optionally
 * only those whose `format/shape` matches `only` (a prefix: `otlp`,
 * `otlp/deep`).
 *
 * @example
 * import { hostileCases, HOSTILE_SMALL } from 'src/core/generate/hostile.js';
 * for (const c of hostileCases(HOSTILE_SMALL, 1, 'skein/')) await importAny(c.input);
 */
export function* hostileCases(
  sizes: HostileSizes,
  seed: number,
  only = '',
): Generator<HostileCase> {
  for (const format of HOSTILE_FORMATS) {
    for (const shape of HOSTILE_SHAPES) {
      if (!`${format}/${shape}`.startsWith(only)) continue;
      const c = hostileCase(format, shape, sizes, seed);
      if (c) yield c;
    }
  }
}
