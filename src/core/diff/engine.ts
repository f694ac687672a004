/**
 * The hierarchical alignment: the top-level steps of both runs first, then
 * the steps inside each matched pair of spans, turns and tool calls, level
 * by level, each level with the sequence aligner (`align.ts`).
 *
 * At each level:
 * 1. steps with equal signatures are matched (`alignKeys`);
 * 2. in every stretch between two matches, steps with equal coarse keys
 *    (same kind, same tool, same span type) pair as `changed`;
 * 3. where a stretch still has unmatched steps on both sides and one side's
 *    are spans or turns, those are **opened**: their steps take their place
 *    in the stretch (the span stays, as a one-sided "wrapper" row) and the
 *    stretch is aligned again, up to {@link MAX_UNWRAP} times, the taller
 *    side first. A wrapper one run or format has and the other lacks (an
 *    `init`/`solvers` scaffold, a sub-agent doing what the other run did
 *    inline) then no longer hides that the steps inside are the same.
 * 4. Inside a turn, the steps after the model call come from one response
 *    (parallel tool calls): they are matched as a multiset, so two calls that
 *    finished in the other order are a match, not a change.
 *
 * A matched pair whose subtrees have the same shape and signatures (equal
 * digests) is aligned in lockstep without searching. Rows come out in
 * pre-order on each side; the walk is iterative.
 */
import { alignKeys, type AlignBudget } from './align.js';
import { differingFields, normalizedText, textSimilarity, type IgnoreSet } from './normalize.js';
import { JOB_STRIDE, normalizeModel, type StepTable } from './steps.js';
import type { RunDiffDelta, RunDiffRow, RunDiffStatus } from './types.js';

/** How many times a stretch may be opened a level deeper. */
export const MAX_UNWRAP = 8;

/** Characters of content compared for a changed pair's similarity. */
const SIMILARITY_CHARS = 4000;

/** One aligned position of a level: a pair, or one side (a wrapper or a whole subtree). */
interface Op {
  readonly a: number;
  readonly b: number;
  readonly coarse: boolean;
  readonly wrapper: boolean;
}

/** A step in a stretch being aligned; `wrapper` once it has been opened. */
interface Item {
  readonly step: number;
  readonly wrapper: boolean;
}

function childrenOf(table: StepTable, s: number): number[] {
  const steps = table.steps;
  const end = s < 0 ? steps.length : steps[s]!.end;
  const out: number[] = [];
  for (let c = s + 1; c < end; c = steps[c]!.end) out.push(c);
  return out;
}

function hasChildren(table: StepTable, s: number): boolean {
  return table.steps[s]!.end > s + 1;
}

/**
 * What one diff of growing runs keeps for the next (`createRunDiff`): the
 * ops of each level aligned and the row of each pair compared, keyed by
 * their steps' positions. A level is reused when both of its steps are
 * where they were with the same subtree digest (the same shape and
 * signatures: the same alignment, and the same positions inside); a pair's
 * row when both steps hold the same event objects and figures. Each diff
 * keeps only what it used. Internal.
 */
export interface AlignMemo {
  levels: Map<number, LevelEntry>;
  rows: Map<number, RowEntry>;
}

interface LevelEntry {
  readonly da: number;
  readonly db: number;
  readonly ops: Op[];
  /** What aligning the level spent and aligned coarsely, replayed on reuse. */
  readonly work: number;
  readonly coarse: number;
}

interface RowEntry {
  readonly ca: object | null;
  readonly cb: object | null;
  readonly facts: string;
  readonly row: RunDiffRow;
}

/** A pair's place in a memo: positions are below 2^26 (64M steps). */
function pairKey(a: number, b: number): number {
  return a * 0x4000000 + b;
}

/** The figures a pair's row depends on besides its contents. */
function factsOf(A: StepTable, B: StepTable, a: number, b: number): string {
  const x = A.steps[a]!;
  const y = B.steps[b]!;
  return `${A.key[a]} ${B.key[b]} ${x.status} ${y.status} ${x.aborted === true} ${y.aborted === true} ${x.tokens} ${y.tokens} ${x.durationMs} ${y.durationMs} ${x.cost} ${y.cost}`;
}

