/**
 * Sequence alignment for the run diff: which elements of two sequences of
 * interned keys are the same, in order (a longest common subsequence, or
 * close to one).
 *
 * 1. The common prefix and suffix are matched first (most of two runs of one
 *    agent).
 * 2. **Patience anchors** (Bram Cohen's patience diff, as in `git diff
 *    --patience`): keys that occur exactly once in both stretches are matched
 *    along their longest increasing run, and each stretch between two anchors
 *    is aligned the same way. A step that happens once in each run (a given
 *    command, a sub-agent) pins the alignment, so repeated steps (the tenth
 *    `ls`) cannot pair across it.
 * 3. Between anchors without unique keys, **Myers' O((N+M)·D) algorithm**
 *    (E. Myers, "An O(ND) Difference Algorithm and Its Variations",
 *    Algorithmica 1986), with the edit distance D capped.
 * 4. Past the cap (or the diff's overall work bound), the stretch is aligned
 *    **coarsely**: position by position, looking a few elements ahead for a
 *    match, in linear time; the caller reports it.
 *
 * Everything is iterative: ranges wait on an explicit stack.
 */

/** Elements looked ahead for a match in the coarse alignment. */
const LOOKAHEAD = 8;

/**
 * What an alignment may still spend, shared by every alignment of one diff.
 * Internal.
 */
export interface AlignBudget {
  /** Work units left (one per element compared or counted). */
  work: number;
  /** Largest edit distance Myers may reach in one stretch. */
  readonly maxEdits: number;
  /** Elements aligned coarsely so far. */
  coarse: number;
  /** The text of each key (decides which way round a stretch is aligned). */
  readonly texts: readonly string[];
  /** Scratch counters indexed by key (grown on demand, left zeroed). */
  countA: Int32Array;
  countB: Int32Array;
  posB: Int32Array;
}

/** A budget for a diff of `size` steps (work bound: 64 units per step, plus 4M). */
export function createBudget(
  size: number,
  maxEdits: number,
  texts: readonly string[],
): AlignBudget {
  const n = Math.max(16, texts.length);
  return {
    work: 64 * size + 4_000_000,
    maxEdits,
    coarse: 0,
    texts,
    countA: new Int32Array(n),
    countB: new Int32Array(n),
    posB: new Int32Array(n),
  };
}

function ensureKeys(budget: AlignBudget, key: number): void {
  if (key < budget.countA.length) return;
  let n = budget.countA.length;
  while (n <= key) n *= 2;
  const grow = (a: Int32Array) => {
    const b = new Int32Array(n);
    b.set(a);
    return b;
  };
  budget.countA = grow(budget.countA);
  budget.countB = grow(budget.countB);
  budget.posB = grow(budget.posB);
}

/**
 * Aligns `a` and `b` (interned keys; a negative key matches nothing):
 * returns the matched index pairs, flat (`[i0, j0, i1, j1, …]`), increasing
 * in both.
 */
export function alignKeys(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  budget: AlignBudget,
): number[] {
  // Aligned in one canonical direction, whichever run is A: where the
  // choice between equally long alignments is arbitrary (which of two
  // swapped steps pairs), both orders of the runs then make the same one.
  if (!inOrder(a, b, budget.texts)) {
    const pairs = alignOriented(b, a, budget);
    for (let p = 0; p < pairs.length; p += 2) {
      const x = pairs[p]!;
      pairs[p] = pairs[p + 1]!;
      pairs[p + 1] = x;
    }
    return pairs;
  }
  return alignOriented(a, b, budget);
}

/**
 * Whether `a` comes first: at their first difference, by key text (a key
 * that matches nothing, negative, before any text); the shorter first when
 * one is a prefix of the other. Symmetric: of two different sequences,
 * exactly one is in order.
 */
function inOrder(a: ArrayLike<number>, b: ArrayLike<number>, texts: readonly string[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y || (x < 0 && y < 0)) continue;
    if (x < 0) return true;
    if (y < 0) return false;
    return texts[x]! < texts[y]!;
  }
  return a.length <= b.length;
}

