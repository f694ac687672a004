/**
 * Types of the display protocol (see `docs/viewer-api.md` for how a viewer
 * uses it): MIME bundles, the display symbol, event descriptions, and the
 * renderer registry that React fills in without core knowing about React.
 *
 * These names are the contract with `src/react/display/`; keep them stable.
 */
import type { Event, MimeBundle } from '../events/types.js';
import type { EventStatus, EventTokens } from '../events/outcome.js';

// `MimeBundle` is defined with the `display` event (events/types.ts) because a
// DisplayEvent carries bundles on the wire; the display layer uses the same type.
export type { MimeBundle } from '../events/types.js';

/**
 * The display symbol. An object with a method under this key describes how it
 * should be shown: the method returns a {@link MimeBundle} (or just its `data`).
 * `Symbol.for`, so two copies of skein in one page agree on it.
 *
 * @example
 * declare const b64: string; // a base64 PNG
 * const plot = { [DISPLAY]: () => ({ data: { 'image/png': b64, 'text/plain': '<plot>' } }) };
 * displayOf(plot).data['image/png'] === b64; // true
 */
export const DISPLAY: unique symbol = Symbol.for('skein.display') as never;

/**
 * A value that describes its own display (step 1 of the cascade).
 *
 * @example
 * class Table implements Displayable {
 *   [DISPLAY]() { return { data: { 'text/markdown': '| a |\n|---|\n| 1 |' } }; }
 * }
 */
export interface Displayable {
  [DISPLAY](options: DisplayOptions): MimeBundle | MimeBundle['data'];
}

/**
 * Whether data comes from a trusted source. Agent output is untrusted by
 * default: only renderers marked `safe` may draw it (JupyterLab's `ensure`).
 *
 * @example
 * declare const bundle: MimeBundle;
 * declare const registry: MimeRegistry;
 * selectMimeType(bundle, registry, { trust: 'trusted' });
 */
export type Trust = 'untrusted' | 'trusted';

/**
 * Which step of the representation cascade produced a bundle.
 * - `symbol`: the value's own {@link DISPLAY} method;
 * - `ipython`: `_repr_mimebundle_` / `_repr_*_` methods;
 * - `jupyter`: an already serialized nbformat output (`display_data`,
 *   `execute_result`, `stream`, `error`) or a bare `{data, metadata}` bundle;
 * - `shape`: a shape summary of a container or class instance;
 * - `primitive`: a string, number, boolean, null, undefined, bigint or symbol.
 *
 * @example
 * import { displayNotes } from './display-of.js';
 * displayNotes(displayOf([1, 2])).source; // 'shape'
 */
export type DisplaySource = 'symbol' | 'ipython' | 'jupyter' | 'shape' | 'primitive';

/**
 * skein's own notes on a bundle, kept under `metadata.skein` (a key that can
 * never clash with a MIME type, which Jupyter uses for per-type metadata).
 *
 * @example
 * const meta: DisplayMetadata = { source: 'shape', truncated: true };
 */
export interface DisplayMetadata {
  /** The cascade step that produced the bundle. */
  source?: DisplaySource;
  /**
   * Steps that failed before this one (a throwing `_repr_html_`, a display
   * method returning garbage), in order, as `"<name>: <message>"`.
   */
  errors?: string[];
  /** `true` when a summary or text was cut to respect the size limits. */
  truncated?: boolean;
  /** A heading for the body (`Input`, `Output`, `Error`, …), set by describers. */
  label?: string;
  /** A hint that the body starts collapsed (large state dumps, tool schemas). */
  collapsed?: boolean;
  [key: string]: unknown;
}

/**
 * Options of `displayOf` (all bounded by default: a summary never dumps data).
 *
 * @example
 * displayOf([{ id: 1, tags: ['a', 'b'] }], { maxDepth: 1, maxItems: 3 });
 */
export interface DisplayOptions {
  /** Nesting levels shown in a preview (default 2). */
  maxDepth?: number;
  /** Elements or keys shown per container, head and tail together (default 6). */
  maxItems?: number;
  /** Characters kept of a string inside a preview (default 80). */
  maxStringLength?: number;
  /** Characters of the whole `text/plain` summary (default 2000). */
  maxLength?: number;
  /** Elements sampled from a large array to infer its element shape (default 64). */
  sampleSize?: number;
  /**
   * Prefer `text/markdown` over richer types when asking IPython-style objects
   * (the agent's own context reads markdown best; default `true`). The bundle
   * keeps every type it got; this only orders the `_repr_*_` calls and adds a
   * markdown rendering of shape summaries.
   */
  preferMarkdown?: boolean;
}

// Status and tokens are facts of the event's outcome (events/outcome.ts); the
// display protocol shows them under the same names.
export type { EventStatus, EventTokens } from '../events/outcome.js';
/**
 * How an event is shown: what `describeEvent` returns. Everything a row, a
 * tooltip or a search needs, computed once per event version.
 *
 * @example
 * const d = describeEvent(toolEvent);
 * `${d.title} — ${d.subtitle}`; // 'bash — ls -la'
 */
export interface EventDisplay {
  /** The event's `event` string (`model`, `tool`, or an unknown kind as given). */
  kind: string;
  /** The event's `uuid`. */
  uuid: string;
  /** A short name: the model, the tool function, the span name, … */
  title: string;
  /** A one-line detail (a command, a score, the first line of a message); may be empty. */
  subtitle: string;
  status: EventStatus;
  /** Start in epoch ms (from `eventTime`); `NaN` when the event has no valid time. */
  startTime: number;
  /** End in epoch ms when the event has one (`completed`, or start + duration). */
  endTime?: number;
  tokens?: EventTokens;
  /** The event belongs to a rolled-back turn: shown marked, left out of totals. */
  aborted?: true;
  /** Bodies in display order; `metadata.skein.label` names each section. */
  bodies: MimeBundle[];
  /**
   * Every text a user may search for (title, arguments, messages, results,
   * errors), joined with newlines, at most `maxSearchText` characters.
   */
  searchText: string;
  /**
   * Characters dropped from `searchText` by the length bound; 0 when nothing
   * was cut. A lower bound when a huge nested value (a state dump) was not
   * walked to its end.
   */
  searchTextTruncated: number;
}

