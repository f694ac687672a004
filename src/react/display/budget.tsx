import { useState, type ReactNode } from 'react';
import { formatCount } from '../../core/format.js';
import type { DisplayBudget } from './types.js';

/**
 * The default {@link DisplayBudget}: generous for one output, small enough
 * that a 10 MB string or a 2 MB JSON dump never freezes a transcript.
 *
 * @example
 * <DisplayProvider budget={{ ...defaultDisplayBudget, chars: 20_000 }} />
 */
export const defaultDisplayBudget: Readonly<DisplayBudget> = Object.freeze({
  chars: 100_000,
  depth: 100,
  bytes: 10_000_000,
  items: 100,
});

/**
 * State of one budget: how much to show, whether something is hidden, and
 * `showAll()` to lift the limit. Resets when the component remounts.
 *
 * @example
 * import { useBudget } from './budget.js';
 * declare const text: string;
 * declare const budget: DisplayBudget;
 * const { shown, hidden, showAll } = useBudget(text.length, budget.chars);
 */
export function useBudget(total: number, limit: number) {
  const [all, setAll] = useState(false);
  const shown = all ? total : Math.min(total, limit);
  return { shown, total, hidden: total - shown, showAll: () => setAll(true) };
}

/**
 * Props of {@link BudgetNotice}.
 *
 * @example
 * const props: BudgetNoticeProps = { shown: 10, total: 20, unit: 'items' };
 */
export interface BudgetNoticeProps {
  shown: number;
  total: number;
  /** What is counted: `characters`, `items`, … (plural). */
  unit: string;
  onShowAll?: () => void;
  /** Replaces the default wording. */
  children?: ReactNode;
}

/**
 * The line that says what a renderer hid and offers to show it.
 *
 * @example
 * declare const showAll: () => void;
 * <BudgetNotice shown={10_000} total={2_345_678} unit="characters" onShowAll={showAll} />
 * // Showing 10,000 of 2,345,678 characters. [Show all]
 */
export function BudgetNotice({ shown, total, unit, onShowAll, children }: BudgetNoticeProps) {
  return (
    <p className="skein-display__budget" role="note">
      {children ?? `Showing ${formatCount(shown)} of ${formatCount(total)} ${unit}.`}
      {onShowAll ? (
        <>
          {' '}
          <button type="button" className="skein-display__button" onClick={onShowAll}>
            Show all
          </button>
        </>
      ) : null}
    </p>
  );
}
