import type { LayoutProblem } from '../../index.js';

export type { LayoutProblem } from '../../index.js';

/**
 * The scroller's viewport height, and what is wrong with it. A scroller that
 * grows with its rows (a style overrode its height or overflow) would have
 * every row "in view": it is then taken as tall as the window.
 */
export function readViewport(el: HTMLElement): { height: number; problem: LayoutProblem | null } {
  const height = el.clientHeight;
  if (height === 0) {
    // Not rendered at all (display: none somewhere above) is not a problem.
    return {
      height,
      problem: el.getClientRects().length > 0 ? { code: 'layout_no_height' } : null,
    };
  }
  const win = el.ownerDocument.defaultView?.innerHeight ?? 0;
  if (win > 0 && height > 2 * win && el.scrollHeight <= height + 1)
    return { height: win, problem: { code: 'layout_unbounded', height } };
  return { height, problem: null };
}