function alignOriented(a: ArrayLike<number>, b: ArrayLike<number>, budget: AlignBudget): number[] {
  const out: number[] = [];
  // Work items: a range [a0, a1) × [b0, b1) to align (kind 0), or a run of
  // `len` matched pairs starting at (a0, b0) to emit (kind 1).
  const stack: number[][] = [[0, 0, a.length, 0, b.length]];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item[0] === 1) {
      const [, i, j, len] = item as [number, number, number, number];
      for (let k = 0; k < len; k++) out.push(i + k, j + k);
      continue;
    }
    const [, , a1, , b1] = item as [number, number, number, number, number];
    let a0 = item[1]!;
    let b0 = item[3]!;
    while (a0 < a1 && b0 < b1 && a[a0] === b[b0] && a[a0]! >= 0) {
      out.push(a0++, b0++);
    }
    let sa = a1;
    let sb = b1;
    while (sa > a0 && sb > b0 && a[sa - 1] === b[sb - 1] && a[sa - 1]! >= 0) {
      sa--;
      sb--;
    }
    if (sa < a1) stack.push([1, sa, sb, a1 - sa]);
    if (a0 === sa || b0 === sb) continue;
    budget.work -= sa - a0 + (sb - b0);
    const anchors = budget.work > 0 ? uniqueAnchors(a, a0, sa, b, b0, sb, budget) : [];
    if (anchors.length > 0) {
      // Push right to left so the leftmost range is aligned (and emitted) first.
      let hiA = sa;
      let hiB = sb;
      for (let k = anchors.length - 2; k >= 0; k -= 2) {
        const i = anchors[k]!;
        const j = anchors[k + 1]!;
        if (i + 1 < hiA || j + 1 < hiB) stack.push([0, i + 1, hiA, j + 1, hiB]);
        stack.push([1, i, j, 1]);
        hiA = i;
        hiB = j;
      }
      if (a0 < hiA || b0 < hiB) stack.push([0, a0, hiA, b0, hiB]);
      continue;
    }
    const pairs = myers(a, a0, sa, b, b0, sb, budget);
    if (pairs !== null) {
      for (let k = 0; k < pairs.length; k++) out.push(pairs[k]!);
      continue;
    }
    budget.coarse += sa - a0 + (sb - b0);
    coarse(a, a0, sa, b, b0, sb, out);
  }
  return out;
}

/**
 * Keys that occur once in `a[a0, a1)` and once in `b[b0, b1)`, matched
 * along their longest increasing run (patience sorting): flat pairs.
 */
function uniqueAnchors(
  a: ArrayLike<number>,
  a0: number,
  a1: number,
  b: ArrayLike<number>,
  b0: number,
  b1: number,
  budget: AlignBudget,
): number[] {
  for (let i = a0; i < a1; i++) {
    const k = a[i]!;
    if (k < 0) continue;
    ensureKeys(budget, k);
    budget.countA[k]!++;
  }
  for (let j = b0; j < b1; j++) {
    const k = b[j]!;
    if (k < 0) continue;
    ensureKeys(budget, k);
    budget.countB[k]!++;
    budget.posB[k] = j;
  }
  const { countA, countB, posB } = budget;
  // Candidates in a's order; their b positions' longest increasing run.
  const candA: number[] = [];
  const candB: number[] = [];
  for (let i = a0; i < a1; i++) {
    const k = a[i]!;
    if (k >= 0 && countA[k] === 1 && countB[k] === 1) {
      candA.push(i);
      candB.push(posB[k]!);
    }
  }
  for (let i = a0; i < a1; i++) if (a[i]! >= 0) countA[a[i]!] = 0;
  for (let j = b0; j < b1; j++) if (b[j]! >= 0) countB[b[j]!] = 0;
  if (candA.length === 0) return [];
  // Patience sorting: tails[t] = candidate ending the best run of length t+1.
  const tails: number[] = [];
  const prev = new Int32Array(candA.length);
  for (let c = 0; c < candA.length; c++) {
    const v = candB[c]!;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (candB[tails[mid]!]! < v) lo = mid + 1;
      else hi = mid;
    }
    prev[c] = lo > 0 ? tails[lo - 1]! : -1;
    tails[lo] = c;
  }
  const run: number[] = new Array<number>(tails.length * 2);
  for (let c = tails[tails.length - 1]!, t = tails.length - 1; c >= 0; c = prev[c]!, t--) {
    run[2 * t] = candA[c]!;
    run[2 * t + 1] = candB[c]!;
  }
  return run;
}

