// Properties of diffRuns over random runs: a run against itself is all
// `same`; the rows are an edit script that turns A's steps into B's; swapping
// the runs swaps the one-sided rows and keeps the divergence point.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffRuns, type RunDiffResult } from '../../src/index.js';
import { run, type RunBuilder } from './helpers/run-builder.js';

type Spec =
  | { t: 'model'; text: number; calls: string[] }
  | { t: 'tool'; fn: string; arg: number; ok: boolean }
  | { t: 'msg'; text: number }
  | { t: 'agent'; name: string; body: Spec[] };

const FNS = ['bash', 'read', 'grep'];

const { spec } = fc.letrec<{ spec: Spec; list: Spec[] }>((tie) => ({
  spec: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({
      t: fc.constant('model' as const),
      text: fc.integer({ min: 0, max: 2 }),
      calls: fc.subarray(FNS),
    }),
    fc.record({
      t: fc.constant('tool' as const),
      fn: fc.constantFrom(...FNS),
      arg: fc.integer({ min: 0, max: 3 }),
      ok: fc.boolean(),
    }),
    fc.record({ t: fc.constant('msg' as const), text: fc.integer({ min: 0, max: 2 }) }),
    fc.record({
      t: fc.constant('agent' as const),
      name: fc.constantFrom('x', 'y'),
      body: tie('list'),
    }),
  ),
  list: fc.array(tie('spec'), { maxLength: 6 }),
}));
const runSpec = fc.array(spec, { maxLength: 10 });

function build(r: RunBuilder, specs: readonly Spec[]): void {
  for (const s of specs) {
    switch (s.t) {
      case 'model':
        r.model(`text ${s.text}`, { calls: s.calls });
        break;
      case 'tool':
        r.tool(s.fn, { arg: s.arg }, s.ok ? 'ok' : '', s.ok ? {} : { error: 'failed' });
        break;
      case 'msg':
        r.message('user', `message ${s.text}`);
        break;
      case 'agent':
        r.span(s.name, 'agent', (x) => build(x, s.body));
        break;
    }
  }
}

const make = (prefix: string, specs: readonly Spec[], start?: number) =>
  run(prefix, (r) => build(r, specs), start);

/** The lowest common ancestor of steps `x` and `y`, or -1. */
function lca(diff: RunDiffResult, x: number, y: number): number {
  const steps = diff.b.steps;
  const seen = new Set<number>();
  for (let p = x; p >= 0; p = steps[p]!.parent) seen.add(p);
  for (let p = y; p >= 0; p = steps[p]!.parent) if (seen.has(p)) return p;
  return -1;
}

describe('diffRuns properties', () => {
  it('a run against the same steps under other ids and times is all `same`', () => {
    fc.assert(
      fc.property(runSpec, (specs) => {
        const diff = diffRuns(
          make('a', specs),
          make('b', specs, Date.parse('2027-01-01T00:00:00Z')),
        );
        expect(diff.identical).toBe(true);
        expect(diff.firstDivergence).toBeNull();
        expect(diff.rows.map((r) => [r.a, r.b])).toEqual(
          diff.a.steps.map((s) => [s.index, s.index]),
        );
      }),
      { numRuns: 60 },
    );
  });

  it("applying the rows as an edit script to A's steps gives B's", () => {
    fc.assert(
      fc.property(runSpec, runSpec, (sa, sb) => {
        const diff = diffRuns(make('a', sa), make('b', sb));
        // Keep A's steps that are `same` or `changed` (as B has them), drop
        // `only-a`, insert `only-b`: what comes out is B's steps…
        const out: number[] = [];
        const kept: number[] = [];
        for (const row of diff.rows) {
          if (row.a !== null) kept.push(row.a);
          if (row.b !== null) out.push(row.b);
          // (A turn's label is its number in the run.)
          if (row.status === 'same' && diff.a.steps[row.a!]!.kind !== 'turn') {
            expect(diff.b.steps[row.b!]!.label).toBe(diff.a.steps[row.a!]!.label);
          }
        }
        // …each once, in B's order, except calls of one turn (unordered)…
        expect([...out].sort((x, y) => x - y)).toEqual(diff.b.steps.map((s) => s.index));
        for (let k = 1; k < out.length; k++) {
          if (out[k]! < out[k - 1]!) {
            expect(diff.b.steps[lca(diff, out[k]!, out[k - 1]!)]?.kind).toBe('turn');
          }
        }
        // …and every step of A was read once, in order.
        expect(kept).toEqual(diff.a.steps.map((s) => s.index));
      }),
      { numRuns: 100 },
    );
  });

  it('swapping A and B swaps the one-sided rows and keeps the divergence point', () => {
    fc.assert(
      fc.property(runSpec, runSpec, (sa, sb) => {
        const a = make('a', sa);
        const b = make('b', sb);
        const ab = diffRuns(a, b);
        const ba = diffRuns(b, a);
        expect(ba.counts).toEqual({
          same: ab.counts.same,
          changed: ab.counts.changed,
          onlyA: ab.counts.onlyB,
          onlyB: ab.counts.onlyA,
        });
        expect(ba.firstDivergence?.row).toBe(ab.firstDivergence?.row);
        // The same pairs, and the same steps on one side only.
        const key = (d: RunDiffResult, swap: boolean) =>
          d.rows
            .map((r) => {
              const [x, y] = swap ? [r.b, r.a] : [r.a, r.b];
              const status =
                r.status === 'only-a'
                  ? swap
                    ? 'B'
                    : 'A'
                  : r.status === 'only-b'
                    ? swap
                      ? 'A'
                      : 'B'
                    : r.status;
              return `${x}:${y}:${status}`;
            })
            .sort();
        expect(key(ba, true)).toEqual(key(ab, false));
      }),
      { numRuns: 100 },
    );
  });
});
