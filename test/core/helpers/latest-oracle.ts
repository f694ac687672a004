// The `latest()` projection as EventStream computed it with a
// `Map<string, number>` uuid index, before the typed-array StringIndex
// (issue 3, "Performance"). Kept as the oracle of the differential test in
// event-stream-index.test.ts.
import type { Event } from '../../../src/core/events/types.js';

/**
 * One entry per uuid, in first-seen order, holding its newest version; a
 * pending copy after a final one is ignored.
 *
 * @example
 * expect(stream.latest()).toEqual(latestOracle(stream.toArray()));
 */
export function latestOracle(log: readonly Event[]): Event[] {
  const index = new Map<string, number>();
  const work: Event[] = [];
  for (const event of log) {
    const at = index.get(event.uuid);
    if (at === undefined) {
      index.set(event.uuid, work.length);
      work.push(event);
    } else if (event.pending !== true || work[at]!.pending === true) {
      work[at] = event;
    }
  }
  return work;
}