/**
 * Myers' greedy LCS of `a[a0, a1)` and `b[b0, b1)`, flat pairs in order, or
 * `null` when the edit distance passes the cap (`maxEdits`, and what the
 * work budget still allows for a stretch this long).
 */
function myers(
  a: ArrayLike<number>,
  a0: number,
  a1: number,
  b: ArrayLike<number>,
  b0: number,
  b1: number,
  budget: AlignBudget,
): number[] | null {
  const n = a1 - a0;
  const m = b1 - b0;
  const span = n + m;
  const max = Math.min(span, budget.maxEdits, Math.floor(Math.max(0, budget.work) / span));
  if (max <= 0) return null;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  // trace[d]: v[offset-d-1 .. offset+d+1] as it was before round d.
  const trace: Int32Array[] = [];
  let found = -1;
  let work = 0;
  for (let d = 0; d <= max && found < 0; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)
          ? v[offset + k + 1]!
          : v[offset + k - 1]! + 1;
      let y = x - k;
      const x0 = x;
      while (x < n && y < m && a[a0 + x] === b[b0 + y] && a[a0 + x]! >= 0) {
        x++;
        y++;
      }
      work += 1 + x - x0;
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  budget.work -= work;
  if (found < 0) return null;
  // Walk back from (n, m), collecting the diagonal moves (the matches).
  const rev: number[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const prev = trace[d]!;
    const at = (k: number) => prev[k + d + 1]!;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const pk = down ? k + 1 : k - 1;
    const px = at(pk);
    const py = px - pk;
    // The snake after the edit: from (px, py) plus the edit, to (x, y).
    const sx = down ? px : px + 1;
    const sy = sx - k;
    while (x > sx && y > sy) {
      rev.push(a0 + x - 1, b0 + y - 1);
      x--;
      y--;
    }
    x = px;
    y = py;
  }
  while (x > 0 && y > 0) {
    rev.push(a0 + x - 1, b0 + y - 1);
    x--;
    y--;
  }
  const out: number[] = new Array<number>(rev.length);
  for (let p = 0; p < rev.length; p += 2) {
    out[rev.length - 2 - p] = rev[p]!;
    out[rev.length - 1 - p] = rev[p + 1]!;
  }
  return out;
}

/**
 * The coarse alignment: walks both stretches together, matching equal keys
 * and looking up to {@link LOOKAHEAD} elements ahead on either side for the
 * next match. Linear time; no optimality.
 */
function coarse(
  a: ArrayLike<number>,
  a0: number,
  a1: number,
  b: ArrayLike<number>,
  b0: number,
  b1: number,
  out: number[],
): void {
  let i = a0;
  let j = b0;
  while (i < a1 && j < b1) {
    if (a[i] === b[j] && a[i]! >= 0) {
      out.push(i++, j++);
      continue;
    }
    let skipA = -1;
    let skipB = -1;
    for (let t = 1; t <= LOOKAHEAD; t++) {
      if (j + t < b1 && a[i] === b[j + t] && a[i]! >= 0) {
        skipB = t;
        break;
      }
      if (i + t < a1 && a[i + t] === b[j] && b[j]! >= 0) {
        skipA = t;
        break;
      }
    }
    if (skipB > 0) j += skipB;
    else if (skipA > 0) i += skipA;
    else {
      i++;
      j++;
    }
  }
}
