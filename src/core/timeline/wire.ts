// A timeline sent between threads: built where the events were imported (a
// Web Worker) and rebuilt where they are shown, in time slices. Building a
// timeline over a 300k-event log takes over a second; the thread that
// imported the events has every event the page has, in the same order, so it
// builds the timeline there and sends its shape, with events as positions in
// that order; the receiver puts its own event objects back in, a bounded
// number of items per slice, and fills the span time cache (`spanTimesInto`)
// the swimlane's layout reads, in the same slices. Every walk here is a loop
// over a worklist: span depth costs no stack.
import type { Event } from '../events/types.js';
import { buildEventTree } from '../tree/event-tree.js';
import { buildTimeline } from './build.js';
import { spanTimesInto } from './metrics.js';
import type { LoadSpan } from './serialize.js';
import type { Outline, Timeline, TimelineSpan } from './types.js';

/** A span's fields besides its content: `[id, name, spanType, branchedFrom, description, utility, toolInvoked, agentResult, outline]`. */
type SpanShell = [
  string,
  string,
  string | null,
  string | null,
  string | null,
  boolean,
  boolean,
  string | null,
  Outline | null,
];

/**
 * A timeline with its events as positions in the posted event order, made by
 * {@link timelineWireOf} and rebuilt by {@link TimelineDecoder}. It holds
 * only strings and typed arrays, so it crosses `postMessage` cheaply. Spans
 * are numbered so a child's number is above its parent's (span 0 is the
 * root); their fields travel as JSON text in chunks, parsed one per slice.
 *
 * @example
 * declare const events: Event[];
 * const wire: TimelineWire = timelineWireOf(events);
 * const spanCount = wire.spans;
 */
export interface TimelineWire {
  readonly name: string;
  readonly description: string;
  /** Span shells, `SHELLS_PER_CHUNK` a chunk, as JSON arrays of {@link SpanShell}. */
  readonly shells: readonly string[];
  readonly spans: number;
  /** Span `i`'s content is `items[contentAt[i]…contentAt[i+1])`. */
  readonly contentAt: Int32Array;
  /** An event's position (≥ 0), or `~n` for child span `n`. */
  readonly items: Int32Array;
  /** Span `i`'s branches are spans `branchItems[branchAt[i]…branchAt[i+1])`. */
  readonly branchAt: Int32Array;
  readonly branchItems: Int32Array;
  /** The `init` and `scorers` phase spans, or -1. */
  readonly init: number;
  readonly scorers: number;
}

const SHELLS_PER_CHUNK = 2_000;

/**
 * The events a page's `EventStream.latest()` holds for a log of `events`
 * (one per uuid, in first-seen order, its newest version, a pending copy
 * after a final one ignored), with each one's position in `events`.
 *
 * @example
 * import { latestWithPositions } from './wire.js';
 * declare const events: Event[];
 * const { latest, positions } = latestWithPositions(events);
 * positions.get(latest[0]!); // its index in `events`
 */
export function latestWithPositions(events: readonly Event[]): {
  latest: Event[];
  positions: Map<Event, number>;
} {
  const slot = new Map<string, number>();
  const latest: Event[] = [];
  const at: number[] = [];
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    const k = slot.get(e.uuid);
    if (k === undefined) {
      slot.set(e.uuid, latest.length);
      latest.push(e);
      at.push(i);
    } else if (e.pending !== true || latest[k]!.pending === true) {
      latest[k] = e;
      at[k] = i;
    }
  }
  const positions = new Map<Event, number>();
  for (let k = 0; k < latest.length; k++) positions.set(latest[k]!, at[k]!);
  return { latest, positions };
}

/**
 * The timeline of `events` (every version, in the order they were appended
 * to the receiver's `EventStream`), ready to post to another thread: the one
 * the swimlane builds from its tree feed, over the event tree's events
 * (latest versions, in tree order, span ends folded into their spans).
 * Rebuild it there with {@link TimelineDecoder}.
 *
 * @example
 * // In a Web Worker, after posting `events` in this order:
 * declare const events: Event[];
 * declare const worker: { postMessage(message: unknown): void };
 * worker.postMessage({ type: 'timeline', timeline: timelineWireOf(events) });
 */
export function timelineWireOf(events: readonly Event[]): TimelineWire {
  const { latest, positions } = latestWithPositions(events);
  return encodeTimeline(buildTimeline(buildEventTree(latest).events), positions);
}

/**
 * `timeline` with each event as its position in `positions`.
 *
 * @example
 * import { encodeTimeline, latestWithPositions } from './wire.js';
 * declare const events: Event[];
 * declare const timeline: Timeline; // built over latestWithPositions(events).latest
 * const wire = encodeTimeline(timeline, latestWithPositions(events).positions);
 */
