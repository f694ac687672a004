// Where importers put the events they build. One mechanism serves both ways of
// reading a source (issue 19, "streaming importers are incremental"):
//
// - a whole file: every draft is frozen in place once, at `finish()` — no
//   copies, one version per event;
// - a stream: `drain()` after each batch hands out what changed since the last
//   drain — a frozen copy with `pending: true` of each draft still open (a tool
//   call awaiting its result, a message still receiving chunks), the draft
//   itself once closed. Appended to an `EventStream`, `latest()` then equals
//   the whole-file import: the same uuids, in the same order (first appearance
//   is creation order), in their final versions.
//
// Sources upsert (ACP `tool_call_update`, defect `ToolCallProgress`, streamed
// chunks), so importers keep a draft, change it, and `touch` it; they never
// emit a second event for the same thing.
import type { Event, JsonObject, SpanBeginEvent, SpanEndEvent } from '../events/types.js';
import { stampEventTime } from '../events/event-time.js';
import { cloneJson, deepFreeze } from '../events/freeze.js';
import { timestampMs } from '../events/timestamp.js';
import { deriveEventUuid } from '../events/uuid.js';
import type { ImportContext, InventedValue } from './guards.js';

/** Metadata key listing the values an importer invented for an event. */
export const INVENTED_KEY = 'skein_invented';

interface DraftState {
  draft: Event;
  index: number;
  open: boolean;
  dirty: boolean;
}

// Which sink and which state a draft belongs to, kept on the draft itself in
// private fields (invisible to `Object.keys`, JSON, spread, symbols and
// proxies), so `touch`/`close`/`isOpen`/`revise` are property loads. A
// WeakMap from drafts to states cost a third of the sink's time at 100k
// events (each entry an ephemeron for the collector to trace), and a Map half
// as much (an identity hash and an entry per draft). A subclass constructor
// can put private fields on any object when its base constructor returns
// that object — the standard idiom for such a brand.
class Returns {
  constructor(target: object) {
    return target as Returns;
  }
}

class DraftBrand extends Returns {
  #sink: number;
  #index: number;

  private constructor(target: object, sink: number, index: number) {
    super(target);
    this.#sink = sink;
    this.#index = index;
  }

  /** Brands `draft` (not frozen) as state `index` of sink `sink`. */
  static mark(draft: object, sink: number, index: number): void {
    if (#sink in draft) {
      const branded = draft as DraftBrand;
      branded.#sink = sink;
      branded.#index = index;
    } else new DraftBrand(draft, sink, index);
  }

  /** The state index of `draft` in sink `sink`, or -1. */
  static indexIn(draft: object, sink: number): number {
    return #sink in draft && (draft as DraftBrand).#sink === sink
      ? (draft as DraftBrand).#index
      : -1;
  }
}

let sinks = 0;

/**
 * Collects an import's events as mutable drafts and hands them out frozen.
 *
 * @example
 * const sink = new EventSink(new ImportContext({}), { seed: 'acp' });
 * const init = { id: 'call-1', function: 'bash', arguments: {}, result: '' };
 * const tool = sink.add(events.tool({ ...init, uuid: sink.uuid('call-1') }), { open: true });
 * tool.result = 'done';
 * sink.close(tool);
 * const imported = sink.finish();
 */
export class EventSink {
  readonly #ctx: ImportContext;
  readonly #seed: string;
  readonly #states: DraftState[] = [];
  readonly #id = ++sinks;
  /** States of drafts that could not be branded (given frozen or sealed). */
  readonly #unbranded = new Map<object, DraftState>();
  #drained = 0; // states before this index were emitted at least once
  readonly #dirty: DraftState[] = [];

  constructor(ctx: ImportContext, options: { seed: string }) {
    this.#ctx = ctx;
    this.#seed = options.seed;
  }

  /** How many events were added. */
  get size(): number {
    return this.#states.length;
  }

  /**
   * A deterministic uuid for `key` (the source's own id, or a path): the same
   * input always gives the same uuids, and different seeds different ones.
   */
  uuid(key: string): string {
    return deriveEventUuid(`${this.#seed}\u0000${key}`);
  }

  /**
   * Adds a draft event. `open: true` means it will still change (streaming
   * drains emit it as `pending` until {@link close}).
   */
  add<E extends Event>(draft: E, options?: { open?: boolean }): E {
    const state: DraftState = {
      draft,
      index: this.#states.length,
      open: options?.open ?? false,
      dirty: true,
    };
    this.#states.push(state);
    this.#bind(draft, state);
    return draft;
  }

