import { memo, useEffect, useState } from 'react';
import {
  formatCount,
  formatDuration,
  formatTokens,
  type RunDiffResult,
  type RunDiffRow,
  type RunStep,
} from '../../index.js';
import { useLazyModule } from '../display/lazy.js';
import type { StepTexts } from './run-diff.js';
import { wordDiffModule } from './loaders.js';
import type { wordDiff } from './word-diff.js';

/**
 * What the rows do, by display row: one object for the grid's life (its
 * functions read the grid's latest state), so a memoized row whose own
 * props did not change is not drawn again when the list scrolls.
 */
export interface RowHandlers {
  focus(v: number): void;
  click(v: number): void;
  toggle(v: number): void;
  hover(r: number, on: boolean): void;
}

/** What every row of the grid gets. */
interface RowBase {
  v: number;
  /** Positioned by the list engine (after the scroller is measured). */
  placed: boolean;
  /** Where the list engine draws it (scroll space), px. */
  top: number;
  measureRow: (el: HTMLElement | null) => void;
  focusable: boolean;
  on: RowHandlers;
}

function placed(top: number) {
  return {
    position: 'absolute',
    top: 0,
    left: 0,
    width: '100%',
    transform: `translateY(${top}px)`,
  } as const;
}

/** A run of identical steps, folded: one row that opens them. */
export const FoldRow = memo(function FoldRow(p: RowBase & { count: number }) {
  const text = `${formatCount(p.count)} identical step${p.count === 1 ? '' : 's'}`;
  return (
    // Keys are the grid's (one handler for every row); a click opens it too.
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events
    <div
      ref={p.measureRow}
      role="row"
      aria-rowindex={p.v + 2}
      data-index={p.v}
      data-fold=""
      tabIndex={p.focusable ? 0 : -1}
      className="skein-run-diff__row skein-run-diff__row--fold"
      style={p.placed ? placed(p.top) : { position: 'relative' }}
      onClick={() => p.on.toggle(p.v)}
      onFocus={(e) => {
        if (e.target === e.currentTarget) p.on.focus(p.v);
      }}
    >
      <span role="gridcell" aria-colspan={3} className="skein-run-diff__fold">
        <span aria-hidden="true">⋯ </span>
        {text}
        <span className="skein-run-diff__fold-hint"> — show</span>
      </span>
    </div>
  );
});

const MARK: Record<RunDiffRow['status'], { glyph: string; text: string }> = {
  same: { glyph: '', text: 'same' },
  changed: { glyph: '~', text: 'changed' },
  'only-a': { glyph: '−', text: 'only in A' },
  'only-b': { glyph: '+', text: 'only in B' },
};

/** One aligned row: run A's step, the difference mark, run B's step (or gaps). */
export const DiffRow = memo(function DiffRow(
  p: RowBase & {
    diff: RunDiffResult;
    r: number;
    names: readonly [string, string];
    /** The first divergence. */
    first: boolean;
    /** The word diff is shown whole (Enter toggles). */
    open: boolean;
    texts: StepTexts | null;
  },
) {
  const row = p.diff.rows[p.r]!;
  const a = row.a === null ? null : p.diff.a.steps[row.a]!;
  const b = row.b === null ? null : p.diff.b.steps[row.b]!;
  const words =
    row.status === 'changed' && !(row.fields?.length === 1 && row.fields[0] === 'steps');
  const mark = MARK[row.status];
  const markText =
    row.status === 'only-a'
      ? `only in ${p.names[0]}`
      : row.status === 'only-b'
        ? `only in ${p.names[1]}`
        : mark.text;
  return (
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events
    <div
      ref={p.measureRow}
      role="row"
      aria-rowindex={p.v + 2}
      aria-expanded={words ? p.open : undefined}
      data-index={p.v}
      data-status={row.status}
      data-first={p.first ? '' : undefined}
      data-wrapper={row.wrapper === true ? '' : undefined}
      tabIndex={p.focusable ? 0 : -1}
      className="skein-run-diff__row"
      style={p.placed ? placed(p.top) : { position: 'relative' }}
      onClick={() => p.on.click(p.v)}
      onFocus={(e) => {
        if (e.target === e.currentTarget) p.on.focus(p.v);
      }}
      onPointerEnter={() => p.on.hover(p.r, true)}
      onPointerLeave={() => p.on.hover(p.r, false)}
    >
      <Side step={a} other={b} name={p.names[0]} />
      <span role="gridcell" className="skein-run-diff__mark" title={markText}>
        <span aria-hidden="true">{mark.glyph}</span>
        <span className="skein-run-diff__visually-hidden">
          {markText}
          {p.first ? ', first divergence' : ''}
        </span>
      </span>
      <Side step={b} other={a} name={p.names[1]} />
      {row.status === 'changed' && (
        <span role="gridcell" aria-colspan={3} className="skein-run-diff__detail">
          <ChangeDetail
            row={row}
            a={a!}
            b={b!}
            words={words}
            open={p.open}
            texts={p.texts}
            onToggle={() => p.on.toggle(p.v)}
          />
        </span>
      )}
    </div>
  );
});

