// The span tree's original linked-list machinery (src/core/tree/links.ts
// before the single-pass rewrite), kept verbatim as the differential oracle
// for the faster builders (STYLE §14). Do not optimise this file.
/**
 * Internal machinery shared by the batch builder (`event-tree.ts`) and the
 * incremental builder (`incremental.ts`): child lists kept as linked lists in
 * typed arrays, indexed by input position ("slot"), and the one pass that turns
 * them into the flat, pre-order {@link EventTree}.
 *
 * Not exported from the package: the two builders decide *where* each event
 * goes (that is the part the property tests compare); this module only stores
 * the answer and flattens it.
 */
import { errorMessage, type Diagnostic, type ErrorCode } from '../../../src/core/errors.js';
import type {
  Event,
  SpanBeginEvent,
  SpanEndEvent,
  StepEvent,
} from '../../../src/core/events/types.js';
import type { EventTree, EventTreeSpan } from '../../../src/core/tree/event-tree.js';

/**
 * What a slot became. Plain numeric constants rather than a `const enum`:
 * `isolatedModules` builds cannot inline const enums across files.
 */
export const Role = {
  /** A leaf: an ordinary event, a duplicate span_begin, an unmatched step end. */
  Event: 0,
  /** The node of a span (the first span_begin of its id). */
  Span: 1,
  /** The node of a legacy step (a `step` begin). */
  Step: 2,
  /** Not a node: a span_end or step end that became a node's `end`, or a dropped span_end. */
  None: 3,
} as const;

/** Sentinel "no slot". */
export const NONE = -1;

/**
 * A diagnostic before formatting: slot first, so both builders can sort them
 * the same way whatever order they found them in.
 */
export interface PendingDiagnostic {
  readonly slot: number;
  readonly code: ErrorCode;
  readonly args: readonly string[];
}

/**
 * Child lists as doubly linked lists over slots. The root list is kept in
 * `rootHead`/`rootTail`. Arrays grow by doubling, so the incremental builder
 * can append in O(1) amortized.
 */
export class Links {
  role: Uint8Array;
  firstChild: Int32Array;
  lastChild: Int32Array;
  nextSibling: Int32Array;
  /**
   * Only kept when `removable` (the incremental builder moves root items);
   * the batch builder never unlinks, and skipping it saves 4 bytes per event.
   */
  prevSibling: Int32Array | null;
  /** Slot of the span_end / step end attached to a container slot. */
  endOf: Int32Array;
  rootHead = NONE;
  rootTail = NONE;

  constructor(capacity: number, removable: boolean) {
    const c = Math.max(16, capacity);
    this.role = new Uint8Array(c);
    this.firstChild = new Int32Array(c).fill(NONE);
    this.lastChild = new Int32Array(c).fill(NONE);
    this.nextSibling = new Int32Array(c).fill(NONE);
    this.prevSibling = removable ? new Int32Array(c).fill(NONE) : null;
    this.endOf = new Int32Array(c).fill(NONE);
  }

  get capacity(): number {
    return this.role.length;
  }

  /** Makes room for `slot` (doubling). */
  ensure(slot: number): void {
    if (slot < this.role.length) return;
    let c = this.role.length * 2;
    while (c <= slot) c *= 2;
    const grow = (a: Int32Array) => {
      const b = new Int32Array(c).fill(NONE);
      b.set(a);
      return b;
    };
    const role = new Uint8Array(c);
    role.set(this.role);
    this.role = role;
    this.firstChild = grow(this.firstChild);
    this.lastChild = grow(this.lastChild);
    this.nextSibling = grow(this.nextSibling);
    if (this.prevSibling !== null) this.prevSibling = grow(this.prevSibling);
    this.endOf = grow(this.endOf);
  }

  appendChild(parent: number, child: number): void {
    const last = this.lastChild[parent]!;
    if (last === NONE) this.firstChild[parent] = child;
    else this.nextSibling[last] = child;
    if (this.prevSibling !== null) this.prevSibling[child] = last;
    this.nextSibling[child] = NONE;
    this.lastChild[parent] = child;
  }

  appendRoot(child: number): void {
    const last = this.rootTail;
    if (last === NONE) this.rootHead = child;
    else this.nextSibling[last] = child;
    if (this.prevSibling !== null) this.prevSibling[child] = last;
    this.nextSibling[child] = NONE;
    this.rootTail = child;
  }

  /** Unlinks a slot from the root list (only root items ever move). */
  removeRoot(child: number): void {
    const prevSibling = this.prevSibling!;
    const prev = prevSibling[child]!;
    const next = this.nextSibling[child]!;
    if (prev === NONE) this.rootHead = next;
    else this.nextSibling[prev] = next;
    if (next === NONE) this.rootTail = prev;
    else prevSibling[next] = prev;
    prevSibling[child] = NONE;
    this.nextSibling[child] = NONE;
  }
}

/** `span_id` / `parent_id` as a key: inspect treats `''` like null (`if span_id and …`, `_tree.py`). */
export function keyOf(value: string | null | undefined): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** Index in `stack` of the innermost open step named `name`, or -1. */
export function findOpenStep(
  events: ArrayLike<Event>,
  stack: readonly number[],
  name: string,
): number {
  for (let k = stack.length - 1; k >= 0; k--) {
    if ((events[stack[k]!] as StepEvent).name === name) return k;
  }
  return -1;
}

