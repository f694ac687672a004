import { useEffect, useLayoutEffect } from 'react';

/**
 * `useLayoutEffect` in a browser, `useEffect` on the server (where neither
 * runs, but `useLayoutEffect` warns on React 18): what a component that
 * measures the DOM and renders on the server needs.
 *
 * @example
 * import { useIsomorphicLayoutEffect } from './use-isomorphic-layout-effect.js';
 * import { useRef } from 'react';
 * declare function measure(el: HTMLElement | null): void;
 * const ref = useRef<HTMLDivElement>(null);
 * useIsomorphicLayoutEffect(() => measure(ref.current), []);
 */
export const useIsomorphicLayoutEffect: typeof useLayoutEffect =
  typeof document === 'undefined' ? useEffect : useLayoutEffect;
