import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { SkeinError } from '../../core/errors.js';
import { useStoreSelector } from '../use-store-selector.js';
import { createMimeRegistry, displayOf, selectMimeType } from './core-bridge.js';
import { defaultDisplayBudget } from './budget.js';
import { defaultRenderers } from './default-renderers.js';
import { RendererErrorBoundary } from './error-boundary.js';
import { ValueTree } from './renderers/json-tree.js';
import type {
  DisplayBudget,
  DisplayRenderer,
  MimeBundle,
  RendererComponent,
  RendererRegistry,
  Trust,
} from './types.js';

/**
 * A renderer registry (the core's `MimeRegistry` holding React components),
 * filled with `renderers` — the built-in ones by default. Later entries win
 * for the MIME types they share, so `[...defaultRenderers, mine]` replaces.
 *
 * @example
 * declare const plotlyRenderer: DisplayRenderer;
 * declare const CsvTable: RendererComponent;
 * const registry = createRendererRegistry([...defaultRenderers, plotlyRenderer]);
 * registry.add({ name: 'csv', mimeTypes: ['text/csv'], rank: 85, safe: true, renderer: CsvTable });
 */
export function createRendererRegistry(
  renderers: readonly DisplayRenderer[] = defaultRenderers,
): RendererRegistry {
  const registry = createMimeRegistry<RendererComponent>();
  for (const renderer of renderers) registry.add(renderer);
  return registry;
}

interface DisplayContextValue {
  registry: RendererRegistry;
  budget: DisplayBudget;
  trust: Trust;
  onError: ((error: unknown, mimeType: string) => void) | undefined;
}

let defaultContext: DisplayContextValue | undefined;

/** Built lazily: module import must not create components' registry on the server. */
function getDefaultContext(): DisplayContextValue {
  defaultContext ??= {
    registry: createRendererRegistry(),
    budget: defaultDisplayBudget,
    trust: 'untrusted',
    onError: undefined,
  };
  return defaultContext;
}

const DisplayContext = createContext<DisplayContextValue | undefined>(undefined);

function useDisplayContext(): DisplayContextValue {
  return useContext(DisplayContext) ?? getDefaultContext();
}

/**
 * Props of {@link DisplayProvider}.
 *
 * @example
 * const props: DisplayProviderProps = { budget: { chars: 20_000 }, trust: 'untrusted' };
 */
export interface DisplayProviderProps {
  /**
   * Renderers added on top of the inherited ones (the defaults at the top);
   * an entry for a MIME type that already has one replaces it. Read once on
   * mount — to change renderers later, pass a `registry` and `add` to it.
   */
  renderers?: readonly DisplayRenderer[];
  /** A registry to use as is (ignores `renderers`). */
  registry?: RendererRegistry;
  /** Budget overrides, merged over the inherited budget. */
  budget?: Partial<DisplayBudget>;
  /**
   * Default trust for `<Display>`s inside (default: inherited, `'untrusted'`
   * at the top). Only set `'trusted'` for output you produced yourself.
   */
  trust?: Trust;
  /** Called when a renderer throws (the output then shows its raw text). */
  onError?: (error: unknown, mimeType: string) => void;
  children?: ReactNode;
}

/**
 * Configures every `<Display>` inside: renderers, budgets, default trust.
 *
 * @example
 * declare const CsvTable: RendererComponent;
 * <DisplayProvider renderers={[{ name: 'csv', mimeTypes: ['text/csv'], rank: 85, safe: true, renderer: CsvTable }]}
 *                  budget={{ chars: 20_000 }}>
 *   <Transcript stream={stream} />
 * </DisplayProvider>
 */
