/**
 * The incremental span tree builder: events arrive one at a time, in whatever
 * order a live feed delivers them, and the tree is always the one
 * {@link buildEventTree} would build from the events seen so far (issue 4).
 *
 * "The events seen so far" is what the views show: one entry per `uuid`, in
 * the order each uuid first arrived, holding its newest version — exactly
 * `EventStream.latest()`, including its rule that a `pending` copy arriving
 * after a final one is ignored (research/inspect_ai.md §1.7: pending events
 * are re-sent under the same uuid until they complete).
 *
 * How it stays equal to the batch build without knowing the future:
 * - An event (or span, or step) whose span is not known yet sits at the root,
 *   where the batch build of the same prefix puts it, on a waiting list for
 *   that span id. When the `span_begin` arrives, the waiting items move into
 *   the new span in arrival order. Each item moves at most once.
 * - A `span_end` for an unknown span waits the same way; until its begin
 *   arrives it is reported as `span_end_unknown`, as the batch build would.
 * - A parent cycle can only close when its last member arrives; that member
 *   is the one the batch build cuts (the cycle member that comes last).
 * - A re-emitted event that keeps its structure (kind, `span_id`, span `id`
 *   and `parent_id`, step `action` and `name`) replaces the old version in
 *   place. One that changes its structure — never seen in inspect's feeds —
 *   makes the next snapshot rebuild the links from scratch (O(n), once).
 *
 * Cost: `append` is O(1) amortized (a span_begin also walks its ancestor
 * chain once, O(depth), to detect a cycle). `getSnapshot()` flattens in O(n)
 * after a change and returns the same tree until the next one.
 */
import type { Diagnostic } from '../errors.js';
import type { Event, SpanBeginEvent, SpanEndEvent, StepEvent } from '../events/types.js';
import type { EventTree } from './event-tree.js';
import {
  Links,
  NONE,
  Role,
  closeSteps,
  findOpenStep,
  finishDiagnostics,
  flatten,
  keyOf,
  type PendingDiagnostic,
} from './links.js';

/**
 * Options of {@link createEventTreeBuilder}.
 *
 * @example
 * const builder = createEventTreeBuilder({ events: stream.toArray() });
 */
export interface EventTreeBuilderOptions {
  /** Events to append first, in order. */
  events?: Iterable<Event>;
}

/**
 * An incremental span tree: a small external store (STYLE §3).
 *
 * @example
 * const builder = createEventTreeBuilder();
 * const stop = stream.subscribe(() => { for (const e of newEvents()) builder.append(e); });
 * const tree = useSyncExternalStore(builder.subscribe, builder.getSnapshot);
 */
export interface EventTreeBuilder {
  /**
   * Adds one event (or a new version of one already seen, by `uuid`).
   * O(1) amortized. Never mutates the event.
   */
  append(event: Event): void;
  /** Appends each event in order. */
  appendAll(events: Iterable<Event>): void;
  /**
   * The current tree: the same object until something changes, so it can go
   * straight to `useSyncExternalStore`. Bound.
   */
  readonly getSnapshot: () => EventTree;
  /**
   * Calls `listener` once per microtask in which the tree changed. Returns the
   * unsubscribe function. Bound.
   */
  readonly subscribe: (listener: () => void) => () => void;
  /** Distinct uuids seen (the input length of the equivalent batch build). */
  readonly size: number;
}

/**
 * Creates an incremental span tree builder whose snapshot always equals
 * `buildEventTree` of the latest version of each uuid seen, in first-arrival
 * order — whatever order events arrive in (children before their span, late
 * `span_end`s, pending events re-emitted under the same uuid).
 *
 * @example
 * const builder = createEventTreeBuilder();
 * for (const e of feed) builder.append(e);
 * const tree = builder.getSnapshot(); // same as buildEventTree(stream.latest())
 */
export function createEventTreeBuilder(options: EventTreeBuilderOptions = {}): EventTreeBuilder {
  const state = new BuilderState();
  let snapshot: EventTree | null = null;
  let listeners: readonly (() => void)[] = [];
  let notifyScheduled = false;

  const notify = () => {
    notifyScheduled = false;
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        // One failing listener must not starve the others (as EventStream does).
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  };
  const changed = () => {
    snapshot = null;
    if (notifyScheduled || listeners.length === 0) return;
    notifyScheduled = true;
    queueMicrotask(notify);
  };

  const builder: EventTreeBuilder = {
    append(event) {
      if (state.append(event)) changed();
    },
    appendAll(events) {
      let any = false;
      for (const event of events) any = state.append(event) || any;
      if (any) changed();
    },
    getSnapshot: () => (snapshot ??= state.tree()),
    subscribe(listener) {
      const entry = () => listener();
      listeners = [...listeners, entry];
      let active = true;
      return () => {
        if (!active) return;
        active = false;
        listeners = listeners.filter((l) => l !== entry);
      };
    },
    get size() {
      return state.slots.length;
    },
  };
  if (options.events !== undefined) builder.appendAll(options.events);
  return builder;
}

