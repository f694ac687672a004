/**
 * One selection store shared by every view of a run: the
 * transcript, the span tree and the swimlane take the same store
 * (`selection={store}`) and stay in sync with no glue code. It holds ids only
 * (node keys: a span id, a step's begin uuid or an event uuid, see
 * `eventTreeNodeKey`), never rows or indexes, so each view maps them onto its
 * own rows.
 *
 * Expansion is stored as a default plus exceptions ({@link Expansion}), so
 * "expand all" and "collapse all" on a tree of 200k spans are O(1) and a
 * tree that grows live needs no new ids to stay expanded.
 */
import { Listeners } from '../stream/listeners.js';

/**
 * Which nodes are expanded: every node when `all` is `true` except those in
 * `except`, or only those in `except` when `all` is `false`. Nodes a view
 * folds by default (inspect's "N turns" and scoring rows) are expanded only
 * when listed in `except`, whatever `all` says.
 *
 * @example
 * const expansion: Expansion = { all: true, except: new Set(['span-3']) }; // all but span-3
 */
export interface Expansion {
  readonly all: boolean;
  readonly except: ReadonlySet<string>;
}

/**
 * A selection store's state. Ids are node keys; `null` means none.
 *
 * @example
 * const store = createSelectionStore({ selected: 'span-1' });
 * const { selected, focused } = store.getSnapshot(); // 'span-1', null
 */
export interface SelectionSnapshot {
  /** The selected node (what a view shows as current, and scrolls to). */
  readonly selected: string | null;
  /** The node with keyboard focus (the roving tabindex of a list). */
  readonly focused: string | null;
  /** The node under the pointer in any view (views highlight it). */
  readonly hovered: string | null;
  /**
   * The replay position (a `<Player>`'s, or one a swimlane sets): the
   * **recorded** time it has reached, absolute epoch ms (not ms since the
   * run's start, not wall-clock time); `null` when not replaying.
   */
  readonly playhead: number | null;
  readonly expanded: Expansion;
}

/**
 * Options of {@link createSelectionStore}: the initial state.
 *
 * @example
 * createSelectionStore({ selected: 'span-1', expanded: { all: false, except: new Set() } });
 */
export type SelectionStoreOptions = Partial<SelectionSnapshot>;

/**
 * A selection store: a small external store (`subscribe`/`getSnapshot`). Every setter
 * notifies synchronously, and only when the value changed.
 *
 * @example
 * declare function highlight(id: string | null): void;
 * const store = createSelectionStore(); // one store shared by the views of a run
 * store.subscribe(() => highlight(store.getSnapshot().selected));
 * store.select('span-3');
 */
export interface SelectionStore {
  readonly getSnapshot: () => SelectionSnapshot;
  readonly subscribe: (listener: () => void) => () => void;
  select(id: string | null): void;
  focus(id: string | null): void;
  hover(id: string | null): void;
  setPlayhead(time: number | null): void;
  setExpanded(expanded: Expansion): void;
  /**
   * Expands (`true`), collapses (`false`) or flips (no argument) node `id`;
   * `folded` as in {@link isExpanded}.
   */
  toggle(id: string, expanded?: boolean, folded?: boolean): void;
  /** Expands every node (folds stay folded). */
  expandAll(): void;
  /** Collapses every node. */
  collapseAll(): void;
}

const NONE: ReadonlySet<string> = Object.freeze(new Set<string>());
const ALL_EXPANDED: Expansion = Object.freeze({ all: true, except: NONE });

/**
 * Whether node `id` is expanded under `expansion`; `folded`: the node is one
 * a view folds by default (see {@link Expansion}).
 *
 * @example
 * import { isExpanded } from './selection-store.js';
 * isExpanded({ all: true, except: new Set(['a']) }, 'a'); // false
 */
export function isExpanded(expansion: Expansion, id: string, folded = false): boolean {
  const listed = expansion.except.has(id);
  return folded ? listed : expansion.all !== listed;
}

/**
 * `expansion` with node `id` expanded or collapsed (`folded` as in
 * {@link isExpanded}). Returns `expansion` itself when nothing changes.
 *
 * @example
 * import { withExpanded } from './selection-store.js';
 * const expansion: Expansion = { all: false, except: new Set() };
 * const next = withExpanded(expansion, 'span-3', true); // only span-3 expanded
 */
export function withExpanded(
  expansion: Expansion,
  id: string,
  expanded: boolean,
  folded = false,
): Expansion {
  if (isExpanded(expansion, id, folded) === expanded) return expansion;
  const except = new Set(expansion.except);
  if (except.has(id)) except.delete(id);
  else except.add(id);
  return { all: expansion.all, except };
}

/**
 * Creates a selection store. By default nothing is selected and every node
 * is expanded.
 *
 * @example
 * const store = createSelectionStore();
 * declare function render(selected: string | null): void;
 * const stop = store.subscribe(() => render(store.getSnapshot().selected));
 * store.select('span-agent-1');
 */
export function createSelectionStore(options: SelectionStoreOptions = {}): SelectionStore {
  let snapshot: SelectionSnapshot = Object.freeze({
    selected: options.selected ?? null,
    focused: options.focused ?? null,
    hovered: options.hovered ?? null,
    playhead: options.playhead ?? null,
    expanded: options.expanded ?? ALL_EXPANDED,
  });
  // Told at once: a view that selects reads the selection in the same turn.
  const listeners = new Listeners();
  const set = <K extends keyof SelectionSnapshot>(key: K, value: SelectionSnapshot[K]) => {
    if (Object.is(snapshot[key], value)) return;
    snapshot = Object.freeze({ ...snapshot, [key]: value });
    listeners.notify();
  };
  return {
    getSnapshot: () => snapshot,
    subscribe: (listener) => listeners.subscribe(listener),
    select: (id) => set('selected', id),
    focus: (id) => set('focused', id),
    hover: (id) => set('hovered', id),
    setPlayhead: (time) => set('playhead', time),
    setExpanded: (expanded) => set('expanded', expanded),
    toggle(id, expanded, folded = false) {
      const current = snapshot.expanded;
      const next = expanded ?? !isExpanded(current, id, folded);
      set('expanded', withExpanded(current, id, next, folded));
    },
    expandAll: () => set('expanded', ALL_EXPANDED),
    collapseAll: () => set('expanded', Object.freeze({ all: false, except: NONE })),
  };
}
