import type { CSSProperties } from 'react';
import type { DescriberRegistry, Event, SelectionStore, Trust } from '../../index.js';
import type { TranscriptConnection } from './connection-status.js';
import type { TranscriptWarning } from './layout.js';
import type { ScrollToEventOptions } from './navigation.js';
import type { RenderRowBody } from './row.js';
import type { ViewSourceProps } from '../view-source.js';

/**
 * Where the transcript's events come from: the props every view takes
 * ({@link ViewSourceProps}).
 *
 * @example
 * const source: TranscriptSourceProps = { stream: new EventStream() };
 */
export type TranscriptSourceProps = ViewSourceProps;

/** Props of {@link Transcript}. */
export type TranscriptProps = TranscriptSourceProps & {
  /** Collapsed sections (span ids), controlled. */
  collapsed?: ReadonlySet<string>;
  /** Collapsed sections at mount, uncontrolled. */
  defaultCollapsed?: Iterable<string>;
  onCollapsedChange?: (collapsed: ReadonlySet<string>) => void;
  /**
   * The selected event's uuid, controlled (`null`: none). Scrolled into view
   * at mount and whenever it changes to an event the transcript did not
   * select itself.
   */
  selectedId?: string | null;
  /** The selected event at mount, uncontrolled (scrolled into view at mount). */
  defaultSelectedId?: string | null;
  onSelect?: (uuid: string | null) => void;
  /**
   * A selection store shared with other views (`createSelectionStore`, the
   * same prop as `<SpanTree selection>`): the transcript shows the store's
   * selected node (a span's key selects its header row) and scrolls to it
   * when another view selects it, writes its own selection there as a node
   * key (`eventTreeNodeKey`), and marks the row another view hovers
   * (`data-hovered`). `selectedId` given overrides the store's selection.
   * Expansion stays each view's own (a tree row folds, the transcript keeps
   * its section open).
   */
  selection?: SelectionStore;
  /**
   * Rows can be selected together (default `false`): click selects one,
   * `Ctrl`/`Cmd`+click adds or removes one, `Shift`+click and `Shift`+arrows
   * (`Shift`+`Home`/`End`) select a range, `Ctrl`/`Cmd`-`A` every row, `Esc`
   * clears; a toolbar copies the selection as Markdown or JSON, downloads it
   * as skein JSON Lines (read back by every skein command), or prints it.
   */
  selectable?: boolean;
  /** The rows selected together (row uuids, as `data-event-id`), controlled. */
  selectedIds?: ReadonlySet<string>;
  /** The rows selected together at mount, uncontrolled. */
  defaultSelectedIds?: Iterable<string>;
  /** Called with the rows selected together; the handle's `selectedEvents()` gives their events. */
  onSelectionChange?: (uuids: ReadonlySet<string>) => void;
  /**
   * The most events a print draws (default `PRINT_MAX_EVENTS`, 1,000): the
   * print view draws them all at once, outside the virtualized list, and
   * says what it left out.
   */
  printLimit?: number;
  /** The downloaded file's name, without `.jsonl` (default `'skein-selection'`). */
  exportName?: string;
  /** Event kinds hidden, controlled. */
  filter?: readonly string[];
  /** Event kinds hidden at mount (default: `sample_init`, `sandbox`, `state`, `store`). */
  defaultFilter?: readonly string[];
  onFilterChange?: (hiddenKinds: readonly string[]) => void;
  /**
   * Where the view opens: `'auto'` (default) opens a complete source at its
   * first event and an open one at its end, following it while the user
   * stays at the bottom; `'start'` and `'end'` choose.
   */
  openAt?: 'auto' | 'start' | 'end';
  /**
   * Stick to the bottom while the user is there (default `true`). With
   * `false` new events never move the view; the "N new events" control still shows.
   */
  follow?: boolean;
  /** Called when the view starts or stops following the end. */
  onFollowChange?: (following: boolean) => void;
  /**
   * Deep links through the page URL (default `false`): `#event=<uuid>` is
   * scrolled to at mount and on `hashchange`, and selecting an event writes
   * it there (replacing the history entry).
   */
  syncHash?: boolean;
  /** A find query to run, controlled (opens the find bar when not empty). */
  findQuery?: string;
  onFindQueryChange?: (query: string) => void;
  /** Trust of the events' bodies (default `'untrusted'`). */
  trust?: Trust;
  /**
   * How events read (title, status, bodies): a registry from
   * `createDescriberRegistry()` with your kinds registered (default: the
   * built-in describers). Keep it stable (create it once).
   */
  describers?: DescriberRegistry;
  /**
   * Draws an event row's body in place of the default (return `undefined`
   * to keep the default for that event). Keep it stable (`useCallback`):
   * rows are memoized on it.
   */
  renderRowBody?: RenderRowBody;
  /**
   * Called when the layout cannot be honoured (the parent is 0 px tall, a
   * style makes the scroller grow with its rows). Without it, development
   * builds show the warning in the toolbar; production builds show nothing.
   */
  onWarning?: (warning: TranscriptWarning) => void;
  /**
   * The live connection `stream` comes from (what `connectEventStream` or
   * `useEventStream` returns): its status — connecting, live, reconnecting,
   * closed — and last error show in the toolbar, in a `role="status"` region.
   * Pass its `stream` as `stream` too.
   */
  connection?: TranscriptConnection;
  /** Estimated row height before measuring, px (default 72). */
  estimateRowHeight?: number;
  /** Accessible name of the feed (default `'Transcript'`). */
  'aria-label'?: string;
  className?: string;
  style?: CSSProperties;
};

/**
 * The imperative handle of a {@link Transcript} (`ref`).
 *
 * @example
 * import { useRef } from 'react';
 * const ref = useRef<TranscriptHandle>(null);
 * const landed = await ref.current?.scrollToEvent(event.uuid);
 */
export interface TranscriptHandle {
  /**
   * Scrolls to the event and keeps its row in place while rows around it
   * are measured (until the user scrolls); selects it and focuses its row
   * unless told not to. Works for any event of the source: a `span_end`
   * lands on its section's header; an event in a collapsed section opens
   * the section; an event of a hidden kind shows that kind. Callable right
   * after mount: it waits for the layout and for the event to be loaded.
   * Resolves `true` once the row is drawn, `false` when the source has no
   * such event (or a newer navigation replaced this one).
   */
  scrollToEvent(uuid: string, options?: ScrollToEventOptions): Promise<boolean>;
  /** Opens the find bar, optionally with a query. */
  openFind(query?: string): void;
  /**
   * The events of the rows selected together (`selectable`), in the run's
   * order: a section header brings its `span_end`, a collapsed one everything
   * inside (see `selectedTranscriptEvents`).
   */
  selectedEvents(): Event[];
  /**
   * Prints the rows selected together, or every row when none is (at most
   * `PRINT_MAX_EVENTS`), drawn in full outside the virtualized list
   * (`selectable` transcripts only draw the print view).
   */
  print(): Promise<void>;
}
