import { useMemo } from 'react';
import { BudgetNotice, useBudget } from '../budget.js';
import { expectText, sliceText } from '../text.js';
import type { RendererProps } from '../types.js';

/**
 * The kind of one line of a unified diff.
 *
 * @example
 * const kind: DiffLineKind = 'add';
 */
export type DiffLineKind = 'file' | 'hunk' | 'add' | 'del' | 'context' | 'meta';

/**
 * One parsed line of a unified diff, with old/new line numbers where they apply.
 *
 * @example
 * const line: DiffLine = { kind: 'add', text: '+x', newLine: 3 };
 */
export interface DiffLine {
  kind: DiffLineKind;
  text: string;
  oldLine?: number;
  newLine?: number;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/**
 * Parses a unified diff (`diff -u`, `git diff`) into lines with their kind and
 * line numbers. Lenient: text that is not a diff comes back as `meta` lines.
 *
 * @example
 * parseUnifiedDiff('@@ -1 +1 @@\n-a\n+b')[2]; // { kind: 'add', text: '+b', newLine: 1 }
 */
export function parseUnifiedDiff(text: string): DiffLine[] {
  const out: DiffLine[] = [];
  let oldLine = 0;
  let newLine = 0;
  let inHunk = false;
  for (const line of text.split('\n')) {
    const hunk = HUNK.exec(line);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      inHunk = true;
      out.push({ kind: 'hunk', text: line });
    } else if (line.startsWith('+++ ') || line.startsWith('--- ')) {
      inHunk = false;
      out.push({ kind: 'file', text: line });
    } else if (inHunk && line.startsWith('+')) {
      out.push({ kind: 'add', text: line, newLine: newLine++ });
    } else if (inHunk && line.startsWith('-')) {
      out.push({ kind: 'del', text: line, oldLine: oldLine++ });
    } else if (inHunk && (line.startsWith(' ') || line === '')) {
      out.push({ kind: 'context', text: line, oldLine: oldLine++, newLine: newLine++ });
    } else {
      // `diff --git`, `index …`, `\ No newline at end of file`, or not a diff at all.
      out.push({ kind: 'meta', text: line });
    }
  }
  return out;
}

/**
 * `text/x-diff` (and `text/x-patch`): a unified diff with line numbers.
 * Additions and deletions keep their `+`/`-` so the meaning never depends on
 * colour alone (WCAG 1.4.1).
 *
 * @example
 * const bundle = { data: { 'text/x-diff': '--- a\n+++ b\n@@ -1 +1 @@\n-old\n+new' } };
 * <Display bundle={bundle} />; // Display picks DiffRenderer for text/x-diff
 */
export function DiffRenderer({ data, mimeType, budget }: RendererProps) {
  const text = expectText(data, mimeType);
  const { shown, total, hidden, showAll } = useBudget(text.length, budget.chars);
  const visible = hidden ? sliceText(text, shown) : text;
  const lines = useMemo(() => parseUnifiedDiff(visible), [visible]);
  return (
    <div className="skein-diff">
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- axe scrollable-region-focusable */}
      <pre className="skein-diff__pre" tabIndex={0}>
        <code>
          {lines.map((line, i) => (
            <span key={i} className="skein-diff__line" data-kind={line.kind}>
              <span className="skein-diff__num" aria-hidden="true">
                {line.oldLine ?? ''}
              </span>
              <span className="skein-diff__num" aria-hidden="true">
                {line.newLine ?? ''}
              </span>
              <span className="skein-diff__text">{line.text}</span>
              {'\n'}
            </span>
          ))}
        </code>
      </pre>
      {hidden ? (
        <BudgetNotice shown={shown} total={total} unit="characters" onShowAll={showAll} />
      ) : null}
    </div>
  );
}