/**
 * Aligns the steps of two runs into rows (see `diffRuns`), as a job that
 * pauses (yields) about every {@link JOB_STRIDE} rows. The memo is replaced
 * only at its end. Internal.
 */
export function* rowsJob(
  A: StepTable,
  B: StepTable,
  ignore: IgnoreSet,
  budget: AlignBudget,
  memo?: AlignMemo,
): Generator<void, RunDiffRow[]> {
  const rows: RunDiffRow[] = [];
  let pause = JOB_STRIDE;
  const next: AlignMemo | undefined =
    memo === undefined ? undefined : { levels: new Map(), rows: new Map() };
  // A frame walks a level's ops, or (`ops` null) the children of a pair
  // with equal digests in lockstep, `a` and `b` the next pair's steps: most
  // of two runs of one agent, walked without an op or a list per level.
  const frames: { ops: Op[] | null; pos: number; a: number; b: number; end: number }[] = [
    {
      ops: alignLevel(A, B, childrenOf(A, -1), childrenOf(B, -1), false, budget),
      pos: 0,
      a: 0,
      b: 0,
      end: 0,
    },
  ];
  while (frames.length > 0) {
    if (rows.length >= pause) {
      pause = rows.length + JOB_STRIDE;
      yield;
    }
    const frame = frames[frames.length - 1]!;
    let oa: number;
    let ob: number;
    let wrapper = false;
    if (frame.ops === null) {
      if (frame.a >= frame.end) {
        frames.pop();
        continue;
      }
      oa = frame.a;
      ob = frame.b;
      frame.a = A.steps[oa]!.end;
      frame.b = B.steps[ob]!.end;
    } else {
      if (frame.pos >= frame.ops.length) {
        frames.pop();
        continue;
      }
      const op = frame.ops[frame.pos++]!;
      oa = op.a;
      ob = op.b;
      wrapper = op.wrapper;
    }
    if (oa >= 0 && ob >= 0) {
      rows.push(
        next === undefined
          ? pairRow(A, B, oa, ob, ignore)
          : memoRow(A, B, oa, ob, ignore, memo!, next),
      );
      if (!hasChildren(A, oa) && !hasChildren(B, ob)) continue;
      if (A.digest[oa] === B.digest[ob] && A.key[oa] === B.key[ob]) {
        frames.push({ ops: null, pos: 0, a: oa + 1, b: ob + 1, end: A.steps[oa]!.end });
        continue;
      }
      let ops: Op[];
      const key = pairKey(oa, ob);
      const da = A.digest[oa]!;
      const db = B.digest[ob]!;
      const known = memo?.levels.get(key);
      if (known !== undefined && known.da === da && known.db === db) {
        budget.work -= known.work;
        budget.coarse += known.coarse;
        ops = known.ops;
      } else {
        const work = budget.work;
        const coarse = budget.coarse;
        const turn = A.turn[oa] === 1 && B.turn[ob] === 1;
        ops = alignLevel(A, B, childrenOf(A, oa), childrenOf(B, ob), turn, budget);
        if (next !== undefined) {
          next.levels.set(key, {
            da,
            db,
            ops,
            work: work - budget.work,
            coarse: budget.coarse - coarse,
          });
        }
      }
      if (known !== undefined && next !== undefined) next.levels.set(key, known);
      frames.push({ ops, pos: 0, a: 0, b: 0, end: 0 });
    } else if (wrapper) {
      rows.push(
        oa >= 0
          ? { status: 'only-a', a: oa, b: null, wrapper: true }
          : { status: 'only-b', a: null, b: ob, wrapper: true },
      );
    } else if (oa >= 0) {
      const end = A.steps[oa]!.end;
      for (let s = oa; s < end; s++) rows.push({ status: 'only-a', a: s, b: null });
    } else {
      const end = B.steps[ob]!.end;
      for (let s = ob; s < end; s++) rows.push({ status: 'only-b', a: null, b: s });
    }
  }
  if (memo !== undefined && next !== undefined) {
    memo.levels = next.levels;
    memo.rows = next.rows;
  }
  return rows;
}