/** Closes `stack[at]` with the end at `endSlot`; steps above it stay unclosed. */
export function closeSteps(
  events: ArrayLike<Event>,
  stack: number[],
  at: number,
  endSlot: number,
  endOf: Int32Array,
  diagnostics: PendingDiagnostic[],
): void {
  const outer = (events[stack[at]!] as StepEvent).name;
  for (let k = stack.length - 1; k > at; k--) {
    const inner = events[stack[k]!] as StepEvent;
    diagnostics.push({ slot: stack[k]!, code: 'step_unclosed', args: [inner.name, outer] });
  }
  endOf[stack[at]!] = endSlot;
  stack.length = at;
}

/** Formats and sorts diagnostics (by slot, then code) so both builders agree exactly. */
export function finishDiagnostics(pending: readonly PendingDiagnostic[]): readonly Diagnostic[] {
  const sorted = pending
    .slice()
    .sort((a, b) => a.slot - b.slot || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  return Object.freeze(
    sorted.map((d) =>
      Object.freeze({
        code: d.code,
        severity: 'warning' as const,
        message: (errorMessage as (code: ErrorCode, ...args: string[]) => string)(
          d.code,
          ...d.args,
        ),
        path: `$[${d.slot}]`,
      }),
    ),
  );
}

/**
 * Flattens the linked lists into the pre-order columns of an {@link EventTree}
 * in one iterative depth-first pass (no recursion: a 500-deep run must not
 * overflow the stack).
 */
export function flatten(
  links: Links,
  events: ArrayLike<Event>,
  nodeCount: number,
  diagnostics: readonly Diagnostic[],
): EventTree {
  const { role, firstChild, nextSibling, endOf } = links;
  const nodeEvents = new Array<Event>(nodeCount);
  const depth = new Int32Array(nodeCount);
  const parentIndex = new Int32Array(nodeCount);
  const subtreeEnd = new Int32Array(nodeCount);
  const spanIndex = new Int32Array(nodeCount);
  const spans: EventTreeSpan[] = [];
  // Open containers: their slot, node index and child count so far.
  const stackSlot: number[] = [];
  const stackNode: number[] = [];
  const stackChildren: number[] = [];
  let rootCount = 0;
  let index = 0;
  let parent = -1;
  let level = 0;
  let slot = links.rootHead;
  for (;;) {
    while (slot !== NONE) {
      const i = index++;
      nodeEvents[i] = events[slot]!;
      depth[i] = level;
      parentIndex[i] = parent;
      if (parent === -1) rootCount++;
      else stackChildren[stackChildren.length - 1]!++;
      const r = role[slot]!;
      if (r === Role.Span || r === Role.Step) {
        spanIndex[i] = spans.length;
        // Placeholder, filled when the subtree closes and its child count is known.
        spans.push(null as unknown as EventTreeSpan);
        const first = firstChild[slot]!;
        if (first !== NONE) {
          stackSlot.push(slot);
          stackNode.push(i);
          stackChildren.push(0);
          parent = i;
          level++;
          slot = first;
          continue;
        }
        spans[spanIndex[i]!] = makeSpan(r, i, events, slot, endOf[slot]!, 0);
      } else {
        spanIndex[i] = -1;
      }
      subtreeEnd[i] = i + 1;
      slot = nextSibling[slot]!;
    }
    if (stackSlot.length === 0) break;
    const s = stackSlot.pop()!;
    const j = stackNode.pop()!;
    const children = stackChildren.pop()!;
    subtreeEnd[j] = index;
    spans[spanIndex[j]!] = makeSpan(role[s]!, j, events, s, endOf[s]!, children);
    parent = parentIndex[j]!;
    level--;
    slot = nextSibling[s]!;
  }
  if (index !== nodeCount) {
    // Unreachable while the builders keep their invariants (every node slot
    // is linked exactly once, no cycles); fail loudly rather than return junk.
    throw new Error(`event tree: flattened ${index} nodes, expected ${nodeCount}`);
  }
  return Object.freeze({
    length: nodeCount,
    events: nodeEvents,
    depth,
    parentIndex,
    subtreeEnd,
    spanIndex,
    spans: Object.freeze(spans),
    rootCount,
    diagnostics,
  });
}

function makeSpan(
  role: number,
  index: number,
  events: ArrayLike<Event>,
  slot: number,
  endSlot: number,
  childCount: number,
): EventTreeSpan {
  if (role === Role.Span) {
    const begin = events[slot] as SpanBeginEvent;
    return Object.freeze({
      origin: 'span' as const,
      index,
      id: begin.id,
      parentId: keyOf(begin.parent_id),
      name: begin.name,
      type: begin.type ?? null,
      begin,
      end: endSlot === NONE ? null : (events[endSlot] as SpanEndEvent),
      childCount,
    });
  }
  const begin = events[slot] as StepEvent;
  return Object.freeze({
    origin: 'step' as const,
    index,
    // Steps have no id of their own; the begin event's uuid is stable and unique.
    id: begin.uuid,
    parentId: null,
    name: begin.name,
    type: begin.type ?? null,
    begin,
    end: endSlot === NONE ? null : (events[endSlot] as StepEvent),
    childCount,
  });
}
