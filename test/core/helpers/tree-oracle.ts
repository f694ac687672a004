// Test helpers for the span tree: a deliberately naive, nested, recursive
// re-implementation of the written rules (the oracle the flat builders are
// compared against, STYLE §14), a compact text dump of a tree, small event
// factories, and fast-check arbitraries for well-formed and malformed runs.
import fc from 'fast-check';
import type {
  Event,
  SpanBeginEvent,
  SpanEndEvent,
  StepEvent,
} from '../../../src/core/events/types.js';
import { eventTreeNodeKey, type EventTree } from '../../../src/core/tree/event-tree.js';

// ---------------------------------------------------------------------------
// Event factories
// ---------------------------------------------------------------------------

const T = '2026-06-10T18:23:50Z';

/** A span_begin (`span_id === id`, as inspect writes it). */
export function begin(uuid: string, id: string, parent?: string | null, name = id): SpanBeginEvent {
  const e: SpanBeginEvent = {
    event: 'span_begin',
    uuid,
    timestamp: T,
    id,
    span_id: id,
    name,
    type: name,
  };
  if (parent !== undefined) e.parent_id = parent;
  return e;
}

/** A span_end. */
export function end(uuid: string, id: string): SpanEndEvent {
  return { event: 'span_end', uuid, timestamp: T, id, span_id: id };
}

/** An ordinary event in span `span` (`undefined` = no span_id field). */
export function info(uuid: string, span?: string | null, extra: Partial<Event> = {}): Event {
  const e: Event = { event: 'info', uuid, timestamp: T, data: uuid, ...extra } as Event;
  if (span !== undefined) e.span_id = span;
  return e;
}

/** A legacy step event. */
export function step(
  uuid: string,
  action: 'begin' | 'end',
  name: string,
  span?: string | null,
): StepEvent {
  const e: StepEvent = { event: 'step', uuid, timestamp: T, action, name, type: 'solver' };
  if (span !== undefined) e.span_id = span;
  return e;
}

// ---------------------------------------------------------------------------
// Dump
// ---------------------------------------------------------------------------

/** ` #key` for a node inside a later copy of a span begun twice (its key is not `plain`). */
function copyKey(tree: EventTree, i: number, plain: string): string {
  const key = eventTreeNodeKey(tree, i);
  return key === plain ? '' : ` #${key}`;
}

/**
 * One line per node (`indent kind key [end] (children)`), then the diagnostics:
 * everything a view can observe, in a form `toEqual` diffs readably.
 */
export function dumpTree(tree: EventTree): string[] {
  const lines: string[] = [];
  let roots = 0;
  for (let i = 0; i < tree.length; i++) {
    const s = tree.spanIndex[i]!;
    const pad = '  '.repeat(tree.depth[i]!);
    const parent = tree.parentIndex[i]!;
    if (parent === -1) roots++;
    const where = `${parent}/${tree.subtreeEnd[i]}`;
    if (s >= 0) {
      const span = tree.spans[s]!;
      if (span.index !== i) throw new Error(`span ${span.id} index ${span.index} at node ${i}`);
      const endUuid = span.end === null ? 'open' : `end=${span.end.uuid}`;
      lines.push(
        `${pad}${span.origin} ${span.id} ${tree.events[i]!.uuid} ${endUuid} (${span.childCount}) ${where}${copyKey(tree, i, span.id)}`,
      );
    } else {
      lines.push(
        `${pad}${tree.events[i]!.event} ${tree.events[i]!.uuid} ${where}${copyKey(tree, i, tree.events[i]!.uuid)}`,
      );
    }
  }
  if (roots !== tree.rootCount) throw new Error(`rootCount ${tree.rootCount}, counted ${roots}`);
  for (const d of tree.diagnostics) lines.push(`! ${d.path} ${d.code}`);
  return lines;
}

// ---------------------------------------------------------------------------
// The oracle: nested, recursive, written from the rules in event-tree.ts
// ---------------------------------------------------------------------------

interface OSpan {
  origin: 'span' | 'step';
  id: string;
  /** The first begin (its `parent_id` decides cycles) and the last (it names the node). */
  first: Event;
  last: Event;
  end: Event | null;
  children: OItem[];
}
/** A child: an event, or a span shown here by one of its begins (`ordinal`: 1 = first). */
type OItem = { slot: number; event: Event } | { slot: number; span: OSpan; ordinal: number };

