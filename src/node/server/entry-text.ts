/**
 * The wire text of a source's entries, made once and shared by every
 * connection: 500 clients replaying one history serialize each event once,
 * not 500 times. Entries of a `SequencedSource` never change once written,
 * so the text of a sequence is the same for every reader (and a value
 * without a time gets one timestamp, not one per delivery). Bounded: past
 * `ENTRY_TEXT_BUDGET` characters the oldest texts made are dropped, and made
 * again if asked for. No Node built-ins (the Fetch handler shares it).
 */
import { formatEventId } from '../../core/live/sequence.js';
import type { SequencedEntry, SequencedSource } from '../../core/live/source.js';
import { entryJson } from '../../core/live/wire.js';

/** One entry as sent: its wire id and its record's JSON text. */
export interface EntryText {
  readonly id: string;
  readonly json: string;
}

/** Characters of JSON text kept per source (about 64 MiB of Latin-1 text). */
export const ENTRY_TEXT_BUDGET = 64 * 2 ** 20;

interface Cache {
  readonly texts: Map<string, EntryText>;
  size: number;
}

const caches = new WeakMap<SequencedSource, Cache>();

/** The texts of `entries` of `source`, from the shared cache where made before. */
export function entryTexts(
  source: SequencedSource,
  entries: readonly SequencedEntry[],
  budget = ENTRY_TEXT_BUDGET,
): EntryText[] {
  let cache = caches.get(source);
  if (cache === undefined) {
    cache = { texts: new Map(), size: 0 };
    caches.set(source, cache);
  }
  const streamId = source.streamId;
  const out = new Array<EntryText>(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    let text = cache.texts.get(entry.seq);
    if (text === undefined) {
      text = { id: formatEventId(streamId, entry.seq), json: entryJson(entry, streamId) };
      cache.texts.set(entry.seq, text);
      cache.size += text.json.length;
      // A Map iterates in insertion order: the first keys are the oldest made.
      while (cache.size > budget && cache.texts.size > 1) {
        const [oldest, dropped] = cache.texts.entries().next().value as [string, EntryText];
        cache.texts.delete(oldest);
        cache.size -= dropped.json.length;
      }
    }
    out[i] = text;
  }
  return out;
}