export function DisplayProvider({
  renderers,
  registry,
  budget,
  trust,
  onError,
  children,
}: DisplayProviderProps) {
  const parent = useDisplayContext();
  // Created once: a registry is a store, and a new one per render would
  // re-render every Display.
  const [ownRegistry] = useState(() => {
    if (registry || !renderers?.length) return undefined;
    return createRendererRegistry([...parent.registry.getSnapshot().map(toRenderer), ...renderers]);
  });
  const chars = budget?.chars;
  const depth = budget?.depth;
  const bytes = budget?.bytes;
  const items = budget?.items;
  const value = useMemo<DisplayContextValue>(
    () => ({
      registry: registry ?? ownRegistry ?? parent.registry,
      budget: {
        chars: chars ?? parent.budget.chars,
        depth: depth ?? parent.budget.depth,
        bytes: bytes ?? parent.budget.bytes,
        items: items ?? parent.budget.items,
      },
      trust: trust ?? parent.trust,
      onError: onError ?? parent.onError,
    }),
    [registry, ownRegistry, parent, chars, depth, bytes, items, trust, onError],
  );
  return <DisplayContext.Provider value={value}>{children}</DisplayContext.Provider>;
}

function toRenderer(entry: ReturnType<RendererRegistry['getSnapshot']>[number]): DisplayRenderer {
  return {
    name: entry.name ?? entry.mimeTypes.join(','),
    mimeTypes: entry.mimeTypes,
    rank: entry.rank,
    safe: entry.safe,
    renderer: entry.renderer ?? MissingRenderer,
  };
}

function MissingRenderer({ mimeType }: { mimeType: string }): never {
  throw new SkeinError('display_no_renderer', mimeType);
}

/**
 * Props of {@link Display}: a value (shown through `displayOf`) or a ready bundle.
 *
 * @example
 * const props: DisplayProps = { bundle: { data: { 'text/plain': 'hi' } }, trust: 'untrusted' };
 */
export type DisplayProps = (
  | {
      /**
       * Any value. Arrays and objects show their shape summary, which opens
       * into the JSON tree; strings show as text; values that describe
       * themselves (the display symbol, IPython's `_repr_*_`, Jupyter outputs)
       * show their own bundle.
       */
      value: unknown;
      /**
       * The MIME type of `value`, to show it as that type instead:
       * `<Display value={report} mime="text/markdown" />`. A string value
       * keeps `text/plain` as the fallback.
       */
      mime?: string;
      bundle?: never;
    }
  | {
      /** A MIME bundle, e.g. from a `display` event. */ bundle: MimeBundle;
      value?: never;
      mime?: never;
    }
) & {
  /** Default: the provider's trust, `'untrusted'` at the top. */
  trust?: Trust;
  className?: string;
  /**
   * An identity shared by the versions of one output (the body of a message
   * streamed token by token): a new bundle with the same `outputId` updates
   * its renderer in place — it keeps what it drew and its "show all" — where
   * any other new bundle mounts the renderer afresh.
   */
  outputId?: string;
  /** The output is still being written (see `RendererProps.streaming`). */
  streaming?: boolean;
};

const allEntries = <T,>(entries: T): T => entries;

/**
 * Shows a value or a MIME bundle with the best renderer allowed for its trust
 * level (rank order; only renderers marked `safe` for untrusted data). Each
 * renderer runs inside an error boundary and within the provider's budget.
 *
 * A `value` goes through the core's `displayOf`: an array or object shows its
 * shape summary (`Array(10000) of {id: number, name: string}` and a bounded
 * preview), a button that opens the lazy JSON tree of the value, as JupyterLab
 * shows `application/json`; a string is text (markdown only when `mime` says
 * so); a value with its own display methods shows its own bundle.
 *
 * @example
 * declare const myOwnHtml: MimeBundle;
 * <>
 *   <Display bundle={{ data: { 'text/markdown': '# Report', 'text/plain': 'Report' } }} />
 *   <Display value={{ rows: 10_000 }} />
 *   <Display value="**shown as markdown**" mime="text/markdown" />
 *   <Display bundle={myOwnHtml} trust="trusted" />
 * </>
 */
