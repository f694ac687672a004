// skein's own canonical events as a file: a JSON array of events,
// `{ "events": [...] }` (inspect's timeline fixtures and `skein convert
// --to json`), or JSON Lines of events (`skein convert --to jsonl`, live feeds).
// The shape is the canonical model (`Event` in
// `src/core/events/types.ts`; schema/events.schema.json), so this importer only parses: `parseEvent` fills
// and reports what minimal events omit.
import type { Event } from '../../events/types.js';
import { isEventKind } from '../../events/types.js';
import { createRecordParser, parseEvents } from '../../events/parse.js';
import type { Diagnostic } from '../../errors.js';
import { isRecord, type ImportOptions } from '../guards.js';
import {
  importLines,
  importRecords,
  sniffer,
  type FormatImporter,
  type ImportResult,
  type IncrementalImporter,
} from '../format.js';
import { Probe, type ImportInput } from '../probe.js';

function looksLikeEvent(value: unknown): boolean {
  return isRecord(value) && typeof value['event'] === 'string' && isEventKind(value['event']);
}

function incremental(options: ImportOptions): IncrementalImporter {
  const diagnostics: Diagnostic[] = [];
  let batch: Event[] = [];
  // One parser for every record: diagnostics capped per code over the file,
  // and the values cut for depth reported once.
  const parser = createRecordParser({
    uuidSeed: options.uuidSeed ?? '',
    ...(options.maxDiagnosticsPerCode !== undefined
      ? { maxDiagnosticsPerCode: options.maxDiagnosticsPerCode }
      : {}),
  });
  return {
    push(record, path) {
      const { event, diagnostics: d } = parser.parse(record, path);
      batch.push(event);
      for (const x of d) diagnostics.push(x);
    },
    drain() {
      const out = batch;
      batch = [];
      return out;
    },
    end() {
      return this.drain();
    },
    diagnostics: () => [...diagnostics, ...parser.finish()],
  };
}

/**
 * skein's canonical events (JSON array, `{events: [...]}`, or JSON Lines).
 *
 * @example
 * import { Probe } from '../probe.js';
 * import { skeinEventsFormat } from './skein-events.js';
 * skeinEventsFormat.detect(new Probe('[{"event":"info","timestamp":"2026-01-01T00:00:00Z"}]')); // true
 */
export const skeinEventsFormat: FormatImporter & {
  incremental(options: ImportOptions): IncrementalImporter;
} = {
  id: 'skein',
  name: 'skein events',
  extensions: ['.jsonl', '.json'],
  detect(probe) {
    const doc = probe.json();
    // A one-event JSON Lines file (`skein convert` of a one-event run) parses
    // as one JSON document: the event itself. The records check below takes it.
    if (isRecord(doc) && !looksLikeEvent(doc)) {
      // A container (timeline fixture) has `events` and is not itself an event.
      const list = doc['events'];
      return (
        typeof doc['event'] !== 'string' &&
        Array.isArray(list) &&
        list.length > 0 &&
        list.slice(0, 4).every(looksLikeEvent)
      );
    }
    const records = probe.records(4);
    return records.length > 0 && records.every(looksLikeEvent);
  },
  import(probe, options): ImportResult {
    const doc = probe.json();
    // Text holding one event is a one-line JSON Lines file: record `$[0]`, as
    // its streaming import reads it (so the same derived uuid).
    if (looksLikeEvent(doc)) return importRecords(skeinEventsFormat, [doc], '$', options);
    if (doc !== undefined) {
      const { events, diagnostics } = parseEvents(doc, { uuidSeed: options.uuidSeed ?? '' });
      return { format: 'skein', events, diagnostics };
    }
    return importLines(skeinEventsFormat, probe, options);
  },
  incremental,
};

/**
 * A cheap check whether an input is skein's canonical events.
 *
 * @example
 * isSkeinEvents('{"event":"info","timestamp":"2026-01-01T00:00:00Z"}\n'); // true
 */
export const isSkeinEvents: (input: ImportInput, filename?: string) => boolean =
  sniffer(skeinEventsFormat);

/**
 * Imports skein's canonical events from text, bytes or a parsed value.
 *
 * @example
 * declare const jsonlText: string; // a skein events file
 * const { events } = importSkeinEvents(jsonlText);
 */
export function importSkeinEvents(input: ImportInput, options: ImportOptions = {}): ImportResult {
  return skeinEventsFormat.import(new Probe(input, options.filename), options) as ImportResult;
}
