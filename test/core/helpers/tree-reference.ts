// The span tree builders as first written (src/core/tree/event-tree.ts and
// incremental.ts before the single-pass rewrite for speed), kept as the
// differential oracle of test/core/tree-reference.test.ts (STYLE §14): the
// two-pass batch build with a pre-pass over every span_begin, and the
// incremental builder's state with Map-based indexes. Do not optimise this file.
import type { Diagnostic } from '../../../src/core/errors.js';
import type {
  Event,
  SpanBeginEvent,
  SpanEndEvent,
  StepEvent,
} from '../../../src/core/events/types.js';
import type { EventTree } from '../../../src/core/tree/event-tree.js';
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
} from './tree-reference-links.js';

/** The original `buildEventTree`. */
export function referenceBuildEventTree(events: readonly Event[]): EventTree {
  const n = events.length;
  const links = new Links(n, false);
  const role = links.role;
  const endOf = links.endOf;
  const diagnostics: PendingDiagnostic[] = [];

  // Pre-pass (inspect's): one node per span id, the first begin wins.
  const spanSlot = new Map<string, number>();
  let hasSteps = false;
  for (let i = 0; i < n; i++) {
    const e = events[i]!;
    const kind = e.event;
    if (kind === 'span_begin') {
      const id = (e as SpanBeginEvent).id;
      if (!spanSlot.has(id)) spanSlot.set(id, i);
    } else if (kind === 'step') {
      hasSteps = true;
    }
  }
  const cut = cycleCuts(events, spanSlot, diagnostics);

  // Legacy steps: one stack of open step slots per span id (`null` = root).
  const rootSteps: number[] = [];
  const stepStacks = new Map<string, number[]>();
  const stepsOf = (key: string | null): number[] | undefined =>
    key === null ? rootSteps : stepStacks.get(key);
  const place = (slot: number, key: string | null): void => {
    if (hasSteps) {
      const stack = stepsOf(key);
      if (stack !== undefined && stack.length > 0) {
        links.appendChild(stack[stack.length - 1]!, slot);
        return;
      }
    }
    const container = key === null ? undefined : spanSlot.get(key);
    if (container === undefined) links.appendRoot(slot);
    else links.appendChild(container, slot);
  };

  let nodeCount = 0;
  // Consecutive events usually share a span: remember the last lookup.
  let lastKey: string | null | undefined;
  let lastContainer = NONE;
  for (let i = 0; i < n; i++) {
    const e = events[i]!;
    const kind = e.event;
    if (kind === 'span_begin') {
      const begin = e as SpanBeginEvent;
      nodeCount++;
      if (spanSlot.get(begin.id) === i) {
        role[i] = Role.Span;
        if (cut.has(i)) links.appendRoot(i);
        else place(i, keyOf(begin.parent_id));
      } else {
        role[i] = Role.Event;
        diagnostics.push({ slot: i, code: 'span_duplicate_id', args: [begin.id] });
        place(i, keyOf(begin.parent_id));
      }
    } else if (kind === 'span_end') {
      role[i] = Role.None;
      const id = (e as SpanEndEvent).id;
      const s = spanSlot.get(id);
      if (s === undefined) diagnostics.push({ slot: i, code: 'span_end_unknown', args: [id] });
      else if (endOf[s] === NONE) endOf[s] = i;
      else diagnostics.push({ slot: i, code: 'span_end_duplicate', args: [id] });
    } else if (kind === 'step') {
      const step = e as StepEvent;
      const key = keyOf(step.span_id);
      if (step.action === 'end') {
        const stack = stepsOf(key);
        const at = stack === undefined ? -1 : findOpenStep(events, stack, step.name);
        if (at === -1) {
          role[i] = Role.Event;
          nodeCount++;
          diagnostics.push({ slot: i, code: 'step_end_unmatched', args: [step.name] });
          place(i, key);
        } else {
          role[i] = Role.None;
          closeSteps(events, stack!, at, i, endOf, diagnostics);
        }
      } else {
        role[i] = Role.Step;
        nodeCount++;
        place(i, key);
        let stack = stepsOf(key);
        if (stack === undefined) stepStacks.set(key!, (stack = []));
        stack.push(i);
      }
    } else {
      role[i] = Role.Event;
      nodeCount++;
      const key = keyOf(e.span_id);
      if (hasSteps) {
        place(i, key);
        continue;
      }
      if (key !== lastKey) {
        lastKey = key;
        lastContainer = key === null ? NONE : (spanSlot.get(key) ?? NONE);
      }
      if (lastContainer === NONE) links.appendRoot(i);
      else links.appendChild(lastContainer, i);
    }
  }
  return flatten(links, events, nodeCount, finishDiagnostics(diagnostics));
}

/**
 * Finds each parent cycle among the spans (a self-parent is a cycle of one)
 * and returns the slot that breaks it: the member whose begin comes last.
 * The graph is functional (one parent per span), so each component holds at
 * most one cycle and one cut per cycle makes it a forest.
 */
function cycleCuts(
  events: readonly Event[],
  spanSlot: ReadonlyMap<string, number>,
  diagnostics: PendingDiagnostic[],
): ReadonlySet<number> {
  const cut = new Set<number>();
  // Per slot: 1 = on the current path, 2 = done.
  const state = new Uint8Array(events.length);
  const parentSlot = (slot: number): number => {
    const p = keyOf((events[slot] as SpanBeginEvent).parent_id);
    return p === null ? NONE : (spanSlot.get(p) ?? NONE);
  };
  const path: number[] = [];
  for (const start of spanSlot.values()) {
    if (state[start] !== 0) continue;
    path.length = 0;
    let cur = start;
    while (cur !== NONE && state[cur] === 0) {
      state[cur] = 1;
      path.push(cur);
      cur = parentSlot(cur);
    }
    if (cur !== NONE && state[cur] === 1) {
      let last = cur;
      for (let k = path.indexOf(cur); k < path.length; k++) last = Math.max(last, path[k]!);
      cut.add(last);
      const begin = events[last] as SpanBeginEvent;
      diagnostics.push({
        slot: last,
        code: 'span_parent_cycle',
        args: [begin.id, begin.parent_id ?? ''],
      });
    }
    for (const p of path) state[p] = 2;
  }
  return cut;
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

export class ReferenceBuilderState {
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

/** The original incremental builder's tree after appending `arrivals` in order. */
export function referenceIncrementalTree(arrivals: Iterable<Event>): EventTree {
  const state = new ReferenceBuilderState();
  for (const event of arrivals) state.append(event);
  return state.tree();
}
