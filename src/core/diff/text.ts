/**
 * `renderRunDiffText`: a run diff as a unified-diff-like report for
 * terminals and CI logs. Plain text by default (ANSI colours on request),
 * one line per row, indented by nesting, runs of identical steps folded.
 */
import { formatDuration, formatTokens } from '../tree/row-facts.js';
import { buildRunDiffView } from './view.js';
import type { RunDiff, RunDiffDelta, RunDiffRow, RunDiffTotal, RunStep } from './types.js';

/**
 * Options of {@link renderRunDiffText}.
 *
 * @example
 * declare const diff: RunDiff;
 * renderRunDiffText(diff, { context: 1, width: 100, color: true });
 */
export interface RunDiffTextOptions {
  /** Identical rows kept around each difference (default 2); the rest fold into one line. */
  context?: number;
  /** Longest line, in characters (default 120, at least 40). */
  width?: number;
  /** ANSI colours: red for A only, green for B only, yellow for changed (default `false`). */
  color?: boolean;
  /** Names of the two runs in the header (default `a`, `b`). */
  names?: readonly [string, string];
}

const ANSI = { red: '\u001b[31m', green: '\u001b[32m', yellow: '\u001b[33m', dim: '\u001b[2m' };
const RESET = '\u001b[0m';

function signed(n: number, format: (n: number) => string): string {
  if (n === 0) return '±0';
  return `${n > 0 ? '+' : '−'}${format(Math.abs(n))}`;
}

function money(n: number): string {
  return n >= 1 ? n.toFixed(2) : n.toPrecision(2);
}

function stepsFacts(steps: readonly RunStep[], tokens: number | null, ms: number | null): string {
  const parts = [`${steps.length} steps`];
  if (tokens !== null) parts.push(`${formatTokens(tokens)} tokens`);
  if (ms !== null) parts.push(formatDuration(ms));
  return parts.join(', ');
}

function deltaText(delta: RunDiffDelta | undefined): string {
  if (delta === undefined) return '';
  const parts: string[] = [];
  if (delta.tokens !== undefined) parts.push(`${signed(delta.tokens, formatTokens)} tokens`);
  if (delta.durationMs !== undefined) parts.push(signed(delta.durationMs, formatDuration));
  if (delta.cost !== undefined) parts.push(`cost ${signed(delta.cost, money)}`);
  return parts.join(', ');
}

function value(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'number') return String(Math.round(v * 1000) / 1000);
  if (typeof v === 'string') return v;
  return JSON.stringify(v) ?? String(v);
}

function totalText(name: string, t: RunDiffTotal, format: (n: number) => string): string | null {
  if (t.a === null && t.b === null) return null;
  if (t.delta === 0) return null;
  if (t.delta !== null) return `${name} ${signed(t.delta, format)}`;
  return `${name} ${t.a === null ? '—' : format(t.a)} → ${t.b === null ? '—' : format(t.b)}`;
}

/**
 * One run's figures as the diff's header states them: steps, tokens, time,
 * status, and "(still running)" for a live run.
 *
 * @example
 * declare const diff: RunDiff;
 * runDiffSideFacts(diff, 'b'); // '43 steps, 14.0k tokens, 1m 20s, ok (still running)'
 */
export function runDiffSideFacts(diff: RunDiff, side: 'a' | 'b'): string {
  const t = diff.totals;
  const run = side === 'a' ? diff.a : diff.b;
  const facts = stepsFacts(run.steps, t.tokens[side], t.durationMs[side]);
  return `${facts}, ${t.status[side]}${run.complete ? '' : ' (still running)'}`;
}

/**
 * The run-level differences, one phrase each, for a header or a report:
 * `tokens +1.2k`, `time −3.4 s`, `cost +0.02`, `failed steps 0 → 1`,
 * `score match C → I`; only those that differ.
 *
 * @example
 * declare const diff: RunDiff;
 * runDiffDeltas(diff).join(' · '); // 'tokens +1.2k · failed steps 0 → 1'
 */
export function runDiffDeltas(diff: RunDiff): string[] {
  const totals = diff.totals;
  return [
    totalText('tokens', totals.tokens, formatTokens),
    totalText('time', totals.durationMs, formatDuration),
    totalText('cost', totals.cost, money),
    totals.errors.a !== totals.errors.b
      ? `failed steps ${value(totals.errors.a)} → ${value(totals.errors.b)}`
      : null,
    ...totals.scores.map((s) =>
      value(s.a) === value(s.b) ? null : `score ${s.name} ${value(s.a)} → ${value(s.b)}`,
    ),
  ].filter((d): d is string => d !== null);
}

