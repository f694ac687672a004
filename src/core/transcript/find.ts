/**
 * Find in transcript: searches every event's `searchText` — not
 * only the rows on screen, which is all a browser's own find can see once
 * the list is virtualized (inspect_ai#3335). Describing an event is the
 * costly part (tens of µs), so a search runs in time slices that never block
 * a frame, publishes matches as it finds them, and remembers per event
 * whether it matched the query: a live tree that grows or reorders is
 * rescanned from that memory, and typing one more character only re-checks
 * the events that matched the shorter query.
 */
import { describeEvent } from '../display/describe-event.js';
import type { Event } from '../events/types.js';
import type { EventTree } from '../tree/event-tree.js';
import { Listeners } from '../stream/listeners.js';

/**
 * Options of {@link createTranscriptFind}. Platform pieces are injected
 * so tests drive the slices by hand.
 *
 * @example
 * createTranscriptFind({ sliceMs: 4, schedule: (task) => requestIdleCallback(task) });
 */
export interface TranscriptFindOptions {
  /** The text searched for an event (default `describeEvent(event).searchText`). */
  searchText?: (event: Event) => string;
  /** Runs the next slice later (default `setTimeout(task, 0)`). */
  schedule?: (task: () => void) => void;
  /** A clock in ms (default `Date.now`). */
  now?: () => number;
  /** Budget of one slice in ms (default 8). */
  sliceMs?: number;
}

/**
 * The state of a search: an immutable snapshot, replaced on every change.
 * `matches` is shared between snapshots of one scan and only ever appended
 * to; read its first `count` entries.
 *
 * @example
 * declare const find: TranscriptFind;
 * const { count, done, scanned, total } = find.getSnapshot();
 * const label = done ? `${count} matches` : `${count} matches (searching ${scanned}/${total})`;
 */
export interface TranscriptFindState {
  readonly query: string;
  /** The tree searched (`null` for the empty query). */
  readonly tree: EventTree | null;
  /** Tree node indices of matching events, in tree order (first `count` valid). */
  readonly matches: readonly number[];
  readonly count: number;
  /** Nodes examined so far. */
  readonly scanned: number;
  readonly total: number;
  readonly done: boolean;
}

/**
 * A find over a span tree: a small external store (`subscribe`/`getSnapshot`).
 *
 * @example
 * const find = createTranscriptFind();
 * declare function show(state: TranscriptFindState): void;
 * find.subscribe(() => show(find.getSnapshot()));
 * find.search('traceback', tree);
 */
export interface TranscriptFind {
  /**
   * Searches `tree` for `query` (case-insensitive substring), over the nodes
   * `include` accepts (all by default). Same arguments as the running search:
   * nothing happens. An empty query clears the matches.
   */
  search(query: string, tree: EventTree, include?: (index: number) => boolean): void;
  readonly getSnapshot: () => TranscriptFindState;
  readonly subscribe: (listener: () => void) => () => void;
  /** Stops any scan in progress. */
  dispose(): void;
}

const EMPTY_STATE: TranscriptFindState = Object.freeze({
  query: '',
  tree: null,
  matches: [],
  count: 0,
  scanned: 0,
  total: 0,
  done: true,
});

/**
 * Creates a find store. See {@link TranscriptFind}.
 *
 * @example
 * const find = createTranscriptFind();
 * find.search('bash', tree);
 * await new Promise<void>((done) => {
 *   const stop = find.subscribe(() => find.getSnapshot().done && (stop(), done()));
 * });
 * find.getSnapshot().count; // matches over all 1M events
 */
