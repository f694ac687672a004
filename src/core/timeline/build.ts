// Past 600 lines: inspect's timeline_build pipeline (span tree, phases, agents, post-processing), whose passes share one internal span tree and copy budget.
/**
 * `buildTimeline`: inspect_ai's `timeline_build` (its
 * `event/_timeline.py`) in linear time and without recursion over the input.
 *
 * Pipeline: (1) an internal span tree with `event_tree` semantics,
 * (2) phase extraction, (3) agent building with the classification
 * table, unrolling and the branch-aware child processor, (4) the
 * post-processing passes in inspect's order.
 *
 * Why it is written with explicit stacks: span nesting depth is bounded only
 * by the number of events (a hostile or generated run can nest thousands of
 * spans), and inspect's own recursive builders grow super-linearly (measured:
 * ~40× a linear pass at 100k events). Every pass here visits each tree node
 * and each content item a constant number of times.
 */
import type {
  BranchEvent,
  Event,
  ModelEvent,
  SpanBeginEvent,
  SpanEndEvent,
  ToolEvent,
} from '../events/types.js';
import { eventTime } from '../events/event-time.js';
import { parseEvents } from '../events/parse.js';
import {
  contentText,
  hasToolCalls,
  isModel,
  isTool,
  isWarmupCall,
  systemPromptOf,
  toolResultText,
} from './prompts.js';
import type { BuildTimelineOptions, Timeline, TimelineEvent } from './types.js';

// ---------------------------------------------------------------------------
// Mutable build-time shapes (the same objects are returned as TimelineSpan)
// ---------------------------------------------------------------------------

interface MSpan {
  type: 'span';
  id: string;
  name: string;
  spanType: string | null;
  content: MItem[];
  branches: MSpan[];
  branchedFrom: string | null;
  description: string | null;
  utility: boolean;
  toolInvoked: boolean;
  agentResult: string | null;
  outline: null;
}
type MItem = TimelineEvent | MSpan;

function makeSpan(id: string, name: string, spanType: string | null): MSpan {
  // Every key always present (nulls included) so all spans share one shape.
  return {
    type: 'span',
    id,
    // inspect lower-cases names in a validator.
    name: name.toLowerCase(),
    spanType,
    content: [],
    branches: [],
    branchedFrom: null,
    description: null,
    utility: false,
    toolInvoked: false,
    agentResult: null,
    outline: null,
  };
}

function makeEvent(event: Event): TimelineEvent {
  return { type: 'event', event };
}

// ---------------------------------------------------------------------------
// (1) The span tree, inspect `event_tree` semantics (inspect_ai's `event/_tree.py`)
// ---------------------------------------------------------------------------

class TreeSpan {
  readonly children: TreeItem[] = [];
  end: SpanEndEvent | null = null;
  /** A ModelEvent anywhere below. */
  containsModel = false;
  /** A span of type `agent` anywhere below (not counting this one). */
  containsAgent = false;
  /** Post-order walk state (two-pass builder): 0 unseen, 1 on the stack, 2 done. */
  state = 0;
  /** The tree parent (single-pass builder only; null for a root). */
  parent: TreeSpan | null = null;
  /**
   * False for a single-pass placeholder whose span_begin has not been seen
   * yet: `begin`, `type` and `name` are filled in when it arrives (one that
   * never arrives makes the single-pass builder give up).
   */
  begun: boolean;
  begin: SpanBeginEvent;
  type: string | null;
  name: string;
  constructor(
    readonly id: string,
    begin: SpanBeginEvent | null,
  ) {
    this.begun = begin !== null;
    this.begin = begin as SpanBeginEvent;
    this.type = begin === null ? null : (begin.type ?? null);
    this.name = begin === null ? '' : begin.name;
  }
}
type TreeItem = TreeSpan | Event;

/**
 * Builds the forest with `event_tree` semantics (inspect_ai's `event/_tree.py`): one node per
 * span id (the last begin of an id wins), begins attached under `parent_id`
 * and other events under `span_id`, unknown or null → root, in file order.
 * A span id begun twice is appended once per begin — the same node twice, as
 * inspect's `_tree.py` does — for parity with `timeline_build`; the span tree
 * (src/core/tree/event-tree.ts) follows the same rule, so the swimlane, the
 * span tree and the transcript show the same copies.
 *
 * The fast path is one pass over the events that also maintains the
 * `containsModel` / `containsAgent` flags incrementally. It handles what
 * inspect writes, including events that arrive before their span's begin;
 * on anything stranger (a span begun twice, a parent referenced before its
 * begin, events of a span that never begins) it gives up and the exact
 * two-pass builder runs instead.
 */
function buildTree(events: readonly Event[]): TreeItem[] {
  return buildTreeOnePass(events) ?? buildTreeTwoPass(events);
}

/** Sets `containsModel` on `node` and its ancestors (stops at the first one already set). */
function markModel(node: TreeSpan | null): void {
  while (node !== null && !node.containsModel) {
    node.containsModel = true;
    node = node.parent;
  }
}

