// Sorting and filtering the sample list (pure; tested without a DOM).
import { compareSamples, type SampleSummary } from '../src/index.js';
import type { SampleRow } from './load/protocol.js';

/** The sample list's sortable columns. */
export type SampleSortKey = 'id' | 'input' | 'epoch' | 'score' | 'tokens' | 'duration' | 'error';

export interface SampleSort {
  readonly key: SampleSortKey;
  readonly dir: 'asc' | 'desc';
}

/** Ids in core's sample order (`compareSamples`: numbers before strings, natural order). */
function compareId(a: SampleRow, b: SampleRow): number {
  return compareSamples(idOnly(a), idOnly(b));
}
const idOnly = (r: SampleRow): SampleSummary => ({
  id: r.id,
  epoch: 0,
  scores: {},
  tokens: null,
  durationMs: null,
  status: 'ok',
  error: null,
});

/** Missing values (`null`) sort last in either direction. */
function compareNullable(a: number | null, b: number | null, dir: number): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return (a - b) * dir;
}

/**
 * The rows sorted by `sort` (stable; ties by id, then epoch). Errors sort
 * samples with an error first in `desc`, last in `asc`.
 */
export function sortSamples(rows: readonly SampleRow[], sort: SampleSort): SampleRow[] {
  const dir = sort.dir === 'asc' ? 1 : -1;
  const tie = (a: SampleRow, b: SampleRow) => compareId(a, b) || a.epoch - b.epoch;
  const by: (a: SampleRow, b: SampleRow) => number = {
    id: (a: SampleRow, b: SampleRow) => compareId(a, b) * dir || (a.epoch - b.epoch) * dir,
    input: (a: SampleRow, b: SampleRow) => a.input.localeCompare(b.input) * dir,
    epoch: (a: SampleRow, b: SampleRow) => (a.epoch - b.epoch) * dir,
    score: (a: SampleRow, b: SampleRow) => compareNullable(a.scoreValue, b.scoreValue, dir),
    tokens: (a: SampleRow, b: SampleRow) => compareNullable(a.tokens, b.tokens, dir),
    duration: (a: SampleRow, b: SampleRow) => compareNullable(a.duration, b.duration, dir),
    error: (a: SampleRow, b: SampleRow) =>
      (Number(a.error !== null || a.limit !== null) -
        Number(b.error !== null || b.limit !== null)) *
      dir,
  }[sort.key];
  return rows.slice().sort((a, b) => by(a, b) || tie(a, b));
}

/**
 * The rows matching `query`: every word must appear in the id, epoch, score,
 * input or error (case-insensitive). `error` / `has:error` keeps samples with
 * an error or a limit.
 */
export function filterSamples(rows: readonly SampleRow[], query: string): SampleRow[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return rows.slice();
  return rows.filter((r) => {
    const text =
      `${String(r.id)} epoch:${r.epoch} ${r.scores} ${r.input} ${r.error ?? ''} ${r.limit ?? ''}`.toLowerCase();
    return words.every((w) =>
      w === 'has:error' ? r.error !== null || r.limit !== null : text.includes(w),
    );
  });
}