/** {@link pairRow}, taken from the memo when the pair's events and figures are the same. */
function memoRow(
  A: StepTable,
  B: StepTable,
  a: number,
  b: number,
  ignore: IgnoreSet,
  memo: AlignMemo,
  next: AlignMemo,
): RunDiffRow {
  const key = pairKey(a, b);
  const ca = A.content[a]!;
  const cb = B.content[b]!;
  const facts = factsOf(A, B, a, b);
  const known = memo.rows.get(key);
  const entry =
    known !== undefined && known.ca === ca && known.cb === cb && known.facts === facts
      ? known
      : { ca, cb, facts, row: pairRow(A, B, a, b, ignore) };
  next.rows.set(key, entry);
  return entry.row;
}

function alignLevel(
  A: StepTable,
  B: StepTable,
  ca: number[],
  cb: number[],
  turn: boolean,
  budget: AlignBudget,
): Op[] {
  if (turn) return alignTurn(A, B, ca, cb);
  return alignItems(
    A,
    B,
    ca.map((step) => ({ step, wrapper: false })),
    cb.map((step) => ({ step, wrapper: false })),
    0,
    budget,
  );
}

/** Fine keys, then coarse keys in the stretches between; then opening (module comment). */
function alignItems(
  A: StepTable,
  B: StepTable,
  aList: Item[],
  bList: Item[],
  round: number,
  budget: AlignBudget,
): Op[] {
  const n = aList.length;
  const m = bList.length;
  const ka = new Int32Array(n);
  const kb = new Int32Array(m);
  for (let i = 0; i < n; i++) ka[i] = aList[i]!.wrapper ? -1 : A.key[aList[i]!.step]!;
  for (let j = 0; j < m; j++) kb[j] = bList[j]!.wrapper ? -2 : B.key[bList[j]!.step]!;
  const fine = n > 0 && m > 0 ? alignKeys(ka, kb, budget) : [];
  // Matched positions: pairA[i] = j, coarse marks pairs found by coarse key.
  const pairA = new Int32Array(n).fill(-1);
  const coarse = new Uint8Array(n);
  for (let p = 0; p < fine.length; p += 2) pairA[fine[p]!] = fine[p + 1]!;
  // Then in each stretch between matches: the middle keys (a turn by its
  // model call), then the coarse keys (kind and name).
  const tier = (ka: Int32Array, kb: Int32Array) => {
    const gaps: number[] = [];
    let pi = -1;
    let pj = -1;
    for (let i = 0; i <= n; i++) {
      const j = i < n ? pairA[i]! : m;
      if (i < n && j < 0) continue;
      if (i - pi > 1 && j - pj > 1) gaps.push(pi + 1, i, pj + 1, j);
      pi = i;
      pj = j;
    }
    for (let g = 0; g < gaps.length; g += 4) {
      const [i0, i1, j0, j1] = [gaps[g]!, gaps[g + 1]!, gaps[g + 2]!, gaps[g + 3]!];
      const pairs = alignKeys(ka.subarray(i0, i1), kb.subarray(j0, j1), budget);
      for (let p = 0; p < pairs.length; p += 2) {
        pairA[i0 + pairs[p]!] = j0 + pairs[p + 1]!;
        coarse[i0 + pairs[p]!] = 1;
      }
    }
  };
  const keysOf = (table: StepTable, list: Item[], keys: Int32Array, none: number) => {
    const out = new Int32Array(list.length);
    for (let i = 0; i < list.length; i++) out[i] = list[i]!.wrapper ? none : keys[list[i]!.step]!;
    return out;
  };
  if (fine.length < 2 * Math.min(n, m)) {
    tier(keysOf(A, aList, A.mid, -1), keysOf(B, bList, B.mid, -2));
    tier(keysOf(A, aList, A.coarse, -1), keysOf(B, bList, B.coarse, -2));
  }

  // Walk both lists: every stretch of unmatched items, then the pair after it.
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  const flush = (ua: Item[], ub: Item[]) => {
    if (ua.length === 0 && ub.length === 0) return;
    if (round < MAX_UNWRAP && ua.length > 0 && ub.length > 0) {
      const ha = openable(A, ua);
      const hb = openable(B, ub);
      if ((ha > 0 || hb > 0) && ua.some((it) => !it.wrapper) && ub.some((it) => !it.wrapper)) {
        const na = ha > 0 && ha >= hb ? open(A, ua) : ua;
        const nb = hb > 0 && hb >= ha ? open(B, ub) : ub;
        for (const op of alignItems(A, B, na, nb, round + 1, budget)) ops.push(op);
        return;
      }
    }
    for (const it of ua) ops.push({ a: it.step, b: -1, coarse: false, wrapper: it.wrapper });
    for (const it of ub) ops.push({ a: -1, b: it.step, coarse: false, wrapper: it.wrapper });
  };
  while (i < n || j < m) {
    const ua: Item[] = [];
    const ub: Item[] = [];
    while (i < n && pairA[i]! < 0) ua.push(aList[i++]!);
    const target = i < n ? pairA[i]! : m;
    while (j < target) ub.push(bList[j++]!);
    flush(ua, ub);
    if (i < n) {
      ops.push({ a: aList[i]!.step, b: bList[j]!.step, coarse: coarse[i] === 1, wrapper: false });
      i++;
      j++;
    }
  }
  return ops;
}

