/**
 * A per-render view of the timeline metrics (`spanStartTime`, `spanEndTime`,
 * `spanTotalTokens`; inspect_ai's `event/_timeline.py`) as one record per span,
 * with and without the span's own branches. The swimlane code reads these
 * values in sort comparators and clustering loops; one object per span keeps
 * those reads to a property load. Empty spans start at `+Infinity` and end at
 * `-Infinity`, like inspect's `datetime.max` / `datetime.min` sentinels.
 */
import { spanTimesInto, spanTimesOut, spanTokensLight } from '../timeline/metrics.js';
import type { TimelineSpan } from '../timeline/types.js';

/**
 * Times (epoch ms) and tokens of one span. `timeStart`/`timeEnd`/`tokens`
 * cover its content (child spans count with their branches, as inspect's
 * `include_branches=False`); the `…All` values add its own branches
 * (inspect's default).
 * @internal
 * @example
 * import { createExtentCache } from 'src/core/swimlane/extent.js';
 * declare const span: TimelineSpan;
 * const extentOf = createExtentCache();
 * const { timeStart, timeEnd } = extentOf(span);
 */
export interface SpanExtent {
  readonly timeStart: number;
  readonly timeEnd: number;
  readonly tokens: number;
  readonly timeStartAll: number;
  readonly timeEndAll: number;
  readonly tokensAll: number;
}

/**
 * Times now, tokens when read: a layout places every span by its times
 * before the first paint, and tokens need the whole metrics pass (which
 * {@link spanTimesInto} avoids), so they wait until a label asks.
 */
class Extent implements SpanExtent {
  readonly timeStart: number;
  readonly timeEnd: number;
  readonly timeStartAll: number;
  readonly timeEndAll: number;
  readonly #span: TimelineSpan;
  constructor(span: TimelineSpan) {
    this.#span = span;
    spanTimesInto(span, false);
    this.timeStart = spanTimesOut.start;
    this.timeEnd = spanTimesOut.end;
    spanTimesInto(span, true);
    this.timeStartAll = spanTimesOut.start;
    this.timeEndAll = spanTimesOut.end;
  }
  get tokens(): number {
    return spanTokensLight(this.#span, false);
  }
  get tokensAll(): number {
    return spanTokensLight(this.#span, true);
  }
}

/**
 * Returns a memoized `extentOf(span)`, one per layout or render call.
 * @internal
 * @example
 * import { createExtentCache } from 'src/core/swimlane/extent.js';
 * declare const timeline: Timeline;
 * const extentOf = createExtentCache();
 * extentOf(timeline.root).timeEndAll;
 */
export function createExtentCache(): (span: TimelineSpan) => SpanExtent {
  const cache = new Map<TimelineSpan, SpanExtent>();
  return (span) => {
    let extent = cache.get(span);
    if (extent === undefined) {
      extent = new Extent(span);
      cache.set(span, extent);
    }
    return extent;
  };
}