/** Sets `containsAgent` on `node` and its ancestors. */
function markAgent(node: TreeSpan | null): void {
  while (node !== null && !node.containsAgent) {
    node.containsAgent = true;
    node = node.parent;
  }
}

/**
 * The single-pass tree builder, or `null` when the input needs the two-pass
 * rules (see {@link buildTree}). Nodes for ids not begun yet are placeholders.
 * Every begin is attached to a parent begun earlier, so parent chains are
 * acyclic, and a flag propagated up a chain stops at the first node that
 * already has it: O(1) amortized per event.
 */
function buildTreeOnePass(events: readonly Event[]): TreeItem[] | null {
  const nodes = new Map<string, TreeSpan>();
  // Nodes created before their begin; each must be begun by the end.
  let placeholders: TreeSpan[] | null = null;
  const roots: TreeItem[] = [];
  let lastId: string | null | undefined;
  let lastNode: TreeSpan | undefined;
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    const kind = e.event;
    if (kind === 'span_begin') {
      const begin = e as SpanBeginEvent;
      const id = begin.id;
      let node = nodes.get(id);
      if (node === undefined) {
        node = new TreeSpan(id, begin);
        nodes.set(id, node);
      } else {
        // Begun twice: "the last begin wins" needs the two-pass rules.
        if (node.begun) return null;
        node.begun = true;
        node.begin = begin;
        node.type = begin.type ?? null;
        node.name = begin.name;
      }
      const parentId = begin.parent_id;
      if (parentId != null && parentId !== id) {
        const parent = nodes.get(parentId);
        // Unknown parent: it may begin later (attach) or never (root) — and a
        // forward reference could close a cycle. Leave it to the two-pass rules.
        if (parent === undefined || !parent.begun) return null;
        node.parent = parent;
        parent.children.push(node);
        if (node.containsModel) markModel(parent);
        if (node.containsAgent || node.type === 'agent') markAgent(parent);
      } else roots.push(node);
    } else if (kind === 'span_end') {
      const id = (e as SpanEndEvent).id;
      let node = nodes.get(id);
      if (node === undefined) {
        // The begin may come later; if it never does, the end is dropped.
        node = new TreeSpan(id, null);
        nodes.set(id, node);
        (placeholders ??= []).push(node);
      }
      node.end = e as SpanEndEvent;
    } else {
      const spanId = e.span_id;
      // Runs of events share a span: remember the last lookup.
      if (spanId !== lastId) {
        lastId = spanId;
        if (spanId == null) lastNode = undefined;
        else {
          lastNode = nodes.get(spanId);
          if (lastNode === undefined) {
            lastNode = new TreeSpan(spanId, null);
            nodes.set(spanId, lastNode);
            (placeholders ??= []).push(lastNode);
          }
        }
      }
      if (lastNode === undefined) roots.push(e);
      else {
        lastNode.children.push(e);
        if (kind === 'model' && !lastNode.containsModel) markModel(lastNode);
      }
    }
  }
  if (placeholders !== null) {
    // Events of a span that never began belong at the root, in file order.
    for (const node of placeholders) if (!node.begun && node.children.length > 0) return null;
  }
  return roots;
}

/**
 * The two-pass tree builder (the reference rules): a pre-pass creates one
 * node per span_begin (the last begin of an id wins), then one pass in file
 * order attaches begins under `parent_id` and other events under `span_id`,
 * unknown or null → root. A parent cycle (which would hang inspect's
 * walkers) is cut: the span whose parent link closes the cycle becomes a root.
 */
function buildTreeTwoPass(events: readonly Event[]): TreeItem[] {
  const nodes = new Map<string, TreeSpan>();
  for (const e of events) {
    if (e.event === 'span_begin') {
      const begin = e as SpanBeginEvent;
      nodes.set(begin.id, new TreeSpan(begin.id, begin));
    }
  }
  const roots: TreeItem[] = [];
  let lastId: string | null | undefined;
  let lastNode: TreeSpan | undefined;
  for (const e of events) {
    if (e.event === 'span_begin') {
      const begin = e as SpanBeginEvent;
      const node = nodes.get(begin.id);
      if (node === undefined) continue;
      const parent = begin.parent_id == null ? undefined : nodes.get(begin.parent_id);
      if (parent === undefined || parent === node) roots.push(node);
      else parent.children.push(node);
    } else if (e.event === 'span_end') {
      // An end for an unknown id is dropped (inspect logs a warning).
      const node = nodes.get((e as SpanEndEvent).id);
      if (node !== undefined) node.end = e as SpanEndEvent;
    } else {
      const spanId = e.span_id;
      // Runs of events share a span: remember the last lookup.
      if (spanId !== lastId) {
        lastId = spanId;
        lastNode = spanId == null ? undefined : nodes.get(spanId);
      }
      (lastNode === undefined ? roots : lastNode.children).push(e);
    }
  }
  computeFlags(roots, nodes);
  return roots;
}