/** The tallest unmatched span or turn among `items` that could be opened (0: none). */
function openable(table: StepTable, items: Item[]): number {
  let h = 0;
  for (const it of items) {
    if (!it.wrapper && hasChildren(table, it.step)) h = Math.max(h, table.height[it.step]!);
  }
  return h;
}

/** `items` with every step that has children replaced by itself (a wrapper) and its children. */
function open(table: StepTable, items: Item[]): Item[] {
  const out: Item[] = [];
  for (const it of items) {
    if (it.wrapper || !hasChildren(table, it.step)) {
      out.push(it);
      continue;
    }
    out.push({ step: it.step, wrapper: true });
    for (const c of childrenOf(table, it.step)) out.push({ step: c, wrapper: false });
  }
  return out;
}

/**
 * A turn's steps: the model calls pair; the rest match as a multiset, by
 * signature, then by coarse key. Rows follow A's order; B's unmatched steps
 * come where B has them relative to its matched ones.
 */
function alignTurn(A: StepTable, B: StepTable, ca: number[], cb: number[]): Op[] {
  const pairOfA = new Int32Array(ca.length).fill(-1);
  const coarseA = new Uint8Array(ca.length);
  const usedB = new Uint8Array(cb.length);
  let from = 0;
  if (
    ca.length > 0 &&
    cb.length > 0 &&
    A.steps[ca[0]!]!.kind === 'model' &&
    B.steps[cb[0]!]!.kind === 'model'
  ) {
    pairOfA[0] = 0;
    usedB[0] = 1;
    coarseA[0] = A.key[ca[0]!] === B.key[cb[0]!] ? 0 : 1;
    from = 1;
  }
  for (const coarse of [false, true]) {
    const keysA = coarse ? A.coarse : A.key;
    const keysB = coarse ? B.coarse : B.key;
    const waiting = new Map<number, number[]>();
    for (let j = from; j < cb.length; j++) {
      if (usedB[j] === 1) continue;
      const k = keysB[cb[j]!]!;
      const list = waiting.get(k);
      if (list === undefined) waiting.set(k, [j]);
      else list.push(j);
    }
    for (let i = from; i < ca.length; i++) {
      if (pairOfA[i]! >= 0) continue;
      const list = waiting.get(keysA[ca[i]!]!);
      if (list === undefined || list.length === 0) continue;
      const j = list.shift()!;
      pairOfA[i] = j;
      usedB[j] = 1;
      coarseA[i] = coarse ? 1 : 0;
    }
  }
  const ops: Op[] = [];
  let nextB = 0;
  const emitB = (upTo: number) => {
    for (; nextB < upTo; nextB++) {
      if (usedB[nextB] === 0) ops.push({ a: -1, b: cb[nextB]!, coarse: false, wrapper: false });
    }
  };
  for (let i = 0; i < ca.length; i++) {
    const j = pairOfA[i]!;
    if (j < 0) {
      ops.push({ a: ca[i]!, b: -1, coarse: false, wrapper: false });
      continue;
    }
    emitB(j);
    ops.push({ a: ca[i]!, b: cb[j]!, coarse: coarseA[i] === 1, wrapper: false });
  }
  emitB(cb.length);
  return ops;
}