/**
 * Options of `describeEvent`.
 *
 * @example
 * const myDescribers = createDescriberRegistry();
 * describeEvent(event, { registry: myDescribers, maxSearchText: 4000 });
 */
export interface DescribeEventOptions {
  /** The describers to use (default: the built-in registry). */
  registry?: DescriberRegistry;
  /** Bound on `searchText` per event in characters (default 20 000). */
  maxSearchText?: number;
  /** Options for values shown through `displayOf`. */
  display?: DisplayOptions;
}

/**
 * What a describer gets besides the event: the resolved options and helpers
 * for the common parts, so a user describer can reuse the built-in pieces.
 *
 * @example
 * const mine: EventDescriber = (e, ctx) => ({ ...ctx.base(e), title: 'custom' });
 */
export interface DescribeContext {
  readonly maxSearchText: number;
  readonly display: DisplayOptions;
  /** The envelope-derived defaults (kind, uuid, times, status from `pending`, …). */
  base(event: Event): EventDisplay;
  /** The generic describer (every field shown), e.g. to fall back to. */
  generic(event: Event): EventDisplay;
}

/**
 * A function that describes one kind of event.
 *
 * @example
 * const registry = createDescriberRegistry();
 * registry.register('info', (e, ctx) => ({ ...ctx.generic(e), title: 'note' }));
 */
export type EventDescriber = (event: Event, context: DescribeContext) => EventDisplay;

/**
 * A registry of describers by event kind, with the generic one as fallback.
 *
 * @example
 * const registry = createDescriberRegistry();
 * registry.register('my_kind', (e, ctx) => ({ ...ctx.base(e), title: 'Mine' }));
 * registry.describe(event);
 */
export interface DescriberRegistry {
  /** Adds or replaces the describer of a kind; returns a function that restores the previous one. */
  register(kind: string, describer: EventDescriber): () => void;
  /** The describer used for a kind (the generic one for unknown kinds). */
  get(kind: string): EventDescriber;
  /** Whether a kind has its own describer. */
  has(kind: string): boolean;
  /** Kinds with their own describer. */
  kinds(): string[];
  /** Describes an event; never throws (a throwing describer falls back to the generic one). */
  describe(event: Event, options?: Omit<DescribeEventOptions, 'registry'>): EventDisplay;
}

/**
 * A renderer as the selection sees it: which MIME types it draws, its rank
 * (lower wins, as in JupyterLab) and whether it is safe for untrusted data.
 * `renderer` is an opaque payload for the UI layer (a React component).
 *
 * @example
 * const info: RendererInfo = { mimeTypes: ['text/markdown'], rank: 60, safe: true };
 */
export interface RendererInfo<R = unknown> {
  mimeTypes: readonly string[];
  rank: number;
  safe: boolean;
  /** A name for debugging and for `remove`. */
  name?: string;
  renderer?: R;
}

/**
 * A renderer after registration: its info plus an insertion id that breaks
 * rank ties (earlier wins, as JupyterLab's `id`).
 *
 * @example
 * const registry = createMimeRegistry();
 * registry.add({ mimeTypes: ['text/plain'], rank: 100, safe: true });
 * registry.getSnapshot()[0]?.id; // 0
 */
export interface RendererEntry<R = unknown> extends RendererInfo<R> {
  readonly id: number;
}

/**
 * A mutable renderer registry (an external store: `getSnapshot`/`subscribe`).
 * For each MIME type the latest added renderer wins, as in JupyterLab's
 * `addFactory`.
 *
 * @example
 * const registry = createMimeRegistry();
 * const remove = registry.add({ mimeTypes: ['text/plain'], rank: 120, safe: true });
 * selectMimeType({ data: { 'text/plain': 'hi' } }, registry); // 'text/plain'
 */
export interface MimeRegistry<R = unknown> {
  /** Registers a renderer; returns a function that removes it. */
  add(info: RendererInfo<R>): () => void;
  /** The renderer that draws a MIME type (the latest added), if any. */
  get(mimeType: string): RendererEntry<R> | undefined;
  /** MIME types in preference order (rank, then insertion). Same array until something changes. */
  mimeTypes(): readonly string[];
  /**
   * All live entries in insertion order. Same array until something changes.
   * Bound: safe to pass on its own (`useSyncExternalStore(r.subscribe, r.getSnapshot)`).
   */
  readonly getSnapshot: () => readonly RendererEntry<R>[];
  /** Calls `listener` after each change; returns the unsubscribe function. Bound. */
  readonly subscribe: (listener: () => void) => () => void;
}

/**
 * Options of `selectMimeType`.
 *
 * @example
 * declare const bundle: MimeBundle;
 * declare const registry: MimeRegistry;
 * selectMimeType(bundle, registry, { trust: 'trusted' });
 */
export interface SelectMimeTypeOptions {
  /** Default `'untrusted'`. */
  trust?: Trust;
  /**
   * JupyterLab's `safe` argument, overriding the one derived from `trust`
   * (`untrusted` → `'ensure'`, `trusted` → `'any'`). `'prefer'` tries safe
   * renderers first and falls back to unsafe ones.
   */
  safe?: 'ensure' | 'prefer' | 'any';
}
