/**
 * Choosing a renderer is a pure function, so core decides and React only draws. Renderers declare
 * MIME types, a rank (lower wins) and whether they are safe for untrusted
 * data; {@link selectMimeType} picks one type of a bundle with JupyterLab's
 * `RenderMimeRegistry.preferredMimeType` semantics (`@jupyterlab/rendermime`'s default ranks and
 * its safe/unsafe renderers for untrusted output). The registry is a small external store, so React can subscribe to it
 * while core never imports React.
 */
import type { MimeBundle } from '../events/types.js';
import type { MimeRegistry, RendererEntry, RendererInfo, SelectMimeTypeOptions } from './types.js';
import { Listeners } from '../stream/listeners.js';

/**
 * Creates an empty renderer registry. For each MIME type the latest added
 * renderer wins (JupyterLab `addFactory`); removing it brings the previous one
 * back. MIME types are ordered by the winning renderer's rank, ties by the
 * order of registration.
 *
 * @example
 * const registry = createMimeRegistry();
 * registry.add({ mimeTypes: ['text/markdown'], rank: 60, safe: true });
 * registry.add({ mimeTypes: ['text/plain'], rank: 120, safe: true });
 * registry.mimeTypes(); // ['text/markdown', 'text/plain']
 */
export function createMimeRegistry<R = unknown>(): MimeRegistry<R> {
  let entries: readonly RendererEntry<R>[] = [];
  let nextId = 0;
  let byMime: Map<string, RendererEntry<R>> | undefined;
  let order: readonly string[] | undefined;
  // Told at once: a renderer added is used by the next render.
  const listeners = new Listeners();

  const index = () => {
    if (!byMime) {
      byMime = new Map();
      for (const entry of entries) for (const mime of entry.mimeTypes) byMime.set(mime, entry);
    }
    return byMime;
  };

  const changed = () => {
    byMime = undefined;
    order = undefined;
    listeners.notify();
  };

  return {
    add(info) {
      const entry: RendererEntry<R> = Object.freeze({
        ...info,
        mimeTypes: Object.freeze([...info.mimeTypes]),
        id: nextId++,
      });
      entries = Object.freeze([...entries, entry]);
      changed();
      return () => {
        if (!entries.includes(entry)) return;
        entries = Object.freeze(entries.filter((e) => e !== entry));
        changed();
      };
    },
    get: (mimeType) => index().get(mimeType),
    mimeTypes() {
      if (!order) {
        const winners = index();
        order = Object.freeze(
          [...winners.keys()].sort((a, b) => {
            const ea = winners.get(a)!;
            const eb = winners.get(b)!;
            return ea.rank - eb.rank || ea.id - eb.id;
          }),
        );
      }
      return order;
    },
    getSnapshot: () => entries,
    subscribe: (listener) => listeners.subscribe(listener),
  };
}

/**
 * A registry, or a plain list of renderer infos (later entries win per MIME type).
 *
 * @example
 * const infos: MimeRegistryLike = [{ mimeTypes: ['text/plain'], rank: 120, safe: true }];
 */
export type MimeRegistryLike = MimeRegistry<unknown> | readonly RendererInfo<unknown>[];

function rankedCandidates(registry: MimeRegistryLike): { mime: string; safe: boolean }[] {
  if (!Array.isArray(registry)) {
    const reg = registry as MimeRegistry<unknown>;
    return reg.mimeTypes().map((mime) => ({ mime, safe: reg.get(mime)?.safe === true }));
  }
  const winners = new Map<string, { rank: number; id: number; safe: boolean }>();
  (registry as readonly RendererInfo<unknown>[]).forEach((info, id) => {
    for (const mime of info.mimeTypes) winners.set(mime, { rank: info.rank, id, safe: info.safe });
  });
  return [...winners.entries()]
    .sort(([, a], [, b]) => a.rank - b.rank || a.id - b.id)
    .map(([mime, w]) => ({ mime, safe: w.safe }));
}

/**
 * The MIME type of `bundle` to render, or `undefined` when no registered
 * renderer may draw any of its types. Pure: the same bundle, registry state
 * and trust always give the same answer.
 *
 * - `trust: 'untrusted'` (the default) considers only renderers marked
 *   `safe` (JupyterLab's `'ensure'`): an untrusted `{image/svg+xml,
 *   text/plain}` shows the text when the SVG renderer is unsafe.
 * - `trust: 'trusted'` takes the best rank (`'any'`).
 * - `safe: 'prefer'` tries safe renderers first, then unsafe ones.
 *
 * A type whose value is `undefined` or `null` does not count as present.
 *
 * @example
 * const registry = createMimeRegistry();
 * registry.add({ mimeTypes: ['text/html'], rank: 50, safe: false });
 * registry.add({ mimeTypes: ['text/plain'], rank: 120, safe: true });
 * const bundle = { data: { 'text/html': '<b>hi</b>', 'text/plain': 'hi' } };
 * selectMimeType(bundle, registry); // 'text/plain'
 * selectMimeType(bundle, registry, { trust: 'trusted' }); // 'text/html'
 */
export function selectMimeType(
  bundle: MimeBundle,
  registry: MimeRegistryLike,
  options: SelectMimeTypeOptions = {},
): string | undefined {
  const safe = options.safe ?? (options.trust === 'trusted' ? 'any' : 'ensure');
  const data = bundle.data;
  const has = (mime: string) =>
    Object.prototype.hasOwnProperty.call(data, mime) &&
    data[mime] !== undefined &&
    data[mime] !== null;
  const candidates = rankedCandidates(registry);
  if (safe === 'ensure' || safe === 'prefer') {
    for (const c of candidates) if (c.safe && has(c.mime)) return c.mime;
  }
  if (safe !== 'ensure') {
    for (const c of candidates) if (has(c.mime)) return c.mime;
  }
  return undefined;
}