/**
 * Post-order pass computing `containsModel` / `containsAgent`, cutting back
 * edges (parent cycles). Nodes only reachable through a cycle become roots.
 */
function computeFlags(roots: TreeItem[], nodes: Map<string, TreeSpan>): void {
  const visit = (start: TreeSpan): void => {
    const stack: { node: TreeSpan; i: number }[] = [{ node: start, i: 0 }];
    start.state = 1;
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const { node } = top;
      if (top.i < node.children.length) {
        const child = node.children[top.i]!;
        if (!(child instanceof TreeSpan)) {
          if (child.event === 'model') node.containsModel = true;
          top.i++;
          continue;
        }
        const s = child.state;
        if (s === 1) {
          // Back edge: drop it (the child stays where it was first reached).
          node.children.splice(top.i, 1);
          continue;
        }
        if (s === 0) {
          child.state = 1;
          stack.push({ node: child, i: 0 });
          continue;
        }
        top.i++;
        continue;
      }
      node.state = 2;
      stack.pop();
      const parent = stack[stack.length - 1];
      if (parent !== undefined) {
        const p = parent.node;
        if (node.containsModel) p.containsModel = true;
        if (node.containsAgent || node.type === 'agent') p.containsAgent = true;
        parent.i++;
      }
    }
  };
  for (const item of roots) if (item instanceof TreeSpan && item.state === 0) visit(item);
  // Spans whose parent chain is a pure cycle were never reached from a root.
  for (const node of nodes.values()) {
    if (node.state === 0) {
      roots.push(node);
      visit(node);
    }
  }
}

/** The agent classification table (inspect_ai's `event/_timeline.py`). */
function isAgentSpan(span: TreeSpan): boolean {
  const type = span.type;
  if (type === 'agent') return true;
  // A solver is an agent only when it wraps one (e.g. `as_solver`); plain
  // solvers (generate, use_tools, system_message) are unrolled.
  if (type === 'solver') return span.containsAgent;
  // A tool that ran a model itself is a "tool-spawned agent" (bridge tools),
  // unless an explicit agent span inside represents the agent.
  if (type === 'tool') return span.containsModel && !span.containsAgent;
  return false;
}

function findBranchEvent(span: TreeSpan): BranchEvent | undefined {
  for (const child of span.children) {
    if (!(child instanceof TreeSpan) && child.event === 'branch') return child as BranchEvent;
  }
  return undefined;
}

const NO_ITEMS: readonly TreeItem[] = [];

/**
 * A span begun more than once is one node under each begin (inspect's
 * `event_tree` rule), so its contents show under every copy, and copies of copies grow
 * exponentially with nesting. As the event tree does (`span_copies_capped`,
 * tree/links.ts), once the timeline holds more than 4 × the events + 100k
 * items, a span already shown is shown again without its contents.
 */
class CopyBudget {
  readonly #shown = new Set<TreeSpan>();
  readonly #limit: number;
  #used = 0;

  constructor(events: number) {
    this.#limit = 4 * events + 100_000;
  }

  /** Counts one item placed. */
  use(): void {
    this.#used++;
  }

  /** The children to place under this copy of `span`. */
  children(span: TreeSpan): readonly TreeItem[] {
    if (this.#used > this.#limit && this.#shown.has(span)) return NO_ITEMS;
    this.#shown.add(span);
    return span.children;
  }
}

/** `event_sequence` (inspect_ai's `event/_tree.py`): begin, children depth-first, end if present. */
function eventSequence(items: readonly TreeItem[], budget: CopyBudget): Event[] {
  const out: Event[] = [];
  const stack: { items: readonly TreeItem[]; i: number; end: Event | null }[] = [
    { items, i: 0, end: null },
  ];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.i >= top.items.length) {
      stack.pop();
      if (top.end !== null) out.push(top.end);
      continue;
    }
    const item = top.items[top.i++]!;
    budget.use();
    if (item instanceof TreeSpan) {
      out.push(item.begin);
      stack.push({ items: budget.children(item), i: 0, end: item.end });
    } else out.push(item);
  }
  return out;
}

// ---------------------------------------------------------------------------
// (3) Agent building: one work stack of frames
// ---------------------------------------------------------------------------

interface Frame {
  readonly items: readonly TreeItem[];
  i: number;
  /** Where content goes. */
  readonly out: MItem[];
  /** The span owning `out` (for emptiness accounting), if any. */
  readonly owner: MSpan | null;
  /** Non-null: the branch-aware child processor; null: flat (unroll) mode. */
  readonly branches: MSpan[] | null;
  /** Pending run of adjacent `type == "branch"` spans (child processor only). */
  run: TreeSpan[];
  /** Unrolling a tool span: its direct agent children were invoked as tools. */
  readonly toolParent: boolean;
  /** The unrolled span's end marker, appended when its children are done. */
  readonly end: Event | null;
}

