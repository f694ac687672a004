// Events as skein's own files (the `skein events` format: JSON Lines, one
// canonical event per line, or a JSON array), the shape every skein command
// and `importAny` read back. One serializer for the CLI (`skein convert`) and
// for copying or downloading a selection.
import type { Event } from '../events/types.js';

/**
 * Events as JSON Lines: one event per line, each line ending in `\n`
 * (nothing for no events). `importAny` reads it back to the same events.
 *
 * @example
 * const text = eventsToJsonLines([{ event: 'info', uuid: 'i1', timestamp: '2026-01-01T00:00:00Z', data: 'hi' } as Event]);
 * // '{"event":"info","uuid":"i1",…}\n'
 */
export function eventsToJsonLines(events: readonly Event[]): string {
  let out = '';
  for (const event of events) out += `${JSON.stringify(event)}\n`;
  return out;
}

/**
 * Events as a JSON array, one event per line (readable in a diff, and read
 * back by `importAny` as the same events).
 *
 * @example
 * eventsToJsonArray([]); // '[]\n'
 */
export function eventsToJsonArray(events: readonly Event[]): string {
  if (events.length === 0) return '[]\n';
  return `[\n${events.map((e) => JSON.stringify(e)).join(',\n')}\n]\n`;
}
