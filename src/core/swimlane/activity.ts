/**
 * What an agent did inside its bar: the model calls and tool calls of a
 * swimlane row's own spans (not of its child agents, which have rows of
 * their own), as intervals in time space. A run of one agent is one bar;
 * its activity is what makes that bar say something (the compact tile
 * draws it).
 */
import { eventTime } from '../events/event-time.js';
import { eventEndTime } from '../events/outcome.js';
import { rowSpans, type SwimlaneRow } from './layout.js';

/**
 * The kinds of activity a swimlane row shows, by code: `0` a model call,
 * `1` a tool call.
 *
 * @example
 * import { type SwimlaneActivityKind } from './activity.js';
 * const kind: SwimlaneActivityKind = 'model';
 */
export type SwimlaneActivityKind = 'model' | 'tool';

/**
 * Codes of {@link SwimlaneActivityKind} in typed arrays.
 *
 * @example
 * import { type SwimlaneActivity } from './activity.js';
 * import { ACTIVITY_KINDS } from './activity.js';
 * declare const activity: SwimlaneActivity;
 * const first = ACTIVITY_KINDS[activity.kinds[0]!]; // 'model' or 'tool'
 */
export const ACTIVITY_KINDS: readonly SwimlaneActivityKind[] = ['model', 'tool'];

/**
 * A row's activity, sorted by start: `kinds[i]` (an index into
 * {@link ACTIVITY_KINDS}) from `starts[i]` to `ends[i]` (epoch ms).
 *
 * @example
 * import { type SwimlaneActivity } from './activity.js';
 * declare const activity: SwimlaneActivity;
 * const busyMs = activity.ends.reduce((sum, end, i) => sum + end - activity.starts[i]!, 0);
 */
export interface SwimlaneActivity {
  readonly kinds: Uint8Array;
  readonly starts: Float64Array;
  readonly ends: Float64Array;
}

const EMPTY: SwimlaneActivity = {
  kinds: new Uint8Array(0),
  starts: new Float64Array(0),
  ends: new Float64Array(0),
};

const cache = new WeakMap<SwimlaneRow, SwimlaneActivity>();

/**
 * The model and tool calls directly inside a row's spans (one level: an
 * event of a nested span belongs to that span's row), sorted by start;
 * calls without a valid time are left out, and a call still in flight
 * lasts until its start. Computed on first use and cached per row; a row
 * not made by `layoutSwimlane` (plain data) has none. O(events of the row's
 * spans), no recursion.
 *
 * @example
 * import { swimlaneRowActivity } from './activity.js';
 * declare const timeline: Timeline;
 * const row = layoutSwimlane(timeline).rows[0]!;
 * swimlaneRowActivity(row).kinds.length; // model and tool calls of the main agent
 */
export function swimlaneRowActivity(row: SwimlaneRow): SwimlaneActivity {
  const known = cache.get(row);
  if (known !== undefined) return known;
  const spans = rowSpans(row);
  let result = EMPTY;
  if (spans !== null) {
    const kinds: number[] = [];
    const starts: number[] = [];
    const ends: number[] = [];
    for (let k = 0; k < spans.length; k++) {
      const content = spans[k]!.content;
      for (let c = 0; c < content.length; c++) {
        const item = content[c]!;
        if (item.type !== 'event') continue;
        const kind = item.event.event === 'model' ? 0 : item.event.event === 'tool' ? 1 : -1;
        if (kind < 0) continue;
        const start = eventTime(item.event);
        if (!Number.isFinite(start)) continue;
        kinds.push(kind);
        starts.push(start);
        ends.push(Math.max(start, eventEndTime(item.event)));
      }
    }
    if (kinds.length > 0) {
      // Content order is nearly always time order: sort (stably) only when not.
      let sorted = true;
      for (let i = 1; i < starts.length && sorted; i++) sorted = starts[i]! >= starts[i - 1]!;
      if (sorted) {
        result = {
          kinds: Uint8Array.from(kinds),
          starts: Float64Array.from(starts),
          ends: Float64Array.from(ends),
        };
        cache.set(row, result);
        return result;
      }
      const order = kinds.map((_, i) => i).sort((a, b) => starts[a]! - starts[b]! || a - b);
      result = {
        kinds: Uint8Array.from(order, (i) => kinds[i]!),
        starts: Float64Array.from(order, (i) => starts[i]!),
        ends: Float64Array.from(order, (i) => ends[i]!),
      };
    }
  }
  cache.set(row, result);
  return result;
}