/**
 * The row of a matched pair: `same` or `changed` with what differs, and deltas.
 *
 * Content is compared here, pair by pair, not through a digest of each
 * step made while the steps are built: a step is in at most one pair, so
 * either way each step's content is read once, and a digest costs more per
 * read than the comparison. On Node 20 `JSON.stringify` of a model call's
 * `tools` takes about twice as long as comparing two of them in JS, and
 * numbering each normalised value allocates a string per value (both were
 * measured: a diff of two 20k-step runs took 1.4–1.6× as long). What one
 * run shares by identity (a `tools` list passed to every call) the other
 * does not once read from a log, so a memo by identity saves nothing there.
 */
function pairRow(A: StepTable, B: StepTable, a: number, b: number, ignore: IgnoreSet): RunDiffRow {
  const sa = A.steps[a]!;
  const sb = B.steps[b]!;
  const fields: string[] = [];
  const ca = A.content[a]!;
  const cb = B.content[b]!;
  if (ca === null || cb === null) {
    if (A.key[a] !== B.key[b]) fields.push('steps');
  } else {
    for (const f of differingFields(ca, cb, ignore)) {
      // One model, written with or without its provider and date.
      if (f === 'model' && normalizeModel(String(ca[f])) === normalizeModel(String(cb[f])))
        continue;
      fields.push(f);
    }
    const container = sa.kind === 'span' || sa.kind === 'turn';
    if (!container && sa.status !== sb.status) fields.push('status');
  }
  if ((sa.aborted === true) !== (sb.aborted === true)) fields.push('aborted');
  const delta = deltaOf(sa, sb);
  const status: RunDiffStatus = fields.length === 0 ? 'same' : 'changed';
  if (status === 'same') return delta === undefined ? { status, a, b } : { status, a, b, delta };
  const similarity =
    ca === null || cb === null
      ? textSimilarity(A.texts[A.key[a]!]!, B.texts[B.key[b]!]!)
      : textSimilarity(
          normalizedText(ca, ignore, SIMILARITY_CHARS, ignore.root),
          normalizedText(cb, ignore, SIMILARITY_CHARS, ignore.root),
        );
  const row: {
    status: RunDiffStatus;
    a: number;
    b: number;
    similarity: number;
    fields: string[];
    delta?: RunDiffDelta;
  } = { status, a, b, similarity: Math.round(similarity * 1000) / 1000, fields };
  if (delta !== undefined) row.delta = delta;
  return row;
}

function deltaOf(
  sa: { tokens: number; durationMs: number | null; cost: number | null },
  sb: { tokens: number; durationMs: number | null; cost: number | null },
): RunDiffDelta | undefined {
  const tokens = sb.tokens - sa.tokens;
  const duration =
    sa.durationMs !== null && sb.durationMs !== null ? sb.durationMs - sa.durationMs : 0;
  const cost = sa.cost !== null && sb.cost !== null ? sb.cost - sa.cost : 0;
  if (tokens === 0 && duration === 0 && cost === 0) return undefined;
  const delta: { tokens?: number; durationMs?: number; cost?: number } = {};
  if (tokens !== 0) delta.tokens = tokens;
  if (duration !== 0) delta.durationMs = duration;
  if (cost !== 0) delta.cost = cost;
  return delta;
}
