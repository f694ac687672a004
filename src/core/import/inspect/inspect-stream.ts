// An inspect log's sample read as its bytes arrive: the events of a
// one-sample `.json` log, or of one sample of an `.eval`, a few hundred at a
// time from the bytes so far, instead of after importing the whole log.
//
// What it yields is exactly what the importer gives for the same sample
// (uuids, timestamp repairs, attachment and pool refs resolved, diagnostics):
// every check that can fail on the first events is made before they are
// yielded; one that fails later (a ref, an invalid event or document further
// on) ends the stream with `{ type: 'fallback' }`, and the caller drops what
// it got and imports the log whole (`importInspectLog`), which gives the
// answer (its events, or the typed error).
import type { Diagnostic } from '../../errors.js';
import { jsonPath } from '../../errors.js';
import type { Event } from '../../events/types.js';
import { createEventsParser } from '../../events/parse.js';
import type { GrowingSource } from '../growing.js';
import { isRecord } from '../guards.js';
import { parseJsonBytes } from '../json.js';
import { openEvalMember } from './eval-member.js';
import {
  InspectEventReader,
  NeedMoreBytes,
  NotStreamable,
  STREAMED_EVENTS_PATH,
} from './inspect-events.js';
import {
  capDiagnostics,
  importInspectLog,
  inspectUuidSeed,
  readInspectSample,
  type InspectEvalSpec,
  type InspectLog,
} from './inspect-log.js';
import { createSampleResolver } from './inspect-resolve.js';

/** Events per yielded piece by default. */
const BATCH_EVENTS = 500;
/** The importer's default cap on diagnostics per code. */
const MAX_DIAGNOSTICS = 100;
/**
 * Bytes to wait for before a piece cut off by the end of the bytes so far is
 * scanned again: one chunk of a browser's file stream.
 */
const RESCAN_STEP = 64 * 1024;

/**
 * Options of {@link streamInspectSample} and {@link streamEvalSample}.
 *
 * @example
 * const options: InspectStreamOptions = { batchEvents: 200, maxDiagnosticsPerCode: 10 };
 */
export interface InspectStreamOptions {
  /** Events per yielded piece (default 500). */
  batchEvents?: number;
  /** As for `importInspectLog` (default 100). */
  maxDiagnosticsPerCode?: number;
  /**
   * Asked after every wait for bytes: true ends the stream at once with
   * `{ type: 'cancelled' }` (the caller moved on to another file).
   */
  cancelled?: () => boolean;
}

/**
 * One step of {@link streamInspectSample}: first the sample being read
 * (once its head is in), then its events, piece by piece, in the order the
 * importer gives them.
 *
 * @example
 * declare const item: InspectStreamItem;
 * const count = item.type === 'events' ? item.events.length : 0;
 */
export type InspectStreamItem =
  | {
      readonly type: 'sample';
      /** The sample's `id` and `epoch`, as in the log. */
      readonly id: string | number;
      readonly epoch: number;
      /** The log header's eval spec. */
      readonly eval: InspectEvalSpec;
    }
  | { readonly type: 'events'; readonly events: Event[] };

/**
 * How {@link streamInspectSample} ended.
 * - `done`: every event was yielded. `log` holds the header and the sample
 *   summaries (for a `.json` log, read from the document with its events left
 *   out: ask `importInspectLog(bytes)` for the whole); `diagnostics` are the
 *   importer's for this sample (the log's, then the sample's).
 * - `fallback`: the log is not one that can be read this way, or turned out
 *   not to be after some events were yielded; drop them and import the log
 *   whole (`importInspectLog(await source.all())`), which reports what is
 *   wrong. `reason` says why, for logs and tests.
 * - `cancelled`: `options.cancelled` said so.
 *
 * @example
 * declare const end: InspectStreamEnd;
 * declare const bytes: Uint8Array; // the whole file
 * const log = end.type === 'done' ? end.log : await importInspectLog(bytes);
 */
export type InspectStreamEnd =
  | {
      readonly type: 'done';
      readonly log: InspectLog;
      readonly sample: { readonly id: string | number; readonly epoch: number };
      readonly diagnostics: Diagnostic[];
      /** The whole file (the `.json` log, or the `.eval` zip). */
      readonly bytes: Uint8Array;
    }
  | { readonly type: 'fallback'; readonly reason: string }
  | { readonly type: 'cancelled' };

/**
 * Reads the one sample of an inspect `.json` log while its bytes arrive:
 * yields `{ type: 'sample' }` once the head is in, then the sample's events
 * a piece at a time, each piece as soon as its bytes are there (the first
 * after a few hundred events of the file, not after all of it). The events
 * are those `importInspectLog(bytes).sample(id, epoch)` gives; the end says
 * whether the stream held (`done`) or the caller must import the log whole
 * (`fallback`, which can come after events were yielded: drop them). A log
 * with more than one sample, or whose sample puts its `attachments` before
 * its events, is always `fallback`.
 *
 * Never throws for bad input (the importer's path reports it); an error of
 * `source` itself while waiting for the head (a failed read) is thrown.
 *
 * @example
 * declare const source: GrowingSource; // growingSource(response.body!), say
 * let stream = new EventStream();
 * const it = streamInspectSample(source);
 * let next = await it.next();
 * for (; !next.done; next = await it.next())
 *   if (next.value.type === 'events') for (const e of next.value.events) stream.append(e);
 * if (next.value.type === 'fallback') {
 *   // Not streamable after all: drop what was read, import the log whole.
 *   const log = await importInspectLog(await source.all());
 *   const first = log.samples[0];
 *   stream = EventStream.from(first ? (await log.sample(first.id, first.epoch)).events : []);
 * }
 */
