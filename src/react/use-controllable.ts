import { useCallback, useRef, useState } from 'react';
import { useIsomorphicLayoutEffect } from './list/use-isomorphic-layout-effect.js';

/**
 * One behaviour for every controlled/uncontrolled prop pair (React
 * Aria's `useControlledState`, Radix's `useControllableState`): with `value`
 * given (not `undefined`) the component shows it and only asks `onChange`;
 * without it the component keeps its own state, starting at `defaultValue`,
 * and still reports changes. A setter that is given the current value does
 * nothing and reports nothing.
 *
 * @example
 * declare const props: Pick<TranscriptProps, 'selectedId' | 'defaultSelectedId' | 'onSelect'>;
 * const [selected, setSelected] = useControllable(
 *   props.selectedId,
 *   props.defaultSelectedId ?? null,
 *   props.onSelect,
 * );
 */
export function useControllable<T>(
  value: T | undefined,
  defaultValue: T | (() => T),
  onChange?: (next: T) => void,
): [T, (next: T | ((previous: T) => T)) => void] {
  const [own, setOwn] = useState(defaultValue);
  const controlled = value !== undefined;
  const current = controlled ? value : own;
  const currentRef = useRef(current);
  const onChangeRef = useRef(onChange);
  useIsomorphicLayoutEffect(() => {
    currentRef.current = current;
    onChangeRef.current = onChange;
  });
  const set = useCallback(
    (next: T | ((previous: T) => T)) => {
      const resolved =
        typeof next === 'function' ? (next as (previous: T) => T)(currentRef.current) : next;
      if (Object.is(resolved, currentRef.current)) return;
      // Seen at once by a second call in the same event (before a render).
      currentRef.current = resolved;
      if (!controlled) setOwn(() => resolved);
      onChangeRef.current?.(resolved);
    },
    [controlled],
  );
  return [current, set];
}