interface Meta {
  /** The list the span was appended to, and that list's owner. */
  readonly list: MItem[] | MSpan[];
  readonly owner: MSpan | null;
  /** Dropped when its content ends up empty. */
  readonly dropIfEmpty: boolean;
  /** Content items removed (empty agent children) — counted, filtered once at the end. */
  removed: number;
}

class AgentBuilder {
  private readonly stack: Frame[] = [];
  constructor(readonly budget: CopyBudget) {}
  /** Every span created, in creation order (children after their parents). */
  private readonly created: MSpan[] = [];
  private readonly meta = new Map<MSpan, Meta>();

  register(span: MSpan, list: MItem[] | MSpan[], owner: MSpan | null, dropIfEmpty: boolean): MSpan {
    this.created.push(span);
    this.meta.set(span, { list, owner, dropIfEmpty, removed: 0 });
    return span;
  }

  /** Child processor, with branches (inspect_ai's `event/_timeline.py`). */
  pushChildren(
    items: readonly TreeItem[],
    out: MItem[],
    owner: MSpan | null,
    branches: MSpan[],
  ): void {
    this.stack.push({ items, i: 0, out, owner, branches, run: [], toolParent: false, end: null });
  }

  /** Flat processing: non-agent spans unrolled, agent spans and events as nodes. */
  pushFlat(
    items: readonly TreeItem[],
    out: MItem[],
    owner: MSpan | null,
    toolParent = false,
    end: Event | null = null,
  ): void {
    this.stack.push({ items, i: 0, out, owner, branches: null, run: [], toolParent, end });
  }

  /** An agent TreeSpan → its TimelineSpan (filled when its frame runs). */
  agentNode(span: TreeSpan): MSpan {
    const node = makeSpan(span.id, span.name, 'agent');
    const type = span.type;
    if (type === 'agent' || type === 'solver') {
      const description = span.begin.metadata?.['description'];
      if (typeof description === 'string') node.description = description;
    }
    return node;
  }

  private emitItem(frame: Frame, item: TreeItem): void {
    this.budget.use();
    if (item instanceof TreeSpan) {
      if (!isAgentSpan(item)) {
        // Unroll: begin marker, children (recursively), end marker.
        frame.out.push(makeEvent(item.begin));
        const children = this.budget.children(item);
        this.pushFlat(children, frame.out, frame.owner, item.type === 'tool', item.end);
        return;
      }
      const node = this.agentNode(item);
      // An agent directly inside an unrolled tool span was invoked as a tool
      // (handoff, as_tool) and is never utility.
      if (frame.toolParent) node.toolInvoked = true;
      frame.out.push(node);
      // Empty agent spans are skipped — known only once built, so counted.
      this.register(node, frame.out, frame.owner, true);
      this.pushChildren(this.budget.children(item), node.content, node, node.branches);
      return;
    }
    frame.out.push(this.eventNode(item));
  }