export function streamInspectSample(
  source: GrowingSource | Uint8Array,
  options: InspectStreamOptions = {},
): AsyncGenerator<InspectStreamItem, InspectStreamEnd> {
  return run(source instanceof Uint8Array ? null : source, source, null, options);
}

/**
 * Reads sample `(id, epoch)` of an `.eval` log (`zip`, whole; `log`, its
 * `importInspectLog`) while its member inflates: as
 * {@link streamInspectSample}, the events are yielded a piece at a time, the
 * first before the rest of the member is inflated. `null` when the sample
 * cannot be read this way (no such member, a chunked sample, an unknown
 * compression): use `log.sample(id, epoch)`.
 *
 * @example
 * declare const zip: Uint8Array; // an .eval file
 * const log = await importInspectLog(zip);
 * const it = streamEvalSample(zip, log, 1, 1);
 * const stream = new EventStream();
 * if (it)
 *   for await (const item of it)
 *     if (item.type === 'events') for (const e of item.events) stream.append(e);
 */
export function streamEvalSample(
  zip: Uint8Array,
  log: InspectLog,
  id: string | number,
  epoch = 1,
  options: InspectStreamOptions = {},
): AsyncGenerator<InspectStreamItem, InspectStreamEnd> | null {
  const member = openEvalMember(zip, id, epoch);
  if (!member) return null;
  return run(member.bytes, member.bytes.view, { zip, log, path: member.path }, options);
}

/** An `.eval` sample: its zip, the log read from it, its member's JSON path. */
interface EvalSample {
  readonly zip: Uint8Array;
  readonly log: InspectLog;
  readonly path: string;
}