export function Display(props: DisplayProps) {
  const { registry, budget, trust: defaultTrust, onError } = useDisplayContext();
  const trust = props.trust ?? defaultTrust;
  // Subscribe: adding a renderer later re-selects.
  useStoreSelector(registry, allEntries);
  const hasBundle = props.bundle !== undefined;
  const { value, bundle: given, mime } = props;
  const bundle = useMemo(
    () => normalizeBundle(hasBundle ? given : bundleOfValue(value, mime)),
    [hasBundle, given, value, mime],
  );
  const className = props.className ? `skein-display ${props.className}` : 'skein-display';
  if (!hasBundle && mime === undefined && isTreeValue(value) && isShapeSummary(bundle)) {
    const text = bundle.data['text/plain'];
    const [headline = '', ...preview] = (typeof text === 'string' ? text : '').split('\n');
    return (
      <div className={className} data-value-tree="" data-trust={trust}>
        {/* A hostile Proxy can throw from a key read: the summary text stands in. */}
        <RendererErrorBoundary
          mimeType="application/json"
          raw={text}
          limit={budget.chars}
          onError={onError}
        >
          <ValueTree
            value={value}
            summary={headline}
            preview={preview.join('\n')}
            pageSize={budget.items}
          />
        </RendererErrorBoundary>
      </div>
    );
  }
  const mimeType = selectMimeType(bundle, registry, { trust });
  if (mimeType === undefined) {
    const types = Object.keys(bundle.data);
    return (
      <div className={className} data-trust={trust}>
        <p className="skein-display__empty">
          {types.length ? `No ${trust} renderer for ${types.join(', ')}.` : 'Empty output.'}
        </p>
      </div>
    );
  }
  const Renderer = registry.get(mimeType)?.renderer ?? MissingRenderer;
  const data = bundle.data[mimeType];
  const meta = bundle.metadata?.[mimeType];
  const metadata =
    typeof meta === 'object' && meta !== null && !Array.isArray(meta)
      ? (meta as Record<string, unknown>)
      : undefined;
  return (
    <div className={className} data-mime={mimeType} data-trust={trust}>
      <RendererErrorBoundary
        // A new bundle (or type) remounts: budgets reset, a failed renderer
        // retries. A new version of the same output (`outputId`) does not.
        key={`${mimeType}\u0000${props.outputId ?? bundleKey(bundle)}`}
        mimeType={mimeType}
        raw={data}
        limit={budget.chars}
        onError={onError}
      >
        <Renderer
          data={data}
          mimeType={mimeType}
          metadata={metadata}
          bundle={bundle}
          trust={trust}
          budget={budget}
          streaming={props.streaming === true}
        />
      </RendererErrorBoundary>
    </div>
  );
}

function bundleOfValue(value: unknown, mime: string | undefined): MimeBundle {
  if (mime === undefined) return displayOfSafely(value);
  // A string keeps text/plain: the fallback when no renderer for `mime` is
  // allowed at this trust level.
  const data: Record<string, unknown> = { [mime]: value };
  if (typeof value === 'string' && mime !== 'text/plain') data['text/plain'] = value;
  return { data };
}

/** Whether the bundle is the cascade's shape summary (step 3), not the value's own. */
function isShapeSummary(bundle: MimeBundle): boolean {
  const meta = bundle.metadata?.['skein'];
  return (
    typeof meta === 'object' && meta !== null && (meta as { source?: unknown }).source === 'shape'
  );
}

/**
 * Values whose own keys are their content, so a JSON tree shows them well:
 * arrays and objects, not collections, dates, buffers or promises (their
 * shape summary already says what they hold).
 */
function isTreeValue(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  return !(
    value instanceof Map ||
    value instanceof Set ||
    value instanceof WeakMap ||
    value instanceof WeakSet ||
    value instanceof Date ||
    value instanceof RegExp ||
    value instanceof Promise ||
    value instanceof Error ||
    value instanceof ArrayBuffer ||
    ArrayBuffer.isView(value)
  );
}

function displayOfSafely(value: unknown): MimeBundle {
  try {
    return displayOf(value);
  } catch (error) {
    // displayOf is defensive, but a hostile getter may still throw.
    return { data: { 'text/plain': `Could not describe value: ${String(error)}` } };
  }
}

/** Wire data lies: a bundle without an object `data` shows as empty, not as a crash. */
function normalizeBundle(bundle: MimeBundle | undefined): MimeBundle {
  if (!bundle || typeof bundle !== 'object') return { data: {} };
  const data = bundle.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { data: {}, metadata: bundle.metadata ?? null };
  }
  return bundle;
}

const keys = new WeakMap<object, number>();
let nextKey = 0;

function bundleKey(bundle: MimeBundle): number {
  let key = keys.get(bundle);
  if (key === undefined) {
    key = nextKey++;
    keys.set(bundle, key);
  }
  return key;
}