export function createTranscriptFind(options: TranscriptFindOptions = {}): TranscriptFind {
  const searchText = options.searchText ?? ((event: Event) => describeEvent(event).searchText);
  const schedule = options.schedule ?? ((task: () => void) => void setTimeout(task, 0));
  const now = options.now ?? Date.now;
  const sliceMs = options.sliceMs ?? 8;

  let state = EMPTY_STATE;
  // Told at once, slice by slice: each slice is already a task of its own.
  const listeners = new Listeners();
  // The running scan; a new search replaces it, and a stale slice sees that.
  let scan: Scan | null = null;
  // What each event did for the current query, and for the one before it
  // (to refine: an event that missed "trace" misses "traceback" too).
  let memo: Memo | null = null;
  let previous: Memo | null = null;
  let lastInclude: ((index: number) => boolean) | undefined;

  const emit = (next: TranscriptFindState) => {
    state = next;
    listeners.notify();
  };

  const run = (current: Scan) => {
    if (scan !== current) return;
    const { tree, include, needle, pattern, matches } = current;
    const m = memo!;
    const refine = previous !== null && needle.includes(previous.needle) ? previous : null;
    const deadline = now() + sliceMs;
    const events = tree.events;
    let i = current.next;
    const n = tree.length;
    while (i < n) {
      if (include === undefined || include(i)) {
        const event = events[i]!;
        let hit = m.results.get(event);
        if (hit === undefined) {
          if (refine !== null && refine.results.get(event) === false) hit = false;
          else hit = pattern.test(safeText(searchText, event));
          m.results.set(event, hit);
        }
        if (hit) matches.push(i);
      }
      i++;
      if ((i & 63) === 0 && now() >= deadline) break;
    }
    current.next = i;
    const done = i >= n;
    emit({
      query: current.query,
      tree,
      matches,
      count: matches.length,
      scanned: i,
      total: n,
      done,
    });
    if (!done) schedule(() => run(current));
    else scan = null;
  };

  return {
    search(query, tree, include) {
      if (state.query === query && state.tree === tree && lastInclude === include) return;
      lastInclude = include;
      // The memo is per exact query: "Foo" and "foo" find the same, but a
      // lower-cased key would merge queries that do not (`İ` and `i̇`).
      const needle = query;
      if (needle === '') {
        scan = null;
        memo = null;
        previous = null;
        // Nothing to find: one shared state, whatever the tree (a live
        // tree changes with every batch; listeners need not hear of it).
        if (state !== EMPTY_STATE) emit(EMPTY_STATE);
        return;
      }
      if (memo === null || memo.needle !== needle) {
        previous = memo;
        memo = { needle, results: new WeakMap() };
      }
      const current: Scan = {
        query,
        needle,
        pattern: findPattern(query),
        tree,
        include,
        next: 0,
        matches: [],
      };
      scan = current;
      emit({
        query,
        tree,
        matches: current.matches,
        count: 0,
        scanned: 0,
        total: tree.length,
        done: false,
      });
      run(current);
    },
    getSnapshot: () => state,
    subscribe: (listener) => listeners.subscribe(listener),
    dispose() {
      scan = null;
    },
  };
}

interface Scan {
  query: string;
  needle: string;
  pattern: RegExp;
  tree: EventTree;
  include: ((index: number) => boolean) | undefined;
  next: number;
  matches: number[];
}

interface Memo {
  needle: string;
  results: WeakMap<Event, boolean>;
}

/** `text` with the characters that mean something in a RegExp escaped. */
function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}

/**
 * The matcher of a find query: a case-insensitive (Unicode simple case
 * folding) literal. The find counts with it and the highlights place their
 * ranges with it, so both agree; unlike `toLowerCase()`, which can change a
 * string's length (`'İ'` becomes two UTF-16 units), its offsets are offsets
 * into the searched text itself.
 *
 * @example
 * import { findPattern } from './find.js';
 * findPattern('foo').test('FOO bar'); // true
 */
export function findPattern(query: string, global = false): RegExp {
  return new RegExp(escapeRegExp(query), global ? 'giu' : 'iu');
}

/**
 * Every match of `query` in `text`, as `[start, end]` UTF-16 offsets into
 * `text` itself (valid for a DOM `Range` over a text node holding `text`),
 * at most `limit`. Same matching as the find.
 *
 * @example
 * findMatchOffsets('İİİİ foo', 'FOO'); // [[5, 8]]
 */
export function findMatchOffsets(
  text: string,
  query: string,
  limit = Number.POSITIVE_INFINITY,
): [number, number][] {
  const out: [number, number][] = [];
  if (query === '' || limit <= 0) return out;
  const pattern = findPattern(query, true);
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    out.push([m.index, m.index + m[0].length]);
    if (out.length >= limit) break;
  }
  return out;
}

function safeText(searchText: (event: Event) => string, event: Event): string {
  try {
    const text = searchText(event);
    return typeof text === 'string' ? text : '';
  } catch {
    // A throwing user describer makes the event unsearchable, not the find.
    return '';
  }
}

/**
 * The match to move to from `current` (a tree node index, or `-1` for none)
 * in direction `step` (`1` next, `-1` previous), wrapping around. Returns the
 * position in `matches` (`-1` when there are none).
 *
 * @example
 * declare const find: TranscriptFind;
 * declare const currentNode: number; // the tree node shown as current, or -1
 * declare function scrollToNode(index: number): void;
 * const state = find.getSnapshot();
 * const k = stepMatch(state.matches, state.count, currentNode, 1);
 * if (k >= 0) scrollToNode(state.matches[k]!);
 */
export function stepMatch(
  matches: readonly number[],
  count: number,
  current: number,
  step: 1 | -1,
): number {
  if (count === 0) return -1;
  // First match after (or before) `current`, by binary search: matches are sorted.
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (matches[mid]! <= current) lo = mid + 1;
    else hi = mid;
  }
  // `lo` is the first match > current.
  if (step === 1) return lo < count ? lo : 0;
  let k = lo - 1;
  if (k >= 0 && matches[k] === current) k--;
  return k >= 0 ? k : count - 1;
}