/** The same tree as `buildEventTree`, built the obvious (slow) way, as a dump. */
export function oracleDump(events: readonly Event[]): string[] {
  const key = (v: string | null | undefined) => (v ? v : null);
  // inspect's pre-pass: one node per id; the last begin names it.
  const nodes = new Map<string, { slot: number; span: OSpan }>();
  events.forEach((e, slot) => {
    if (e.event !== 'span_begin') return;
    const id = (e as SpanBeginEvent).id;
    const known = nodes.get(id);
    if (known) known.span.last = e;
    else
      nodes.set(id, {
        slot,
        span: { origin: 'span', id, first: e, last: e, end: null, children: [] },
      });
  });
  const diagnostics: [number, string][] = [];
  // Cycles of first begins: walk up from every span; a span that reaches itself is on a cycle.
  type N = { slot: number; span: OSpan };
  const parentOf = (n: N) => {
    const p = key((n.span.first as SpanBeginEvent).parent_id);
    return p === null ? undefined : nodes.get(p);
  };
  const cut = new Set<number>();
  for (const n of nodes.values()) {
    const cycle: N[] = [];
    let cur: N | undefined = n;
    for (let k = 0; k <= nodes.size && cur; k++) {
      cur = parentOf(cur);
      if (cur === n) {
        let m: N = n;
        do {
          cycle.push(m);
          m = parentOf(m)!;
        } while (m !== n);
        break;
      }
    }
    if (cycle.length > 0) cut.add(Math.max(...cycle.map((m) => m.slot)));
  }
  for (const s of cut) diagnostics.push([s, 'span_parent_cycle']);

  const roots: OItem[] = [];
  const steps = new Map<string | null, OItem[]>();
  const begins = new Map<string, number>();
  const bucket = (k: string | null): OItem[] => {
    const open = steps.get(k);
    if (open && open.length > 0) return (open[open.length - 1] as { span: OSpan }).span.children;
    if (k !== null && nodes.has(k)) return nodes.get(k)!.span.children;
    return roots;
  };
  events.forEach((e, slot) => {
    if (e.event === 'span_begin') {
      const b = e as SpanBeginEvent;
      const node = nodes.get(b.id)!;
      const ordinal = (begins.get(b.id) ?? 0) + 1;
      begins.set(b.id, ordinal);
      if (ordinal > 1) diagnostics.push([slot, 'span_duplicate_id']);
      const item = { slot, span: node.span, ordinal };
      (cut.has(slot) ? roots : bucket(key(b.parent_id))).push(item);
    } else if (e.event === 'span_end') {
      const node = nodes.get((e as SpanEndEvent).id);
      if (!node) diagnostics.push([slot, 'span_end_unknown']);
      else {
        // inspect: the last end wins.
        if (node.span.end !== null) diagnostics.push([slot, 'span_end_duplicate']);
        node.span.end = e;
      }
    } else if (e.event === 'step') {
      const s = e as StepEvent;
      const k = key(s.span_id);
      const open = steps.get(k) ?? [];
      steps.set(k, open);
      if (s.action === 'end') {
        let at = -1;
        for (let j = open.length - 1; j >= 0 && at === -1; j--)
          if (((open[j] as { span: OSpan }).span.first as StepEvent).name === s.name) at = j;
        if (at === -1) {
          diagnostics.push([slot, 'step_end_unmatched']);
          bucket(k).push({ slot, event: e });
        } else {
          for (const inner of open.splice(at + 1)) diagnostics.push([inner.slot, 'step_unclosed']);
          (open.pop() as { span: OSpan }).span.end = e;
        }
      } else {
        const span: OSpan = {
          origin: 'step',
          id: e.uuid,
          first: e,
          last: e,
          end: null,
          children: [],
        };
        const item = { slot, span, ordinal: 1 };
        bucket(k).push(item);
        open.push(item);
      }
    } else {
      bucket(key(e.span_id)).push({ slot, event: e });
    }
  });

  // Pre-order numbering, each span once per begin (a begin that would show
  // a span inside itself left out), then the same dump format as dumpTree.
  const lines: string[] = [];
  const onStack = new Set<OSpan>();
  const cycles = new Set<number>();
  /** Emits `list`; returns how many items it showed. */
  const visit = (list: OItem[], depth: number, parent: number, path: string, plain: boolean) => {
    let shown = 0;
    for (const n of list) {
      if ('span' in n && onStack.has(n.span)) {
        if (!cycles.has(n.slot)) diagnostics.push([n.slot, 'span_copy_cycle']);
        cycles.add(n.slot);
        continue;
      }
      shown++;
      const i = lines.length;
      lines.push('');
      const pad = '  '.repeat(depth);
      if ('span' in n) {
        const p = path === '' ? String(n.ordinal) : `${path}.${n.ordinal}`;
        const isPlain = plain && n.ordinal === 1;
        onStack.add(n.span);
        const count = visit(n.span.children, depth + 1, i, p, isPlain);
        onStack.delete(n.span);
        const k = isPlain ? '' : ` #${n.span.id}\u241f${p}`;
        const endUuid = n.span.end ? `end=${n.span.end.uuid}` : 'open';
        lines[i] =
          `${pad}${n.span.origin} ${n.span.id} ${n.span.last.uuid} ${endUuid} (${count}) ${parent}/${lines.length}${k}`;
      } else {
        const k = plain ? '' : ` #${n.event.uuid}\u241f${path}`;
        lines[i] = `${pad}${n.event.event} ${n.event.uuid} ${parent}/${lines.length}${k}`;
      }
    }
    return shown;
  };
  visit(roots, 0, -1, '', true);
  diagnostics.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  for (const [slot, code] of diagnostics) lines.push(`! $[${slot}] ${code}`);
  return lines;
}