function StatusIcon({ status }: { status: RunStep['status'] }) {
  const glyph =
    status === 'error' ? '✕' : status === 'running' ? '●' : status === 'cancelled' ? '◌' : '✓';
  return (
    <span
      className="skein-run-diff__status"
      data-status={status}
      role="img"
      aria-label={status === 'error' ? 'failed' : status}
    >
      {glyph}
    </span>
  );
}

/**
 * A step's indent: 12 px a level up to 24 levels, and never more than a third
 * of its column, so a deep step keeps room for its name in a phone's narrow
 * column (at 390 px, 24 levels would be wider than the column).
 */
function indentOf(depth: number): string {
  return `calc(min(${Math.min(depth, 24)} * 12px, 33%) + 6px)`;
}

/** One run's side of a row: its step, or a gap where only the other run has one. */
function Side({
  step,
  other,
  name,
}: {
  step: RunStep | null;
  other: RunStep | null;
  name: string;
}) {
  if (step === null) {
    return (
      <span
        role="gridcell"
        className="skein-run-diff__cell skein-run-diff__gap"
        style={{ paddingInlineStart: indentOf(other?.depth ?? 0) }}
      >
        <span className="skein-run-diff__visually-hidden">not in {name}</span>
      </span>
    );
  }
  const facts: string[] = [];
  if (step.tokens > 0) facts.push(`${formatTokens(step.tokens)} tok`);
  if (step.durationMs !== null) facts.push(formatDuration(step.durationMs));
  return (
    <span
      role="gridcell"
      className="skein-run-diff__cell skein-run-diff__step"
      data-kind={step.kind}
      data-aborted={step.aborted === true ? '' : undefined}
      style={{ paddingInlineStart: indentOf(step.depth) }}
    >
      <StatusIcon status={step.status} />
      <span className="skein-run-diff__label" title={step.label}>
        {step.label}
      </span>
      {facts.length > 0 && <span className="skein-run-diff__facts">{facts.join(' · ')}</span>}
    </span>
  );
}

/** What changed: the fields, the similarity, the deltas, and the word diff of the texts. */
function ChangeDetail(p: {
  row: RunDiffRow;
  a: RunStep;
  b: RunStep;
  words: boolean;
  open: boolean;
  texts: StepTexts | null;
  onToggle: () => void;
}) {
  const { row } = p;
  const notes: string[] = [];
  if (row.fields !== undefined && row.fields.length > 0) notes.push(row.fields.join(', '));
  if (row.similarity !== undefined) notes.push(`${Math.round(row.similarity * 100)}% alike`);
  const d = row.delta;
  if (d?.tokens !== undefined)
    notes.push(`${d.tokens > 0 ? '+' : '−'}${formatTokens(Math.abs(d.tokens))} tokens`);
  if (d?.durationMs !== undefined)
    notes.push(`${d.durationMs > 0 ? '+' : '−'}${formatDuration(Math.abs(d.durationMs))}`);
  return (
    <>
      <span className="skein-run-diff__notes">{notes.join(' · ')}</span>
      {p.words && p.texts !== null && (
        <WordDiff
          a={p.texts.text('a', p.a.index)}
          b={p.texts.text('b', p.b.index)}
          open={p.open}
          onToggle={p.onToggle}
        />
      )}
    </>
  );
}

/**
 * The word-level diff of two texts (jsdiff, loaded on first use): words only
 * in A struck through, words only in B underlined, both as text. Clamped to
 * three lines until opened.
 *
 * Diffing two long texts takes milliseconds, so a row diffs its texts once
 * it has stayed on screen for {@link WORD_DIFF_SETTLE_MS} (rows scrolled
 * past never diff); until then, and on the server, both texts show whole.
 * A diff done before (the row scrolled back) shows at once.
 */
