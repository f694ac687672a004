import { useLayoutEffect, type RefObject } from 'react';

interface HighlightRegistry {
  set(name: string, highlight: unknown): void;
  delete(name: string): void;
}

/** The CSS Custom Highlight API where the browser has it (not in jsdom). */
function registry(): {
  highlights: HighlightRegistry;
  Highlight: new (...r: Range[]) => unknown;
} | null {
  const css = (globalThis as { CSS?: { highlights?: HighlightRegistry } }).CSS;
  const Highlight = (globalThis as { Highlight?: new (...r: Range[]) => unknown }).Highlight;
  if (css?.highlights === undefined || Highlight === undefined) return null;
  return { highlights: css.highlights, Highlight };
}

/** Ranges of every case-insensitive occurrence of `needle` in `root`'s text. */
function rangesOf(root: Node, needle: string, out: Range[]): void {
  const doc = root.ownerDocument;
  if (doc === null) return;
  const walker = doc.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const text = (node.nodeValue ?? '').toLowerCase();
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
      const range = doc.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + needle.length);
      out.push(range);
      if (out.length > 5000) return;
    }
  }
}

/**
 * Highlights `query` in the rows rendered inside `scroller` with the CSS
 * Custom Highlight API (`::highlight(skein-find)`): no DOM is added, so it
 * works over any renderer's output. The row of `currentId` gets
 * `skein-find-current`. Runs after every render (only the rendered rows are
 * walked, a few dozen at most).
 */
export function useFindHighlights(
  scroller: RefObject<HTMLElement | null>,
  query: string,
  currentId: string | undefined,
): void {
  useLayoutEffect(() => {
    const api = registry();
    const root = scroller.current;
    if (api === null || root === null) return;
    const needle = query.toLowerCase();
    if (needle === '') {
      api.highlights.delete('skein-find');
      api.highlights.delete('skein-find-current');
      return;
    }
    const all: Range[] = [];
    const current: Range[] = [];
    for (const row of root.querySelectorAll<HTMLElement>('[data-match]')) {
      rangesOf(row, needle, row.dataset['eventId'] === currentId ? current : all);
    }
    api.highlights.set('skein-find', new api.Highlight(...all));
    api.highlights.set('skein-find-current', new api.Highlight(...current));
  });
}
