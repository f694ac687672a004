import { EventStream } from '../../core/stream/event-stream.js';
import { eventStreamSource, type SequencedSource } from '../../core/live/source.js';

/**
 * What the handlers serve: an `EventStream` (served through
 * `eventStreamSource`) or any {@link SequencedSource}.
 *
 * @example
 * import type { LiveSourceInput } from 'skein/server';
 * const served: LiveSourceInput = stream; // or await createRedisSource({ client, key })
 */
export type LiveSourceInput = EventStream | SequencedSource;

export function toSource(input: LiveSourceInput): SequencedSource {
  return input instanceof EventStream ? eventStreamSource(input) : input;
}