  /**
   * An event → TimelineEvent, except a ToolEvent with `agent` set and legacy
   * nested `events`: a synthetic tool-invoked agent span.
   */
  eventNode(event: Event): MItem {
    if (!isTool(event) || !isToolAgent(event)) return makeEvent(event);
    const root = toolAgentSpan(event);
    // Nested tool agents, iteratively.
    const stack: { span: MSpan; events: readonly Event[]; i: number }[] = [
      { span: root, events: nestedEvents(event), i: 0 },
    ];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.i >= top.events.length) {
        stack.pop();
        continue;
      }
      const e = top.events[top.i++]!;
      if (isTool(e) && isToolAgent(e)) {
        const child = toolAgentSpan(e);
        top.span.content.push(child);
        stack.push({ span: child, events: nestedEvents(e), i: 0 });
      } else top.span.content.push(makeEvent(e));
    }
    return root;
  }

  /** Runs frames until the stack is empty. */
  drain(): void {
    const stack = this.stack;
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      if (frame.branches === null) {
        if (frame.i < frame.items.length) {
          this.emitItem(frame, frame.items[frame.i++]!);
          continue;
        }
        stack.pop();
        if (frame.end !== null) frame.out.push(makeEvent(frame.end));
        continue;
      }
      // Child processor: collect runs of adjacent branch spans; flush a run
      // before the next non-branch item (and at the end).
      if (frame.i < frame.items.length) {
        const item = frame.items[frame.i]!;
        if (item instanceof TreeSpan && item.type === 'branch') {
          frame.run.push(item);
          frame.i++;
          continue;
        }
        if (frame.run.length > 0) {
          this.flushRun(frame);
          continue; // the flushed frames run first; `item` waits
        }
        frame.i++;
        this.emitItem(frame, item);
        continue;
      }
      if (frame.run.length > 0) {
        this.flushRun(frame);
        continue;
      }
      stack.pop();
    }
  }

  private flushRun(frame: Frame): void {
    const run = frame.run;
    frame.run = [];
    const branches = frame.branches!;
    const pending: Frame[] = [];
    for (const span of run) {
      const branchEvent = findBranchEvent(span);
      if (branchEvent === undefined) {
        // No BranchEvent: dissolved into the parent's content, and — unlike
        // unrolling — without its own begin/end markers.
        pending.push({
          items: this.budget.children(span),
          i: 0,
          out: frame.out,
          owner: frame.owner,
          branches: null,
          run: [],
          toolParent: false,
          end: null,
        });
        continue;
      }
      const node = makeSpan(span.id, span.name === '' ? 'branch' : span.name, 'branch');
      node.branchedFrom = branchEvent.from_anchor;
      branches.push(node);
      // An empty branch is dropped.
      this.register(node, branches, null, true);
      pending.push({
        items: this.budget.children(span),
        i: 0,
        out: node.content,
        owner: node,
        branches: null,
        run: [],
        toolParent: false,
        end: null,
      });
    }
    // Reverse, so the first span of the run is processed first.
    for (let i = pending.length - 1; i >= 0; i--) this.stack.push(pending[i]!);
  }

  /**
   * Drops empty agent spans and empty branches. Reverse creation order sees
   * children before parents, so a span emptied by removals is itself removed.
   */
  compact(): void {
    const dirty = new Set<MItem[] | MSpan[]>();
    const removed = new Set<MSpan>();
    for (let i = this.created.length - 1; i >= 0; i--) {
      const span = this.created[i]!;
      const meta = this.meta.get(span)!;
      if (!meta.dropIfEmpty || span.content.length - meta.removed > 0) continue;
      removed.add(span);
      dirty.add(meta.list);
      // Removing a branch does not change its owner's content.
      if (meta.owner !== null && meta.list === meta.owner.content) {
        const ownerMeta = this.meta.get(meta.owner);
        if (ownerMeta !== undefined) ownerMeta.removed++;
      }
    }
    for (const list of dirty) {
      let w = 0;
      for (let r = 0; r < list.length; r++) {
        const item = list[r]!;
        if (item.type === 'span' && removed.has(item)) continue;
        list[w++] = item as MSpan;
      }
      list.length = w;
    }
    // Idempotent: a later call only sees spans created after this one.
    this.created.length = 0;
    this.meta.clear();
  }
}

function isToolAgent(event: ToolEvent): boolean {
  return (
    typeof event.agent === 'string' &&
    event.agent !== '' &&
    Array.isArray(event.events) &&
    event.events.length > 0
  );
}

function toolAgentSpan(event: ToolEvent): MSpan {
  const span = makeSpan(`tool-agent-${event.id}`, event.agent ?? '', 'agent');
  span.toolInvoked = true;
  span.agentResult = toolResultText(event);
  return span;
}

/** Legacy nested events are raw wire objects (types.ts); parse them tolerantly. */
function nestedEvents(event: ToolEvent): Event[] {
  return parseEvents(event.events, { uuidSeed: event.uuid }).events;
}

// ---------------------------------------------------------------------------
// (4) Post-processing passes (inspect_ai's `event/_timeline.py`), iterative
// ---------------------------------------------------------------------------

/** Pass 1: wrap warm-up and foreign-prompt model calls in utility spans. */
function wrapUtilityEvents(root: MSpan): void {
  const stack: MSpan[] = [root];
  while (stack.length > 0) {
    const span = stack.pop()!;
    const content = span.content;
    // Recurse into the *original* child spans and branches only: the new
    // wrappers must not be wrapped again.
    for (let i = content.length - 1; i >= 0; i--) {
      const item = content[i]!;
      if (item.type === 'span') stack.push(item);
    }
    for (let i = span.branches.length - 1; i >= 0; i--) stack.push(span.branches[i]!);

    // The primary prompt: that of the first direct model call with tool
    // calls. Without one there is no main trajectory, so only warm-ups are
    // wrapped (protects generate() workflows with mixed prompts; 0.3.250).
    let primary: string | null = null;
    let hasModel = false;
    for (const item of content) {
      if (item.type === 'event' && isModel(item.event)) {
        hasModel = true;
        if (hasToolCalls(item.event)) {
          primary = systemPromptOf(item.event);
          break;
        }
      }
    }
    if (!hasModel) continue;
    let next: MItem[] | null = null;
    for (let i = 0; i < content.length; i++) {
      const item = content[i]!;
      let wrap = false;
      if (item.type === 'event' && isModel(item.event)) {
        const e = item.event;
        if (isWarmupCall(e)) wrap = true;
        else if (primary !== null && !hasToolCalls(e)) {
          const prompt = systemPromptOf(e);
          wrap = prompt !== null && prompt !== primary;
        }
      }
      if (wrap) {
        if (next === null) next = content.slice(0, i);
        const e = item.type === 'event' ? item.event : undefined;
        const wrapper = makeSpan(
          e?.uuid ? `utility-${e.uuid}` : `utility-${span.id}-${i}`,
          'utility',
          'agent',
        );
        wrapper.utility = true;
        wrapper.content.push(item);
        next.push(wrapper);
      } else if (next !== null) next.push(item);
    }
    if (next !== null) span.content = next;
  }
}

