// Fuzzing for importers (issue 19, "Fuzzing"): mutated inputs seeded from real
// shapes — truncation, type swaps, missing fields, deep nesting, huge strings,
// `__proto__`/`constructor` keys, invalid UTF-8. Every input must give a result
// or an `ImportError`, within a time limit, without polluting prototypes.
// `FUZZ_RUNS` sets the count per importer (`npm run fuzz` runs 10,000), shared
// among the importer's properties ({@link fuzzShare}).
//
// What it costs (CPU time, measured on the 2-core machine): an input with a
// 10 MB string 50–100 ms (building, decoding and parsing 10 MB; the same few
// code paths each time), any other about 1 ms. At one input in four the huge
// ones were over nine tenths of the run: 21 properties × 10,000 inputs would
// have taken ~4,300 CPU-s. Now one input in a hundred is huge, in a property
// of its own, and the 10,000 are per importer: the whole run ~105 CPU-s.
import { readJsonLines } from '../../../src/core/import/lines.js';
import fc from 'fast-check';
import { expect } from 'vitest';
import {
  EventStream,
  ImportContext,
  ImportError,
  type Event,
  type ImportOptions,
  type IncrementalImporter,
} from '../../../src/index.js';

/** How many inputs each importer gets: a small count in `npm test`, more with FUZZ_RUNS. */
export const FUZZ_RUNS = Number(process.env['FUZZ_RUNS'] ?? 100);

/** One of an importer's `properties` properties' share of its {@link FUZZ_RUNS} inputs. */
export function fuzzShare(properties: number): number {
  return Math.ceil(FUZZ_RUNS / properties);
}

/** The share of inputs that get a 10 MB string: at least one per property. */
const HUGE_SHARE = 1 / 100;

const HUGE_LENGTH = 10 * 1024 * 1024;
let hugeString: string | undefined;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const scalar = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.constant(''),
  fc.constant('__proto__'),
);

function paths(value: unknown, at: (string | number)[] = [], out: (string | number)[][] = []) {
  out.push(at);
  if (out.length > 400) return out;
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...at, i], out));
  else if (value && typeof value === 'object')
    for (const k of Object.keys(value))
      paths((value as Record<string, unknown>)[k], [...at, k], out);
  return out;
}

function setAt(root: Json, path: (string | number)[], fn: (v: Json) => Json | undefined): Json {
  if (path.length === 0) return fn(root) ?? null;
  const copy: Json = structuredClone(root);
  let node: Json = copy;
  for (const p of path.slice(0, -1)) node = (node as Record<string, Json>)[p as string]!;
  const last = path[path.length - 1]!;
  const next = fn((node as Record<string, Json>)[last as string]!);
  if (next === undefined) {
    if (Array.isArray(node)) node.splice(last as number, 1);
    else delete (node as Record<string, Json>)[last as string];
  } else (node as Record<string, Json>)[last as string] = next;
  return copy;
}

/** A mutation of one JSON record. */
interface Mutation {
  op: string;
  pick: number;
  value?: unknown;
  depth?: number;
}