export function encodeTimeline(
  timeline: Timeline,
  positions: ReadonlyMap<Event, number>,
): TimelineWire {
  const spans: TimelineSpan[] = [timeline.root];
  const number = new Map<TimelineSpan, number>([[timeline.root, 0]]);
  const contentAt: number[] = [];
  const items: number[] = [];
  const branchAt: number[] = [];
  const branchItems: number[] = [];
  const add = (span: TimelineSpan): number => {
    const n = spans.length;
    spans.push(span);
    number.set(span, n);
    return n;
  };
  // Spans are numbered as they are reached from their parent, and visited
  // in that order, so a child's number is always above its parent's.
  for (let i = 0; i < spans.length; i++) {
    const span = spans[i]!;
    contentAt.push(items.length);
    for (const item of span.content) {
      if (item.type === 'span') items.push(~add(item));
      else {
        const at = positions.get(item.event);
        if (at === undefined) throw new Error('encodeTimeline: an event that was not posted');
        items.push(at);
      }
    }
    branchAt.push(branchItems.length);
    for (const b of span.branches) branchItems.push(add(b));
  }
  contentAt.push(items.length);
  branchAt.push(branchItems.length);
  const shells: string[] = [];
  for (let i = 0; i < spans.length; i += SHELLS_PER_CHUNK) {
    shells.push(JSON.stringify(spans.slice(i, i + SHELLS_PER_CHUNK).map(shellOf)));
  }
  const phase = (span: TimelineSpan | null | undefined) => (span ? (number.get(span) ?? -1) : -1);
  return {
    name: timeline.name,
    description: timeline.description,
    shells,
    spans: spans.length,
    contentAt: Int32Array.from(contentAt),
    items: Int32Array.from(items),
    branchAt: Int32Array.from(branchAt),
    branchItems: Int32Array.from(branchItems),
    init: phase(timeline.init),
    scorers: phase(timeline.scorers),
  };
}

function shellOf(span: TimelineSpan): SpanShell {
  return [
    span.id,
    span.name,
    span.spanType,
    span.branchedFrom ?? null,
    span.description ?? null,
    span.utility,
    span.toolInvoked,
    span.agentResult ?? null,
    span.outline ?? null,
  ];
}

/** Items handled between two looks at the clock. */
const CHECK_EVERY = 512;

/**
 * Rebuilds a {@link TimelineWire} over `events` (the receiver's events, in
 * the order they were posted: `EventStream.toArray()`) in slices: each
 * `step(deadline, now)` works until `now()` passes `deadline` and returns
 * the timeline when it is whole, else `null`. The last slices fill the span
 * time cache, children before parents, so the swimlane's first layout reads
 * every span's times from it.
 *
 * @example
 * declare const wire: TimelineWire; // posted by a worker
 * declare const stream: EventStream; // holds the events the worker posted
 * const decoder = new TimelineDecoder(wire, stream.toArray());
 * let timeline: Timeline | null = null;
 * while (!timeline) {
 *   timeline = decoder.step(performance.now() + 8, () => performance.now());
 *   await new Promise((r) => setTimeout(r, 0)); // the page paints between slices
 * }
 */
export class TimelineDecoder {
  readonly #wire: TimelineWire;
  readonly #events: readonly Event[];
  readonly #spans: LoadSpan[] = [];
  #chunk = 0;
  #span = 0;
  #item = -1;
  #warm: number;
  #result: Timeline | null = null;

  constructor(wire: TimelineWire, events: readonly Event[]) {
    this.#wire = wire;
    this.#events = events;
    this.#warm = wire.spans - 1;
  }

  /**
   * Works until `now()` (default `Date.now`) reaches `deadline`; the
   * timeline once whole, else `null` (call again).
   */
  step(deadline: number, now: () => number = Date.now): Timeline | null {
    const w = this.#wire;
    const spans = this.#spans;
    while (this.#chunk < w.shells.length) {
      for (const s of JSON.parse(w.shells[this.#chunk++]!) as SpanShell[]) {
        spans.push({
          type: 'span',
          id: s[0],
          name: s[1],
          spanType: s[2],
          content: [],
          branches: [],
          branchedFrom: s[3],
          description: s[4],
          utility: s[5],
          toolInvoked: s[6],
          agentResult: s[7],
          outline: s[8],
        });
      }
      if (now() >= deadline) return null;
    }
    let budget = CHECK_EVERY;
    while (this.#span < w.spans) {
      const span = spans[this.#span]!;
      const end = w.contentAt[this.#span + 1]!;
      if (this.#item < 0) {
        this.#item = w.contentAt[this.#span]!;
        for (let b = w.branchAt[this.#span]!; b < w.branchAt[this.#span + 1]!; b++)
          span.branches.push(spans[w.branchItems[b]!]!);
      }
      while (this.#item < end) {
        const v = w.items[this.#item++]!;
        if (v < 0) span.content.push(spans[~v]!);
        else {
          const event = this.#events[v];
          if (event === undefined) throw new Error(`TimelineDecoder: no event at ${v}`);
          span.content.push({ type: 'event', event });
        }
        if (--budget === 0) {
          if (now() >= deadline) return null;
          budget = CHECK_EVERY;
        }
      }
      this.#span++;
      this.#item = -1;
    }
    // Children first: each span read here finds its child spans cached.
    while (this.#warm >= 0) {
      const i = this.#warm--;
      const hasChildSpans =
        w.branchAt[i + 1]! > w.branchAt[i]! ||
        w.items.subarray(w.contentAt[i]!, w.contentAt[i + 1]!).some((v) => v < 0);
      if (hasChildSpans) {
        spanTimesInto(spans[i]!, false);
        if (now() >= deadline) return null;
      }
    }
    this.#result ??= {
      name: w.name,
      description: w.description,
      root: spans[0]!,
      init: w.init >= 0 ? spans[w.init]! : null,
      scorers: w.scorers >= 0 ? spans[w.scorers]! : null,
    };
    return this.#result;
  }
}