interface DirectModels {
  /** The normalized prompt of the first direct model call (null when none or it has no prompt). */
  prompt: string | null;
  hasModel: boolean;
  /** Some direct model call has tool calls ("an agentic loop"). */
  loop: boolean;
  singleTurn: boolean;
}

function directModels(span: MSpan): DirectModels {
  let prompt: string | null = null;
  let models = 0;
  let loop = false;
  // Single-turn: exactly 1 model call, or exactly 2 with a tool call between.
  let toolBetween = false;
  for (const item of span.content) {
    if (item.type !== 'event') continue;
    const e = item.event;
    if (isModel(e)) {
      if (models === 0) prompt = systemPromptOf(e);
      models++;
      if (!loop && hasToolCalls(e)) loop = true;
    } else if (e.event === 'tool' && models === 1) toolBetween = true;
  }
  // `toolBetween` is set by a tool after the first model call; it only counts
  // when a second model call follows (models === 2 checks that).
  return {
    prompt,
    hasModel: models > 0,
    loop,
    singleTurn: models === 1 || (models === 2 && toolBetween),
  };
}

/** Pass 2: utility-agent classification (the exact rule, inspect_ai's `event/_timeline.py`). */
function classifyUtilityAgents(root: MSpan): void {
  const stack: { span: MSpan; prompt: string | null; loop: boolean; isRoot: boolean }[] = [
    { span: root, prompt: null, loop: false, isRoot: true },
  ];
  while (stack.length > 0) {
    const { span, prompt: parentPrompt, loop: parentLoop, isRoot } = stack.pop()!;
    const own = directModels(span);
    if (
      !isRoot &&
      parentPrompt !== null &&
      parentLoop &&
      own.prompt !== null &&
      !span.toolInvoked &&
      own.prompt !== parentPrompt &&
      own.singleTurn
    ) {
      span.utility = true;
    }
    const prompt = own.prompt ?? parentPrompt;
    // The loop flag is recomputed only where there are direct model calls.
    const loop = own.hasModel ? own.loop : parentLoop;
    // Content only: this pass does not descend into branches.
    for (let i = span.content.length - 1; i >= 0; i--) {
      const item = span.content[i]!;
      if (item.type === 'span') stack.push({ span: item, prompt, loop, isRoot: false });
    }
  }
}

/** Pass 3: agent_result, flows 1 and 2 (inspect_ai's `event/_timeline.py`). */
function extractAgentResults(root: MSpan): void {
  const stack: MSpan[] = [root];
  while (stack.length > 0) {
    const parent = stack.pop()!;
    const content = parent.content;
    let flow1: Map<string, ToolEvent> | null = null;
    let flow2: Flow2Index | null = null;
    for (let i = 0; i < content.length; i++) {
      const item = content[i]!;
      if (item.type !== 'span') continue;
      if (item.spanType === 'agent' && item.agentResult === null) {
        // Flow 1: the first sibling ToolEvent (anywhere in the list) whose
        // agent_span_id is this span; inspect stops at it even when its
        // result has no text.
        flow1 ??= indexAgentToolEvents(content);
        const tool = flow1.get(item.id);
        if (tool !== undefined) item.agentResult = toolResultText(tool);
        // Flow 2 (bridge): span id `agent-<tool_call_id>`; the answer is the
        // matching tool message in a *later* sibling model call's input.
        if (item.agentResult === null && item.id.startsWith('agent-')) {
          flow2 ??= new Flow2Index(content);
          item.agentResult = flow2.find(item.id.slice(6), i);
        }
      }
      stack.push(item);
    }
  }
}

function indexAgentToolEvents(content: readonly MItem[]): Map<string, ToolEvent> {
  const map = new Map<string, ToolEvent>();
  for (const item of content) {
    if (item.type === 'event' && isTool(item.event)) {
      const id = item.event.agent_span_id;
      if (typeof id === 'string' && !map.has(id)) map.set(id, item.event);
    }
  }
  return map;
}

/**
 * tool_call_id → [(position, text)] over the model calls of one content
 * list, built lazily and only as far as needed, so scanning later siblings
 * for every bridge agent stays linear in the total input size.
 */
class Flow2Index {
  private scanned = 0;
  private readonly hits = new Map<string, { pos: number; text: string }[]>();
  constructor(private readonly content: readonly MItem[]) {}

  find(toolCallId: string, after: number): string | null {
    const hit = this.firstAfter(toolCallId, after);
    if (hit !== null) return hit;
    while (this.scanned < this.content.length) {
      const pos = this.scanned++;
      const item = this.content[pos]!;
      if (item.type !== 'event' || !isModel(item.event)) continue;
      this.indexModel(item.event, pos);
      if (pos > after) {
        const found = this.firstAfter(toolCallId, after);
        if (found !== null) return found;
      }
    }
    return null;
  }