/** Whether two versions of one event would be placed the same way. */
function sameStructure(a: Event, b: Event): boolean {
  if (a.event !== b.event || keyOf(a.span_id) !== keyOf(b.span_id)) return false;
  switch (a.event) {
    case 'span_begin':
      return (
        (a as SpanBeginEvent).id === (b as SpanBeginEvent).id &&
        keyOf((a as SpanBeginEvent).parent_id) === keyOf((b as SpanBeginEvent).parent_id)
      );
    case 'span_end':
      return (a as SpanEndEvent).id === (b as SpanEndEvent).id;
    case 'step':
      return (
        (a as StepEvent).action === (b as StepEvent).action &&
        (a as StepEvent).name === (b as StepEvent).name
      );
    default:
      return true;
  }
}

class BuilderState {
  /** Latest version per uuid, in first-arrival order (the batch input). */
  readonly slots: Event[] = [];
  readonly #slotOf = new Map<string, number>();
  #links = new Links(1024, true);
  /** Span id → slot of its node (the first begin). */
  #spans = new Map<string, number>();
  /** Span slot → slot of its parent span (absent: a root, waiting, or cut). */
  #spanParent = new Map<number, number>();
  #cut = new Set<number>();
  /** Span id → root-level slots that belong in it once it begins. */
  #waiting = new Map<string, number[]>();
  /** Span id → span_end slots that arrived before the begin. */
  #waitingEnds = new Map<string, number[]>();
  #rootSteps: number[] = [];
  #stepStacks = new Map<string, number[]>();
  /** Diagnostics that no later event can take back. */
  #diagnostics: PendingDiagnostic[] = [];
  #nodeCount = 0;
  #needsRebuild = false;

  /** Returns whether anything changed. */
  append(event: Event): boolean {
    const at = this.#slotOf.get(event.uuid);
    if (at !== undefined) {
      const old = this.slots[at]!;
      // EventStream.latest(): a stale pending copy never replaces a final one.
      if (old === event || (event.pending === true && old.pending !== true)) return false;
      this.slots[at] = event;
      if (!sameStructure(old, event)) this.#needsRebuild = true;
      return true;
    }
    const slot = this.slots.length;
    this.slots.push(event);
    this.#slotOf.set(event.uuid, slot);
    if (!this.#needsRebuild) this.#place(slot);
    return true;
  }

  tree(): EventTree {
    if (this.#needsRebuild) this.#rebuild();
    const pending = this.#diagnostics.slice();
    for (const [id, ends] of this.#waitingEnds) {
      for (const slot of ends) pending.push({ slot, code: 'span_end_unknown', args: [id] });
    }
    const diagnostics: readonly Diagnostic[] = finishDiagnostics(pending);
    return flatten(this.#links, this.slots, this.#nodeCount, diagnostics);
  }

  #rebuild(): void {
    this.#links = new Links(this.slots.length, true);
    this.#spans = new Map();
    this.#spanParent = new Map();
    this.#cut = new Set();
    this.#waiting = new Map();
    this.#waitingEnds = new Map();
    this.#rootSteps = [];
    this.#stepStacks = new Map();
    this.#diagnostics = [];
    this.#nodeCount = 0;
    this.#needsRebuild = false;
    for (let slot = 0; slot < this.slots.length; slot++) this.#place(slot);
  }

  #stepsOf(key: string | null): number[] | undefined {
    return key === null ? this.#rootSteps : this.#stepStacks.get(key);
  }

  /**
   * Links `slot` under key `key` (a `span_id`, or a `parent_id` for a
   * span_begin): the innermost open step of that key, else the span, else the
   * root — waiting for the span if the key names one not begun yet.
   */
  #put(slot: number, key: string | null): void {
    const links = this.#links;
    const stack = this.#stepsOf(key);
    if (stack !== undefined && stack.length > 0) {
      links.appendChild(stack[stack.length - 1]!, slot);
      return;
    }
    if (key === null) {
      links.appendRoot(slot);
      return;
    }
    const container = this.#spans.get(key);
    if (container !== undefined) {
      links.appendChild(container, slot);
      return;
    }
    links.appendRoot(slot);
    const waiting = this.#waiting.get(key);
    if (waiting === undefined) this.#waiting.set(key, [slot]);
    else waiting.push(slot);
  }