async function* run(
  growing: GrowingSource | null,
  first: GrowingSource | Uint8Array,
  evalSample: EvalSample | null,
  options: InspectStreamOptions,
): AsyncGenerator<InspectStreamItem, InspectStreamEnd> {
  const batch = options.batchEvents ?? BATCH_EVENTS;
  const max = options.maxDiagnosticsPerCode ?? MAX_DIAGNOSTICS;
  const cancelled = options.cancelled ?? (() => false);
  const openReader = (b: Uint8Array) =>
    evalSample
      ? InspectEventReader.openSample(b, evalSample.log.header.eval)
      : InspectEventReader.open(b);
  let reader = openReader(first instanceof Uint8Array ? first : first.view);
  // On the part read so far: try again on twice as much, up to the whole.
  try {
    while (!reader && growing && !growing.complete) {
      const tried = Math.max(growing.view.length, 1);
      while (!growing.complete && growing.view.length < 2 * tried) await growing.more();
      if (cancelled()) return { type: 'cancelled' };
      reader = openReader(growing.view);
    }
  } catch (e) {
    // A member that does not inflate: the importer's path says why.
    if (e instanceof NotStreamable) return { type: 'fallback', reason: e.message };
    throw e;
  }
  if (!reader) return { type: 'fallback', reason: 'not the layout streamed' };
  yield { type: 'sample', id: reader.id, epoch: reader.epoch, eval: reader.spec };
  if (cancelled()) return { type: 'cancelled' };
  const seed = inspectUuidSeed(reader.spec, reader.id, reader.epoch);
  const samplePath = evalSample ? evalSample.path : '$.samples[0]';
  const eventsPath = evalSample ? jsonPath(samplePath, 'events') : STREAMED_EVENTS_PATH;
  const parser = createEventsParser({
    path: eventsPath,
    uuidSeed: seed,
    maxDiagnosticsPerCode: max,
    adopt: true,
  });
  // Set at the first piece with refs: resolves it and every later piece.
  let resolver: ReturnType<typeof createSampleResolver> | null = null;
  const resolved: Diagnostic[] = [];
  let offset = 0;
  try {
    for (;;) {
      let raw: unknown[] | null;
      const escapedBefore = reader.escapes;
      if (growing && !growing.complete) {
        try {
          raw = reader.next(batch, true);
        } catch (e) {
          if (!(e instanceof NeedMoreBytes)) throw e;
          // Scanned again from the piece's start: waiting for a step of
          // bytes, not one chunk, keeps that linear when chunks are small.
          const want = growing.view.length + RESCAN_STEP;
          do await growing.more();
          while (!growing.complete && growing.view.length < want && !cancelled());
          if (cancelled()) return { type: 'cancelled' };
          reader.extend(growing.view);
          continue;
        }
      } else raw = reader.next(batch);
      if (raw === null) break;
      if (!resolver && reader.pieceHasRefs) {
        // The sample's attachments and pools follow its events: read to
        // the end, take them, and resolve from here on as the importer does.
        if (growing && !growing.complete) reader.extend(await growing.all());
        if (cancelled()) return { type: 'cancelled' };
        resolver = sampleResolver(reader, samplePath, eventsPath, escapedBefore);
      }
      if (resolver) for (const d of resolver.resolve(raw, offset)) resolved.push(d);
      offset += raw.length;
      const events = parser.push(raw);
      // A timestamp repair that looked past these events: the importer,
      // which sees them all, may have repaired it otherwise.
      if (parser.shortLookAhead) throw new NotStreamable('a timestamp repair looked ahead');
      yield { type: 'events', events };
      if (growing && !growing.complete) {
        // The first rows are out: read the rest, then go on over all of it.
        reader.extend(await growing.all());
        if (cancelled()) return { type: 'cancelled' };
      }
    }
    const whole = reader.bytes;
    const rest = reader.rest();
    if (!resolver && reader.restNeedsResolution(rest)) throw new NotStreamable('refs in the rest');
    // The resolver's diagnostics stand for those of the sample read with
    // its events emptied (its pools'), plus the events'.
    const own = (sample: readonly Diagnostic[]) =>
      resolver ? capDiagnostics([...resolver.diagnostics, ...resolved], max) : sample;
    if (evalSample) {
      // The sample's other fields, as `log.sample` reads them (checks and diagnostics).
      const { log, path, zip } = evalSample;
      const empty = readInspectSample(parseJsonBytes(rest, path), path, log.header, max);
      if (empty.events.length) throw new NotStreamable('events in the rest');
      growing?.verify?.();
      return {
        type: 'done',
        log,
        sample: { id: reader.id, epoch: reader.epoch },
        diagnostics: [...log.diagnostics, ...own(empty.diagnostics), ...parser.finish()],
        bytes: zip,
      };
    }
    // The header, the summary and the sample's other fields, as the
    // importer reads them (its checks and diagnostics included).
    const log = await importInspectLog(rest, { maxDiagnosticsPerCode: max });
    const only = log.samples.length === 1 ? log.samples[0]! : null;
    if (
      !only ||
      only.id !== reader.id ||
      only.epoch !== reader.epoch ||
      inspectUuidSeed(log.header.eval, only.id, only.epoch) !== seed
    )
      throw new NotStreamable('the document disagrees with its head');
    const empty = await log.sample(only.id, only.epoch);
    if (empty.events.length) throw new NotStreamable('events in the rest');
    return {
      type: 'done',
      log,
      sample: { id: only.id, epoch: only.epoch },
      diagnostics: [...log.diagnostics, ...own(empty.diagnostics), ...parser.finish()],
      bytes: whole,
    };
  } catch (e) {
    // Whatever failed, the importer's path gives the answer (its events,
    // or the typed error it throws).
    return { type: 'fallback', reason: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * The importer's resolution of a sample's refs (`createSampleResolver`) for
 * a reader that has all the sample's bytes: its attachments and pools, typed
 * as `log.sample` requires (else NotStreamable: the importer's path reports
 * it). `escapedBefore`: the pieces already yielded hold an escape that could
 * spell a ref, which the importer then resolves and the stream did not.
 */
function sampleResolver(
  reader: InspectEventReader,
  samplePath: string,
  eventsPath: string,
  escapedBefore: boolean,
) {
  const mayContainRefs = reader.mayContainRefs();
  if (escapedBefore && mayContainRefs) throw new NotStreamable('an escaped ref');
  const { attachments, eventsData } = reader.tail();
  if (attachments !== undefined && !isRecord(attachments))
    throw new NotStreamable('attachments not an object');
  let messagePool: unknown[] | undefined;
  let callPool: unknown[] | undefined;
  if (eventsData !== undefined && eventsData !== null) {
    if (!isRecord(eventsData)) throw new NotStreamable('events_data not an object');
    const { messages, calls } = eventsData;
    if (messages !== undefined && !Array.isArray(messages))
      throw new NotStreamable('events_data.messages not an array');
    if (calls !== undefined && !Array.isArray(calls))
      throw new NotStreamable('events_data.calls not an array');
    messagePool = messages as unknown[] | undefined;
    callPool = calls as unknown[] | undefined;
  }
  const dataPath = jsonPath(samplePath, 'events_data');
  const messagesPath = jsonPath(dataPath, 'messages');
  const callsPath = jsonPath(dataPath, 'calls');
  return createSampleResolver({
    eventPath: (i) => jsonPath(eventsPath, i),
    attachments: { kind: 'hash', map: (attachments ?? {}) as Record<string, unknown> },
    messagePool,
    messagePoolPath: (i) => jsonPath(messagesPath, i),
    callPool,
    callPoolPath: (i) => jsonPath(callsPath, i),
    mayContainRefs,
  });
}