  private firstAfter(toolCallId: string, after: number): string | null {
    const list = this.hits.get(toolCallId);
    if (list === undefined) return null;
    // Binary search: positions are appended in increasing order.
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (list[mid]!.pos <= after) lo = mid + 1;
      else hi = mid;
    }
    return lo < list.length ? list[lo]!.text : null;
  }

  private indexModel(event: ModelEvent, pos: number): void {
    const input = Array.isArray(event.input) ? event.input : [];
    // Within one model call the *last* matching message with text wins
    // (inspect keeps assigning while it scans the input).
    const local = new Map<string, string>();
    for (const msg of input) {
      if (msg === null || typeof msg !== 'object' || msg.role !== 'tool') continue;
      const id = msg.tool_call_id;
      if (typeof id !== 'string') continue;
      const text = contentText(msg.content);
      if (text !== '') local.set(id, text);
    }
    for (const [id, text] of local) {
      let list = this.hits.get(id);
      if (list === undefined) this.hits.set(id, (list = []));
      list.push({ pos, text });
    }
  }
}

function classify(root: MSpan): void {
  wrapUtilityEvents(root);
  classifyUtilityAgents(root);
  extractAgentResults(root);
}

// ---------------------------------------------------------------------------
// Orphans (root-level items outside the phases)
// ---------------------------------------------------------------------------

/** Start time of an item without caching (spans are still being built). */
function itemStart(item: MItem): number {
  if (item.type === 'event') return eventTime(item.event);
  let min = Number.POSITIVE_INFINITY;
  const stack: MSpan[] = [item];
  while (stack.length > 0) {
    const span = stack.pop()!;
    for (const child of span.content) {
      if (child.type === 'span') stack.push(child);
      else {
        const t = eventTime(child.event);
        if (t < min) min = t;
      }
    }
    for (const b of span.branches) stack.push(b);
  }
  return min;
}

/**
 * Stable merge by start time: both lists keep their order; an orphan goes
 * before the first item that starts later than it (inspect's TS port keeps
 * orphans "merged into the root by start time",
 * https://github.com/meridianlabs-ai/ts-mono/issues/178).
 */
function mergeByStart(items: MItem[], orphans: MItem[]): MItem[] {
  if (orphans.length === 0) return items;
  const out: MItem[] = [];
  let i = 0;
  let j = 0;
  let iStart = items.length > 0 ? itemStart(items[0]!) : 0;
  let jStart = itemStart(orphans[0]!);
  while (i < items.length && j < orphans.length) {
    if (jStart < iStart) {
      out.push(orphans[j++]!);
      if (j < orphans.length) jStart = itemStart(orphans[j]!);
    } else {
      out.push(items[i++]!);
      if (i < items.length) iStart = itemStart(items[i]!);
    }
  }
  while (i < items.length) out.push(items[i++]!);
  while (j < orphans.length) out.push(orphans[j++]!);
  return out;
}

// ---------------------------------------------------------------------------
// (2) Phase extraction and the public entry point
// ---------------------------------------------------------------------------

/** Unwraps solver spans that merely wrap a single agent span. */
function unwrapSolver(span: TreeSpan): TreeSpan {
  let current = span;
  while (current.type === 'solver') {
    let only: TreeSpan | undefined;
    let count = 0;
    for (const child of current.children) {
      if (child instanceof TreeSpan && child.type === 'agent') {
        only = child;
        count++;
      }
    }
    if (count !== 1 || only === undefined) break;
    current = only;
  }
  return current;
}

function buildFromSolvers(builder: AgentBuilder, solvers: TreeSpan): MSpan | null {
  if (solvers.children.length === 0) return null;
  const agents: TreeSpan[] = [];
  const others: TreeItem[] = [];
  for (const child of solvers.children) {
    if (child instanceof TreeSpan && isAgentSpan(child)) agents.push(child);
    else others.push(child);
  }
  if (agents.length === 1) {
    const target = unwrapSolver(agents[0]!);
    const node = builder.register(builder.agentNode(target), [], null, false);
    builder.pushChildren(target.children, node.content, node, node.branches);
    // Quirk: the other items go first even when they happened later.
    // Pushed last, so they run first.
    builder.pushFlat(others, node.content, node);
    builder.drain();
    return node;
  }
  if (agents.length > 1) {
    const root = builder.register(makeSpan('root', 'main', 'agent'), [], null, false);
    const agentNodes: MSpan[] = [];
    for (const span of agents) {
      // Not skipped when empty here (inspect builds these directly).
      const node = builder.register(builder.agentNode(span), root.content, root, false);
      agentNodes.push(node);
      builder.pushChildren(span.children, node.content, node, node.branches);
      builder.drain();
    }
    builder.compact(); // before the blocks are copied into the root
    // Quirk: other items are inserted at position 0 one by one, which
    // reverses their order (each unrolled span's own markers stay in order).
    const blocks: MItem[][] = [];
    for (const item of others) {
      const block: MItem[] = [];
      builder.pushFlat([item], block, root);
      builder.drain();
      blocks.push(block);
    }
    for (let b = blocks.length - 1; b >= 0; b--)
      for (const item of blocks[b]!) root.content.push(item);
    for (const node of agentNodes) root.content.push(node);
    return root;
  }
  const node = builder.register(makeSpan(solvers.id, solvers.name, 'agent'), [], null, false);
  builder.pushChildren(solvers.children, node.content, node, node.branches);
  builder.drain();
  return node;
}