  #place(slot: number): void {
    const e = this.slots[slot]!;
    const links = this.#links;
    links.ensure(slot);
    switch (e.event) {
      case 'span_begin':
        this.#placeBegin(slot, e as SpanBeginEvent);
        return;
      case 'span_end': {
        links.role[slot] = Role.None;
        const id = (e as SpanEndEvent).id;
        const s = this.#spans.get(id);
        if (s === undefined) {
          const ends = this.#waitingEnds.get(id);
          if (ends === undefined) this.#waitingEnds.set(id, [slot]);
          else ends.push(slot);
        } else if (links.endOf[s] === NONE) {
          links.endOf[s] = slot;
        } else {
          this.#diagnostics.push({ slot, code: 'span_end_duplicate', args: [id] });
        }
        return;
      }
      case 'step': {
        const step = e as StepEvent;
        const key = keyOf(step.span_id);
        if (step.action === 'end') {
          const stack = this.#stepsOf(key);
          const at = stack === undefined ? -1 : findOpenStep(this.slots, stack, step.name);
          if (at === -1) {
            links.role[slot] = Role.Event;
            this.#nodeCount++;
            this.#diagnostics.push({ slot, code: 'step_end_unmatched', args: [step.name] });
            this.#put(slot, key);
          } else {
            links.role[slot] = Role.None;
            closeSteps(this.slots, stack!, at, slot, links.endOf, this.#diagnostics);
          }
          return;
        }
        links.role[slot] = Role.Step;
        this.#nodeCount++;
        this.#put(slot, key);
        let stack = this.#stepsOf(key);
        if (stack === undefined) this.#stepStacks.set(key!, (stack = []));
        stack.push(slot);
        return;
      }
      default:
        links.role[slot] = Role.Event;
        this.#nodeCount++;
        this.#put(slot, keyOf(e.span_id));
    }
  }

  #placeBegin(slot: number, begin: SpanBeginEvent): void {
    const links = this.#links;
    const id = begin.id;
    const parentKey = keyOf(begin.parent_id);
    this.#nodeCount++;
    if (this.#spans.has(id)) {
      links.role[slot] = Role.Event;
      this.#diagnostics.push({ slot, code: 'span_duplicate_id', args: [id] });
      this.#put(slot, parentKey);
      return;
    }
    links.role[slot] = Role.Span;
    this.#spans.set(id, slot);
    if (this.#closesCycle(id, parentKey)) {
      this.#cut.add(slot);
      this.#diagnostics.push({
        slot,
        code: 'span_parent_cycle',
        args: [id, begin.parent_id ?? ''],
      });
      links.appendRoot(slot);
    } else {
      this.#put(slot, parentKey);
      const parent = parentKey === null ? undefined : this.#spans.get(parentKey);
      if (parent !== undefined) this.#spanParent.set(slot, parent);
    }
    // What arrived before this begin and belongs in it moves in now, in order.
    const waiting = this.#waiting.get(id);
    if (waiting !== undefined) {
      this.#waiting.delete(id);
      for (const child of waiting) {
        links.removeRoot(child);
        links.appendChild(slot, child);
        if (links.role[child] === Role.Span) this.#spanParent.set(child, slot);
      }
    }
    const ends = this.#waitingEnds.get(id);
    if (ends !== undefined) {
      this.#waitingEnds.delete(id);
      links.endOf[slot] = ends[0]!;
      for (let k = 1; k < ends.length; k++) {
        this.#diagnostics.push({ slot: ends[k]!, code: 'span_end_duplicate', args: [id] });
      }
    }
  }

  /**
   * Whether span `id`, arriving now under `parentKey`, closes a parent cycle:
   * it names itself, or its parent's chain of spans ends at a span still
   * waiting for `id`.
   */
  #closesCycle(id: string, parentKey: string | null): boolean {
    if (parentKey === null) return false;
    if (parentKey === id) return true;
    let cur = this.#spans.get(parentKey);
    if (cur === undefined) return false;
    for (let up = this.#spanParent.get(cur); up !== undefined; up = this.#spanParent.get(cur))
      cur = up;
    if (this.#cut.has(cur)) return false;
    return keyOf((this.slots[cur] as SpanBeginEvent).parent_id) === id;
  }
}
