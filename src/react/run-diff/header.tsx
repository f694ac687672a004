import { memo } from 'react';
import { runDiffDeltas, runDiffSideFacts, type RunDiffResult } from '../../index.js';
import { formatCount } from '../../core/format.js';

/**
 * The comparison's header: each run's figures, the run-level deltas, the
 * counts of rows by status, where the runs first diverge, and buttons for
 * the first divergence and the previous / next difference (the `f`, `p`,
 * `n` keys of the grid).
 */
export const DiffHeader = memo(function DiffHeader(p: {
  diff: RunDiffResult;
  names: readonly [string, string];
  loading: boolean;
  onJump: (key: 'n' | 'p' | 'f') => void;
  canJump: boolean;
}) {
  const { diff, names } = p;
  const deltas = runDiffDeltas(diff);
  const { counts } = diff;
  const first = diff.firstDivergence;
  const summary = diff.identical
    ? diff.rows.length === 0
      ? 'No steps to compare yet'
      : 'Identical step by step'
    : [
        counts.changed > 0 ? `${formatCount(counts.changed)} changed` : null,
        counts.onlyA > 0 ? `${formatCount(counts.onlyA)} only in ${names[0]}` : null,
        counts.onlyB > 0 ? `${formatCount(counts.onlyB)} only in ${names[1]}` : null,
        `${formatCount(counts.same)} same`,
      ]
        .filter((t): t is string => t !== null)
        .join(' · ');
  const firstStep = first === null ? null : firstLabel(diff, first.row);
  return (
    <header className="skein-run-diff__header">
      <dl className="skein-run-diff__sides">
        <div>
          <dt>{names[0]}</dt>
          <dd>{runDiffSideFacts(diff, 'a')}</dd>
        </div>
        <div>
          <dt>{names[1]}</dt>
          <dd>{runDiffSideFacts(diff, 'b')}</dd>
        </div>
      </dl>
      <p className="skein-run-diff__summary" role="status" aria-live="polite">
        {summary}
        {p.loading ? ' (reading…)' : ''}
      </p>
      {deltas.length > 0 && <p className="skein-run-diff__deltas">{deltas.join(' · ')}</p>}
      {diff.alignment === 'coarse' && (
        <p className="skein-run-diff__coarse">
          {formatCount(diff.coarseSteps)} steps too different to align exactly: matched position by
          position.
        </p>
      )}
      <div className="skein-run-diff__nav">
        {firstStep !== null && (
          <span className="skein-run-diff__first">
            First divergence: {[...first!.path, firstStep].join(' › ')}
          </span>
        )}
        <span role="group" aria-label="Differences" className="skein-run-diff__buttons">
          <button
            type="button"
            disabled={!p.canJump}
            onClick={() => p.onJump('f')}
            aria-keyshortcuts="f"
          >
            First divergence
          </button>
          <button
            type="button"
            disabled={!p.canJump}
            onClick={() => p.onJump('p')}
            aria-keyshortcuts="p"
          >
            Previous
          </button>
          <button
            type="button"
            disabled={!p.canJump}
            onClick={() => p.onJump('n')}
            aria-keyshortcuts="n"
          >
            Next
          </button>
        </span>
      </div>
    </header>
  );
});

/** The label of row `r`'s step (run B's where it has one). */
function firstLabel(diff: RunDiffResult, r: number): string {
  const row = diff.rows[r]!;
  if (row.b !== null) return diff.b.steps[row.b]!.label;
  return diff.a.steps[row.a!]!.label;
}