  /** Marks a draft as changed since the last drain. */
  touch(draft: Event): void {
    const state = this.#stateOf(draft);
    if (!state || state.dirty) return;
    state.dirty = true;
    this.#dirty.push(state);
  }

  /** Marks a draft final (and changed). */
  close(draft: Event): void {
    const state = this.#stateOf(draft);
    if (!state) return;
    state.open = false;
    this.touch(draft);
  }

  /**
   * A writable version of a draft, for a source that changes an item after it
   * was closed (an ACP `tool_call_update` after `completed`, a defect turn
   * marked aborted afterwards). A streaming drain freezes closed drafts; this
   * swaps in a mutable copy under the same state (same uuid and place) and
   * marks it changed. Use the returned object from then on.
   *
   * @example
   * declare const sink: EventSink;
   * let tool: ToolEvent = toolEvent;
   * tool = sink.revise(tool);
   * tool.result = 'late output';
   */
  revise<E extends Event>(draft: E): E {
    const state = this.#stateOf(draft);
    if (!state) return draft;
    // An older handle revises the newest version, never a stale one.
    const current = state.draft as E;
    if (!Object.isFrozen(current)) return current;
    const copy = cloneJson(current);
    state.draft = copy;
    this.#bind(copy, state);
    this.touch(copy);
    return copy;
  }

  /** True while a draft is open. */
  isOpen(draft: Event): boolean {
    return this.#stateOf(draft)?.open ?? false;
  }

  /**
   * Flags a value the importer invented on the event (`metadata.skein_invented`)
   * and counts it for the file's one `value_invented` diagnostic.
   */
  invent(draft: Event, what: InventedValue, path: string): void {
    // A new metadata object (the old one may be shared with the source or
    // another draft), built in one literal.
    const old = draft.metadata;
    const list = old?.[INVENTED_KEY];
    const flags: string[] = Array.isArray(list)
      ? list.includes(what)
        ? (list as string[])
        : [...(list as string[]), what]
      : [what];
    draft.metadata = old ? { ...old, [INVENTED_KEY]: flags } : { [INVENTED_KEY]: flags };
    this.#ctx.invent(what, path);
  }

  /**
   * Opens a span: adds its `span_begin` (inspect's rule, research/inspect_ai.md
   * §1.6: a span_begin's `span_id` is its own `id`). Its ids come either from
   * `key` (the span id `uuid(key)`, the event's `uuid(key + ':begin')`) or are
   * given as `id` and `uuid`. `parent_id` and `type` are left out when undefined.
   * `timeInvented` is the JSON path of the record whose time the importer made
   * up for the span (flagged as {@link invent} does).
   *
   * @example
   * declare const sink: EventSink;
   * const turn = sink.openSpan({
   *   key: 'turn:1',
   *   timestamp: '2026-03-02T10:00:00Z',
   *   parent_id: null,
   *   type: 'turn',
   *   name: 'turn 1',
   * });
   * sink.closeSpan(turn, { timestamp: '2026-03-02T10:00:05Z' });
   */
  openSpan(
    span: (
      { key: string; id?: never; uuid?: never } | { id: string; uuid: string; key?: never }
    ) & {
      timestamp: string;
      parent_id?: string | null;
      type: string | undefined;
      name: string;
      metadata?: JsonObject;
    },
    options?: { open?: boolean; timeInvented?: string },
  ): SpanBeginEvent {
    const key = span.key;
    const id = key === undefined ? span.id! : this.uuid(key);
    const begin: SpanBeginEvent = {
      event: 'span_begin',
      uuid: key === undefined ? span.uuid! : this.uuid(`${key}:begin`),
      timestamp: span.timestamp,
      span_id: id,
      id,
      ...(span.parent_id !== undefined ? { parent_id: span.parent_id } : {}),
      ...(span.type !== undefined ? { type: span.type } : {}),
      name: span.name,
      ...(span.metadata ? { metadata: span.metadata } : {}),
    };
    this.add(begin, options);
    if (options?.timeInvented !== undefined) this.invent(begin, 'timestamp', options.timeInvented);
    return begin;
  }

