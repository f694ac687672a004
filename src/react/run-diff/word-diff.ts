// The word-level diff of a changed step's texts, by jsdiff (`diff`, Myers'
// algorithm over words, BSD-3, kept since 2011). Its own chunk: it loads when
// a <RunDiff> first shows a changed row (loaders in run-diff.tsx), so a page
// that never mounts one never downloads it.
import { diffWords } from 'diff';

/**
 * A piece of a word diff: text both have, text only A has, or only B.
 *
 * @example
 * declare const parts: { text: string; kind: 'same' | 'del' | 'ins' }[];
 * const added = parts.filter((p) => p.kind === 'ins').map((p) => p.text);
 */
export interface WordPart {
  readonly text: string;
  readonly kind: 'same' | 'del' | 'ins';
}

/** Edits past which a word diff gives up (two unrelated texts): the texts show whole. */
const MAX_EDITS = 400;

/**
 * The words of `a` and `b` aligned (jsdiff's `diffWords`), or `null` when
 * they differ in more than a few hundred places.
 *
 * @example
 * declare function wordDiff(a: string, b: string): { text: string }[] | null;
 * wordDiff('make all', 'make -j8 all'); // [{ text: 'make ', kind: 'same' }, { text: '-j8 ', kind: 'ins' }, …]
 */
export function wordDiff(a: string, b: string): WordPart[] | null {
  const changes = diffWords(a, b, { maxEditLength: MAX_EDITS });
  if (changes === undefined) return null;
  return changes.map((c) => ({
    text: c.value,
    kind: c.added ? 'ins' : c.removed ? 'del' : 'same',
  }));
}
