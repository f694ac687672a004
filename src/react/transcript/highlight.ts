import type { RefObject } from 'react';
import { useIsomorphicLayoutEffect } from '../list/use-isomorphic-layout-effect.js';
import { findMatchOffsets } from '../../index.js';

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

/** At most this many highlighted ranges in all. */
const MAX_RANGES = 5000;

/**
 * Ranges of every match of `query` in `root`'s text nodes, as the find
 * counts them (`findMatchOffsets`: offsets into each node's own text).
 */
function rangesOf(root: Node, query: string, out: Range[]): void {
  const doc = root.ownerDocument;
  if (doc === null) return;
  const walker = doc.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const text = node.nodeValue ?? '';
    for (const [start, end] of findMatchOffsets(text, query, MAX_RANGES - out.length)) {
      const range = doc.createRange();
      range.setStart(node, start);
      range.setEnd(node, end);
      out.push(range);
    }
    if (out.length >= MAX_RANGES) return;
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
  useIsomorphicLayoutEffect(() => {
    const api = registry();
    const root = scroller.current;
    if (api === null || root === null) return;
    if (query === '') {
      api.highlights.delete('skein-find');
      api.highlights.delete('skein-find-current');
      return;
    }
    const all: Range[] = [];
    const current: Range[] = [];
    for (const row of root.querySelectorAll<HTMLElement>('[data-match]')) {
      const out = row.dataset['eventId'] === currentId ? current : all;
      const before = out.length;
      try {
        rangesOf(row, query, out);
      } catch {
        // A highlight is a nicety: a row it cannot place goes unhighlighted
        // rather than taking the transcript down (this is a layout effect).
        out.length = before;
      }
      if (all.length + current.length >= MAX_RANGES) break;
    }
    try {
      api.highlights.set('skein-find', new api.Highlight(...all));
      api.highlights.set('skein-find-current', new api.Highlight(...current));
    } catch {
      // As above: never fatal.
    }
  });
}