  /**
   * Closes a span: its `span_begin` becomes final (when it was added open) and
   * its `span_end` is added, by default with the uuid of `` `${id}:end` ``.
   * `timeInvented` as in {@link openSpan}.
   */
  closeSpan(
    begin: SpanBeginEvent,
    end: { timestamp: string; uuid?: string; timeInvented?: string },
  ): SpanEndEvent {
    if (this.isOpen(begin)) this.close(begin);
    const id = begin.id;
    const draft: SpanEndEvent = {
      event: 'span_end',
      uuid: end.uuid ?? this.uuid(`${id}:end`),
      timestamp: end.timestamp,
      span_id: id,
      id,
    };
    this.add(draft);
    if (end.timeInvented !== undefined) this.invent(draft, 'timestamp', end.timeInvented);
    return draft;
  }

  /**
   * Streaming: the versions to append since the last drain, in creation order
   * for new events. Open drafts come out as frozen copies with `pending: true`;
   * closed ones as themselves, frozen.
   */
  drain(): Event[] {
    const out: Event[] = [];
    for (const state of this.#dirty) {
      if (state.index >= this.#drained) continue; // new: emitted below, once
      out.push(this.#emit(state));
    }
    this.#dirty.length = 0;
    for (let i = this.#drained; i < this.#states.length; i++)
      out.push(this.#emit(this.#states[i]!));
    this.#drained = this.#states.length;
    return out;
  }

  /** Whole file: every draft, frozen in place, in creation order. */
  finish(): Event[] {
    const out = new Array<Event>(this.#states.length);
    for (let i = 0; i < this.#states.length; i++) out[i] = seal(this.#states[i]!.draft);
    this.#drained = this.#states.length;
    this.#dirty.length = 0;
    return out;
  }

  #bind(draft: object, state: DraftState): void {
    if (Object.isExtensible(draft)) DraftBrand.mark(draft, this.#id, state.index);
    else this.#unbranded.set(draft, state);
  }

  #stateOf(draft: object): DraftState | undefined {
    const index = DraftBrand.indexIn(draft, this.#id);
    return index >= 0 ? this.#states[index] : this.#unbranded.get(draft);
  }

  #emit(state: DraftState): Event {
    state.dirty = false;
    if (!state.open) return seal(state.draft);
    const copy = cloneJson(state.draft);
    copy.pending = true;
    return seal(copy);
  }
}

function seal(event: Event): Event {
  if (Object.isFrozen(event)) return event;
  stampEventTime(event, timestampMs(event.timestamp));
  return deepFreeze(event);
}

/**
 * Times for formats that have none (ACP, cantus) or lose some: strictly
 * increasing ISO strings, one millisecond apart from `baseTime`, never going
 * backwards even when a real time is seen between invented ones.
 *
 * @example
 * const clock = new SyntheticClock('1970-01-01T00:00:00.000Z');
 * clock.next(); // '1970-01-01T00:00:00.000Z'
 * clock.next(); // '1970-01-01T00:00:00.001Z'
 */
export class SyntheticClock {
  #next: number;

  constructor(baseTime = '1970-01-01T00:00:00.000Z') {
    const ms = timestampMs(baseTime);
    this.#next = Number.isFinite(ms) ? ms : 0;
  }

  /** The next invented time. */
  next(): string {
    const t = this.#next;
    this.#next = t + 1;
    if (!Number.isInteger(t)) return new Date(t).toISOString();
    // Times advance a millisecond at a time: format the second once and only
    // the milliseconds per call (`toISOString` per event was a fifth of a
    // cantus import), into one flat string (a `prefix + digits` concatenation
    // is a rope of three strings, kept by every event).
    const second = Math.floor(t / 1000);
    const codes = this.#codes;
    if (second !== this.#second) {
      this.#second = second;
      const iso = new Date(second * 1000).toISOString(); // …:ss.000Z
      codes.length = iso.length;
      for (let i = 0; i < iso.length; i++) codes[i] = iso.charCodeAt(i);
    }
    const ms = t - second * 1000;
    const end = codes.length;
    codes[end - 4] = 48 + Math.floor(ms / 100);
    codes[end - 3] = 48 + (Math.floor(ms / 10) % 10);
    codes[end - 2] = 48 + (ms % 10);
    return String.fromCharCode.apply(null, codes);
  }

  #second = NaN;
  readonly #codes: number[] = [];

  /** Notes a real time seen in the source, so later invented times come after it. */
  observe(iso: string): void {
    const ms = timestampMs(iso);
    if (Number.isFinite(ms) && ms + 1 > this.#next) this.#next = Math.floor(ms) + 1;
  }
}