function WordDiff(p: { a: string; b: string; open: boolean; onToggle: () => void }) {
  const mod = useLazyModule(wordDiffModule);
  const same = p.a === p.b;
  const known = mod === undefined || same ? undefined : wordDiffs.get(wordDiffKey(p.a, p.b));
  const [done, setDone] = useState<{ a: string; b: string; parts: WordParts } | null>(null);
  useEffect(() => {
    if (mod === undefined || same || known !== undefined) return;
    const timer = setTimeout(() => {
      setDone({ a: p.a, b: p.b, parts: cachedWordDiff(mod.wordDiff, p.a, p.b) });
    }, WORD_DIFF_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [mod, same, known, p.a, p.b]);
  const parts =
    known !== undefined
      ? known
      : done !== null && done.a === p.a && done.b === p.b
        ? done.parts
        : null;
  // Closed, three lines show: what lies past `CLOSED_CHARS` or
  // `CLOSED_LINES` is not laid out.
  const limit = p.open ? Number.POSITIVE_INFINITY : CLOSED_CHARS;
  const lines = p.open ? Number.POSITIVE_INFINITY : CLOSED_LINES;
  return (
    <span className="skein-run-diff__words-box">
      <span className="skein-run-diff__words" data-open={p.open ? '' : undefined}>
        {parts === null ? (
          <>
            <del>{clip(p.a, limit, lines)}</del> <ins>{clip(p.b, limit, lines)}</ins>
          </>
        ) : (
          clipParts(parts, limit, lines).map((part, i) =>
            part.kind === 'same' ? (
              <span key={i}>{part.text}</span>
            ) : part.kind === 'del' ? (
              <del key={i}>{part.text}</del>
            ) : (
              <ins key={i}>{part.text}</ins>
            ),
          )
        )}
      </span>
      <button
        type="button"
        tabIndex={-1}
        className="skein-run-diff__more"
        onClick={(e) => {
          e.stopPropagation();
          p.onToggle();
        }}
      >
        {p.open ? 'less' : 'more'}
      </button>
    </span>
  );
}

/** How long a changed row stays on screen before its texts are diffed, ms. */
const WORD_DIFF_SETTLE_MS = 120;
/** Characters of a closed word diff drawn: more than three lines of the widest row hold. */
const CLOSED_CHARS = 2000;
/**
 * Lines of a closed word diff drawn (its texts keep their line breaks): the
 * three it shows and one more, so the clamp still marks the cut. A tool
 * call's text is indented JSON and output, tens of short lines: laying all
 * of them out for three was most of a scrolled frame.
 */
const CLOSED_LINES = 4;

/** Where `text[0, end)` holds the `lines`-th line break (`seen` counts those before it), else `end`. */
function lineCut(text: string, end: number, lines: number, seen: { n: number }): number {
  if (lines === Number.POSITIVE_INFINITY) return end;
  for (let at = text.indexOf('\n'); at >= 0 && at < end; at = text.indexOf('\n', at + 1)) {
    if (++seen.n >= lines) return at;
  }
  return end;
}

/** `text` up to `limit` characters and `lines` lines. */
function clip(text: string, limit: number, lines: number): string {
  const end = lineCut(text, Math.min(text.length, limit), lines, { n: 0 });
  return end < text.length ? text.slice(0, end) : text;
}

/** `parts` up to `limit` characters and `lines` lines in all (the last one cut). */
function clipParts(
  parts: NonNullable<WordParts>,
  limit: number,
  lines: number,
): NonNullable<WordParts> {
  let total = 0;
  const seen = { n: 0 };
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const end = lineCut(part.text, Math.min(part.text.length, limit - total), lines, seen);
    if (end < part.text.length) {
      return [...parts.slice(0, i), { ...part, text: part.text.slice(0, end) }];
    }
    total += part.text.length;
  }
  return parts;
}

type WordDiffFn = typeof wordDiff;
type WordParts = ReturnType<WordDiffFn>;

/**
 * Word diffs computed lately, by their texts: a row scrolled out and back
 * (a remount) or drawn again does not diff its texts again (a long output's
 * diff takes milliseconds). Bounded: the oldest go first.
 */
const wordDiffs = new Map<string, WordParts>();
const WORD_DIFFS_KEPT = 256;

function wordDiffKey(a: string, b: string): string {
  return `${a.length}:${a}\u0000${b}`;
}

function cachedWordDiff(diff: WordDiffFn, a: string, b: string): WordParts {
  const key = wordDiffKey(a, b);
  let parts = wordDiffs.get(key);
  if (parts === undefined) {
    parts = diff(a, b);
    if (wordDiffs.size >= WORD_DIFFS_KEPT) wordDiffs.delete(wordDiffs.keys().next().value!);
    wordDiffs.set(key, parts);
  }
  return parts;
}