/**
 * The run diff as text: a header with both runs and the deltas, then one
 * line per row — ` ` same, `~` changed (with what differs), `-` only in A,
 * `+` only in B — indented by nesting. Runs of identical steps fold into
 * `… N identical steps`; the first divergence is marked with `>>>`. Prints
 * nothing; the caller decides where it goes.
 *
 * @example
 * declare const a: Event[], b: Event[];
 * const diff = diffRuns(a, b);
 * const text = renderRunDiffText(diff, { context: 1 });
 * // --- a: 40 steps, 12.1k tokens, 1m 05s
 * // +++ b: 43 steps, 14.0k tokens, 1m 20s
 * // @@ 37 same · 2 changed · 1 only in a · 4 only in b @@
 * // …
 */
export function renderRunDiffText(diff: RunDiff, options: RunDiffTextOptions = {}): string {
  const context = Math.max(0, Math.floor(options.context ?? 2));
  const width = Math.max(40, Math.floor(options.width ?? 120));
  const color = options.color === true;
  const [nameA, nameB] = options.names ?? ['a', 'b'];
  const paint = (text: string, c: keyof typeof ANSI) =>
    color ? `${ANSI[c]}${text}${RESET}` : text;
  const clip = (text: string) => (text.length > width ? `${text.slice(0, width - 1)}…` : text);
  const { counts, rows } = diff;
  const out: string[] = [];
  out.push(clip(`--- ${nameA}: ${runDiffSideFacts(diff, 'a')}`));
  out.push(clip(`+++ ${nameB}: ${runDiffSideFacts(diff, 'b')}`));
  const deltas = runDiffDeltas(diff);
  if (deltas.length > 0) out.push(clip(deltas.join(' · ')));
  if (diff.alignment === 'coarse') {
    out.push(
      `note: ${diff.coarseSteps} steps were too different to align exactly and were aligned position by position`,
    );
  }
  if (diff.identical) {
    out.push(`identical: ${rows.length} steps, all the same`);
    return `${out.join('\n')}\n`;
  }
  out.push(
    `@@ ${counts.same} same · ${counts.changed} changed · ${counts.onlyA} only in ${nameA} · ${counts.onlyB} only in ${nameB} @@`,
  );
  const view = buildRunDiffView(diff, { context, minFold: 1 });
  const first = diff.firstDivergence?.row ?? -1;
  for (let v = 0; v < view.length; v++) {
    const r = view.row[v]!;
    if (r < 0) {
      const folded = view.count[v]!;
      out.push(paint(`  … ${folded} identical step${folded === 1 ? '' : 's'}`, 'dim'));
      continue;
    }
    const row = rows[r]!;
    if (r === first) {
      const path = diff.firstDivergence!.path;
      out.push(clip(`>>> first divergence${path.length > 0 ? ` (in ${path.join(' › ')})` : ''}`));
    }
    for (const line of rowLines(diff, row)) {
      const c = line.startsWith('-')
        ? 'red'
        : line.startsWith('+')
          ? 'green'
          : line.startsWith('~')
            ? 'yellow'
            : null;
      out.push(c === null ? clip(line) : paint(clip(line), c));
    }
  }
  return `${out.join('\n')}\n`;
}

function indent(step: RunStep): string {
  return '  '.repeat(step.depth);
}

function rowLines(diff: RunDiff, row: RunDiffRow): string[] {
  const a = row.a === null ? null : diff.a.steps[row.a]!;
  const b = row.b === null ? null : diff.b.steps[row.b]!;
  switch (row.status) {
    case 'same':
      return [`  ${indent(b!)}${b!.label}`];
    case 'only-a':
      return [
        `- ${indent(a!)}${a!.label}${row.wrapper === true ? '  (wrapper: its steps are compared below)' : ''}`,
      ];
    case 'only-b':
      return [
        `+ ${indent(b!)}${b!.label}${row.wrapper === true ? '  (wrapper: its steps are compared below)' : ''}`,
      ];
    case 'changed': {
      const notes: string[] = [];
      if (row.fields !== undefined && row.fields.length > 0) notes.push(row.fields.join(', '));
      if (row.similarity !== undefined) notes.push(`${Math.round(row.similarity * 100)}% alike`);
      const delta = deltaText(row.delta);
      if (delta !== '') notes.push(delta);
      const note = notes.length > 0 ? `  [${notes.join(' · ')}]` : '';
      if (a!.label === b!.label) return [`~ ${indent(b!)}${b!.label}${note}`];
      return [`~ ${indent(b!)}${b!.label}${note}`, `  ${indent(a!)}  was: ${a!.label}`];
    }
  }
}