function flatPhase(
  span: TreeSpan | undefined,
  name: string,
  spanType: string,
  budget: CopyBudget,
): MSpan | null {
  if (span === undefined) return null;
  // Nested begin/end events are included, flat (Python's choice; the TS port
  // keeps leaf events only — inspect's viewer, ts-mono `timeline/core.ts`).
  const events = eventSequence(span.children, budget);
  if (events.length === 0) return null;
  const node = makeSpan(span.id, name, spanType);
  for (const e of events) node.content.push(makeEvent(e));
  return node;
}

/**
 * Builds the agent-centric {@link Timeline} of a flat event list with
 * inspect_ai's `timeline_build` rules: phase spans (`init` / `solvers` /
 * `scorers`), the agent classification table, unrolling of non-agent spans
 * with their begin/end markers, branches, utility-event wrapping,
 * utility-agent classification and agent results (inspect_ai's
 * `event/_timeline.py`). Linear in the number of events; never recursive over the input.
 *
 * Differences from Python, by choice: root-level items outside the phases
 * are kept by default (`keepOrphans`, as inspect's TS port does), and a span
 * parent cycle is cut instead of hanging.
 *
 * @example
 * declare const sample: { events: unknown[] };
 * const { events } = parseEvents(sample.events);
 * const timeline = buildTimeline(events);
 * timeline.root.name; // 'main'
 * spanTotalTokens(timeline.root); // tokens of the whole run
 */
export function buildTimeline(
  events: readonly Event[],
  options: BuildTimelineOptions = {},
): Timeline {
  const name = options.name || 'Default';
  const description = options.description ?? '';
  const keepOrphans = options.keepOrphans ?? true;
  if (events.length === 0) {
    return { name, description, root: makeSpan('root', 'main', null), init: null, scorers: null };
  }
  const tree = buildTree(events);
  let initTree: TreeSpan | undefined;
  let solversTree: TreeSpan | undefined;
  let scorersTree: TreeSpan | undefined;
  for (const item of tree) {
    if (!(item instanceof TreeSpan)) continue;
    // By name, not type; the last one wins when repeated.
    if (item.name === 'init') initTree = item;
    else if (item.name === 'solvers') solversTree = item;
    else if (item.name === 'scorers') scorersTree = item;
  }
  const builder = new AgentBuilder(new CopyBudget(events.length));

  if (initTree === undefined && solversTree === undefined && scorersTree === undefined) {
    const root = builder.register(makeSpan('main', 'main', 'agent'), [], null, false);
    builder.pushChildren(tree, root.content, root, root.branches);
    builder.drain();
    builder.compact();
    classify(root);
    return { name, description, root, init: null, scorers: null };
  }

  const init = flatPhase(initTree, 'init', 'init', builder.budget);
  const scoring = flatPhase(scorersTree, 'scoring', 'scorers', builder.budget);
  const agent = solversTree === undefined ? null : buildFromSolvers(builder, solversTree);

  // Everything else at the root (e.g. a `sample_limit` with span_id null).
  const orphanContent: MItem[] = [];
  const orphanBranches: MSpan[] = [];
  if (keepOrphans) {
    const orphans = tree.filter(
      (item) => item !== initTree && item !== solversTree && item !== scorersTree,
    );
    if (orphans.length > 0) {
      builder.pushChildren(orphans, orphanContent, null, orphanBranches);
      builder.drain();
    }
  }
  builder.compact();

  let root: MSpan;
  if (agent !== null) {
    agent.name = 'main';
    // Orphans join the agent's content before classification, so they are
    // classified like any other content.
    agent.content = mergeByStart(agent.content, orphanContent);
    for (const b of orphanBranches) agent.branches.push(b);
    classify(agent);
    if (init !== null) agent.content.unshift(init);
    if (scoring !== null) agent.content.push(scoring);
    root = agent;
  } else {
    root = makeSpan('root', 'main', null);
    if (init !== null) root.content.push(init);
    if (scoring !== null) root.content.push(scoring);
    root.content = mergeByStart(root.content, orphanContent);
    for (const b of orphanBranches) root.branches.push(b);
  }
  return { name, description, root, init, scorers: scoring };
}