const mutation = fc.oneof(
  fc.record({ op: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('swap' as const), pick: fc.nat(), value: scalar }),
  fc.record({ op: fc.constant('array' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('object' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('proto' as const), pick: fc.nat() }),
  fc.record({
    op: fc.constant('deep' as const),
    pick: fc.nat(),
    depth: fc.integer({ min: 100, max: 5000 }),
  }),
);

function mutate(record: Json, m: Mutation): Json {
  const all = paths(record);
  const path = all[m.pick % all.length]!;
  switch (m.op) {
    case 'delete':
      return setAt(record, path, () => undefined);
    case 'swap':
      return setAt(record, path, () => m.value as Json);
    case 'array':
      return setAt(record, path, (v) => [v, v]);
    case 'object':
      return setAt(record, path, (v) => ({ value: v }));
    case 'proto':
      return setAt(record, path, (v) =>
        v && typeof v === 'object' && !Array.isArray(v)
          ? (JSON.parse(
              `{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "x": ${JSON.stringify(v)}}`,
            ) as Json)
          : v,
      );
    default:
      // Spliced in as text after encoding (see `deepen`): JSON.stringify itself
      // overflows the stack on a few thousand levels.
      return setAt(record, path, () => `@@DEEP:${m.depth ?? 100}@@`);
  }
}

/** Replaces each deep-nesting placeholder with that many nested arrays. */
function deepen(text: string): string {
  // A scan for the marker first: most inputs have none, and a regular
  // expression over a 10 MB text costs more than the import.
  if (!text.includes('"@@DEEP:')) return text;
  return text.replace(/"@@DEEP:(\d+)@@"/g, (_, n: string) => '['.repeat(+n) + '1' + ']'.repeat(+n));
}

/** How seeds are written back out: JSON Lines or one JSON document. */
export type FuzzEncoding = 'jsonl' | 'json';

/** What damages an encoded input besides the mutations: the 10 MB string is in a property of its own. */
type Damage =
  | { kind: 'none' }
  | { kind: 'truncate'; at: number }
  | { kind: 'utf8'; at: number }
  | { kind: 'huge'; pick: number };

const usual: fc.Arbitrary<Damage> = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.record({
    kind: fc.constant('truncate' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
  fc.record({
    kind: fc.constant('utf8' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
);
const huge: fc.Arbitrary<Damage> = fc.record({
  kind: fc.constant('huge' as const),
  pick: fc.nat(),
});

/** What {@link fuzzImporter} checks besides typed errors, time and prototypes. */
export interface FuzzOptions {
  /**
   * Each event's uuid is its own (default). Off for formats whose records
   * carry their uuids (skein events, where a repeated uuid is a newer version
   * of the same event, as on a live stream).
   */
  uniqueUuids?: boolean;
}

/**
 * Fuzzes one importer. `seeds` are parsed records (lines of a JSONL format, or
 * whole documents); each input mutates a few of them, is encoded, and may be
 * truncated or get invalid UTF-8 bytes; one in a hundred (at least one) gets a
 * 10 MB string instead.
 */
export async function fuzzImporter(
  run: (input: string | Uint8Array) => unknown,
  seeds: readonly Json[][],
  encoding: FuzzEncoding,
  runs = FUZZ_RUNS,
  options: FuzzOptions = {},
): Promise<void> {
  const hugeRuns = Math.max(1, Math.round(runs * HUGE_SHARE));
  const seed = Number(process.env['FUZZ_SEED'] ?? 19);
  if (runs > hugeRuns)
    await fc.assert(property(run, seeds, encoding, usual, options), {
      numRuns: runs - hugeRuns,
      seed,
    });
  await fc.assert(property(run, seeds, encoding, huge, options), {
    numRuns: hugeRuns,
    seed: seed + 1,
  });
}

function property(
  run: (input: string | Uint8Array) => unknown,
  seeds: readonly Json[][],
  encoding: FuzzEncoding,
  damages: fc.Arbitrary<Damage>,
  options: FuzzOptions,
) {
  return fc.asyncProperty(
    fc.nat({ max: seeds.length - 1 }),
    fc.array(fc.tuple(fc.nat(), mutation), { maxLength: 4 }),
    damages,
    async (seedIndex, mutations, damage) => {
      const records = seeds[seedIndex]!.slice();
      for (const [which, m] of mutations) {
        if (records.length === 0) break;
        const i = which % records.length;
        records[i] = mutate(records[i]!, m);
      }
      if (damage.kind === 'huge' && records.length > 0) {
        const i = damage.pick % records.length;
        records[i] = mutate(records[i]!, {
          op: 'swap',
          pick: damage.pick,
          value: (hugeString ??= 'x'.repeat(HUGE_LENGTH)),
        });
      }
      const text =
        encoding === 'jsonl'
          ? records.map((r) => JSON.stringify(r)).join('\n')
          : JSON.stringify(records[0] ?? null);
      let input: string | Uint8Array = deepen(text);
      if (damage.kind === 'truncate') input = input.slice(0, Math.floor(input.length * damage.at));
      if (damage.kind === 'utf8') {
        const bytes = encoder.encode(input as string);
        const at = Math.floor(bytes.length * damage.at);
        const damaged = new Uint8Array(bytes.length + 3);
        damaged.set(bytes.subarray(0, at));
        damaged.set([0xff, 0xc3, 0x28], at);
        damaged.set(bytes.subarray(at), at + 3);
        input = damaged;
      }
      const started = performance.now();
      try {
        checkEvents(await run(input), options.uniqueUuids !== false);
      } catch (e) {
        if (!(e instanceof ImportError)) {
          // fast-check reports the cause without its stack; keep where it came from.
          throw new Error(`${String(e)}\n${(e as Error).stack ?? ''}`.slice(0, 4000));
        }
      }
      const took = performance.now() - started;
      expect(took, 'one input takes under 1 s').toBeLessThan(damage.kind === 'huge' ? 5000 : 1000);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      expect((Object.prototype as Record<string, unknown>)['polluted']).toBeUndefined();
    },
  );
}

const encoder = new TextEncoder();

/**
 * What every import gives, however damaged its input: canonical events
 * (`EventStream.append` would take each), by default with one uuid each.
 */
function checkEvents(result: unknown, unique: boolean): void {
  const events = (result as { events?: unknown } | undefined)?.events;
  if (!Array.isArray(events)) return;
  const seen = new Set<string>();
  for (const e of events as Event[]) {
    if (typeof e.event !== 'string' || typeof e.timestamp !== 'string' || !e.uuid)
      throw new Error(`not a canonical event: ${JSON.stringify(e).slice(0, 300)}`);
    if (unique && seen.has(e.uuid)) throw new Error(`two events with uuid ${e.uuid} (${e.event})`);
    seen.add(e.uuid);
  }
}

/** A format that reads records one at a time (`acpFormat`, `claudeCodeFormat`, …). */
interface LineFormat {
  incremental(options: ImportOptions): IncrementalImporter;
}

/**
 * A `run` for {@link fuzzImporter} that checks the streaming contract (issue
 * 19, "streaming importers are incremental"): the input read line by line,
 * drained after every record and appended to an `EventStream`, ends with the
 * events of the whole-file import in `latest()`. A drain freezes what closed
 * before it, so an importer that changes a drained event without `revise`
 * throws here even where a whole-file import cannot. Text inputs only (bytes
 * are decoded by the same reader either way). `order: 'any'` compares the
 * events whatever their order (OTLP's stream: src/core/import/otlp-stream.ts).
 */
export function streamedAsWhole(
  format: LineFormat,
  whole: (input: string, options: ImportOptions) => { events: readonly Event[] },
  order: 'same' | 'any' = 'same',
): (input: string | Uint8Array) => void {
  // A whole file may look ahead for its first real time to invent the ones
  // before it from; a stream cannot: both get the same base.
  const options: ImportOptions = { baseTime: '2000-01-01T00:00:00.000Z' };
  return (input) => {
    if (typeof input !== 'string') return;
    let expected: readonly Event[];
    try {
      expected = whole(input, options).events;
    } catch (e) {
      if (e instanceof ImportError) return;
      throw e;
    }
    const imp = format.incremental(options);
    const stream = new EventStream();
    // Each record with its line as read, as `streamImport` gives it (OTLP
    // reads 64-bit integers from the text).
    const raw = input.split('\n');
    for (const { value, path, line } of readJsonLines(input, new ImportContext({}))) {
      imp.push(value, path, raw[line - 1]!.trim());
      for (const e of imp.drain()) stream.append(e);
    }
    for (const e of imp.end()) stream.append(e);
    let got = stream.latest();
    if (order === 'any') {
      // Same events, in any order (by uuid), for a stream that documents it
      // may hand a span out before one the whole file sorts first.
      const byUuid = (a: Event, b: Event) => (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0);
      got = [...got].sort(byUuid);
      expected = [...expected].sort(byUuid);
    }
    const at = firstDifference(got, expected);
    if (at !== undefined)
      throw new Error(`streamed import differs from the whole-file one at ${at}`);
  };
}

/**
 * Where two JSON-like values first differ (a path such as `[3].data.x`,
 * keys compared in order), or `undefined` when they are the same. Iterative:
 * fuzzed inputs nest thousands deep, past what `JSON.stringify` or a
 * recursive compare can walk.
 */
export function firstDifference(a: unknown, b: unknown): string | undefined {
  const stack: [unknown, unknown, string][] = [[a, b, '']];
  while (stack.length > 0) {
    const [x, y, path] = stack.pop()!;
    if (Object.is(x, y)) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return path;
    if (Array.isArray(x) !== Array.isArray(y)) return path;
    const xk = Object.keys(x);
    const yk = Object.keys(y);
    if (xk.length !== yk.length) return path;
    for (let i = xk.length - 1; i >= 0; i--) {
      const k = xk[i]!;
      if (k !== yk[i]) return `${path}.${k}`;
      const step = Array.isArray(x) ? `${path}[${k}]` : `${path}.${k}`;
      stack.push([(x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k], step]);
    }
  }
  return undefined;
}