// ---------------------------------------------------------------------------
// Arbitraries
// ---------------------------------------------------------------------------

interface Shape {
  kind: 'span' | 'event' | 'step';
  children: Shape[];
  closed: boolean;
}

const shapeArb: fc.Arbitrary<Shape[]> = fc.letrec<{ node: Shape; list: Shape[] }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({
      kind: fc.constant('event' as const),
      children: fc.constant<Shape[]>([]),
      closed: fc.constant(true),
    }),
    fc.record({ kind: fc.constant('span' as const), children: tie('list'), closed: fc.boolean() }),
    fc.record({ kind: fc.constant('step' as const), children: tie('list'), closed: fc.boolean() }),
  ),
  list: fc.array(tie('node'), { maxLength: 4 }),
})).list;

/**
 * A well-formed run written in pre-order, as inspect writes it: spans with
 * `span_id === id`, children carrying their span's id, some spans left open,
 * and (with `toolPattern`) inspect's ToolEvent written right after its tool
 * span's begin but belonging to the enclosing span (research §1.6).
 */
export const wellFormedRun: fc.Arbitrary<Event[]> = fc
  .tuple(shapeArb, fc.boolean())
  .map(([shapes, toolPattern]) => {
    const out: Event[] = [];
    let next = 0;
    const uuid = () => `u${next++}`;
    const emit = (list: Shape[], span: string | null) => {
      for (const s of list) {
        if (s.kind === 'event') {
          out.push(info(uuid(), span));
        } else if (s.kind === 'span') {
          const id = `s${next}`;
          out.push(begin(uuid(), id, span));
          if (toolPattern && span !== null)
            out.push(info(uuid(), span, { event: 'tool' } as Partial<Event>));
          emit(s.children, id);
          if (s.closed) out.push(end(uuid(), id));
        } else {
          const name = `step${next}`;
          out.push(step(uuid(), 'begin', name, span));
          emit(s.children, span);
          if (s.closed) out.push(step(uuid(), 'end', name, span));
        }
      }
    };
    emit(shapes, null);
    return out;
  });

/**
 * Arbitrary events over a tiny id pool, so duplicates, unknown ids, cycles,
 * self-parents, stray ends, unmatched and crossed steps all occur often.
 */
export const malformedRun: fc.Arbitrary<Event[]> = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        'span_begin',
        'span_begin',
        'span_end',
        'info',
        'info',
        'step_begin',
        'step_end',
      ),
      fc.constantFrom('a', 'b', 'c', 'd'),
      fc.constantFrom<string | null | undefined>('a', 'b', 'c', 'd', 'zz', null, undefined, ''),
      fc.constantFrom('x', 'y'),
    ),
    { maxLength: 40 },
  )
  .map((items) =>
    items.map(([kind, id, ref, name], i): Event => {
      const u = `m${i}`;
      switch (kind) {
        case 'span_begin':
          return begin(u, id, ref);
        case 'span_end':
          return end(u, id);
        case 'step_begin':
          return step(u, 'begin', name, ref);
        case 'step_end':
          return step(u, 'end', name, ref);
        default:
          return info(u, ref);
      }
    }),
  );

/**
 * A live feed for `events`: an arrival order (a random permutation) plus, for
 * some events, pending copies under the same uuid — before the final version
 * or, stale, after it — and, with `restructure`, pending copies whose
 * `span_id` differs from the final one.
 */
export function liveFeed(events: readonly Event[], restructure = false): fc.Arbitrary<Event[]> {
  return fc
    .tuple(
      fc.array(fc.double({ min: 0, max: 1, noNaN: true }), {
        minLength: events.length,
        maxLength: events.length,
      }),
      fc.array(fc.tuple(fc.nat(), fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean()), {
        maxLength: 8,
      }),
    )
    .map(([keys, copies]) => {
      const order = events.map((e, i) => ({ e, k: keys[i]! }));
      if (events.length > 0) {
        for (const [pick, k, moved] of copies) {
          const original = events[pick % events.length]!;
          const copy = { ...original, pending: true } as Event;
          if (restructure && moved) copy.span_id = original.span_id ? null : 'a';
          order.push({ e: copy, k });
        }
      }
      return order.sort((a, b) => a.k - b.k).map((o) => o.e);
    });
}

/** `EventStream.latest()`'s projection, written out: first position per uuid, newest version, stale pending ignored. */
export function latestVersions(arrivals: readonly Event[]): Event[] {
  const at = new Map<string, number>();
  const out: Event[] = [];
  for (const e of arrivals) {
    const i = at.get(e.uuid);
    if (i === undefined) {
      at.set(e.uuid, out.length);
      out.push(e);
    } else if (e.pending !== true || out[i]!.pending === true) {
      out[i] = e;
    }
  }
  return out;
}
