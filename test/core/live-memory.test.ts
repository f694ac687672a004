// A live view derives rows, counts, sums and span-tree views from every
// snapshot it renders, each going on from an earlier snapshot's (issue 21).
// Those carries must not chain: once a view has moved on, the snapshots it
// went on from must be collectable. A closure in `sectionCounts` once kept the
// previous snapshot's entry, and so every snapshot a live transcript ever
// counted (found in a heap snapshot of the viewer: 61 trees, 350 MB of
// columns at 300k events).
import { rowsContinued } from '../../src/core/list/carry.js';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  buildEventTree,
  buildSpanTreeView,
  buildTranscriptRows,
  createEventTreeBuilder,
  generateRun,
  sectionCounts,
  spanSummary,
  spanTreeRows,
  visibleRows,
  type EventTree,
  type Expansion,
} from '../../src/index.js';

// A collector this test can call (the flag only adds the `gc` global to
// contexts made after it is set).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const HIDDEN = new Set(['sample_init', 'logger', 'info']);
const COLLAPSED = new Set<string>();
const EXPANSION: Expansion = { all: true, except: new Set() };

/** Everything a transcript and a span tree derive from one snapshot. */
function deriveAll(tree: EventTree): number {
  const count = sectionCounts(tree, HIDDEN);
  let sum = 0;
  for (const span of tree.spans) {
    sum += count(span.index).shown + spanSummary(tree, span.index).events;
  }
  sum += buildTranscriptRows(tree, { collapsed: COLLAPSED, hiddenKinds: HIDDEN }).length;
  for (const mode of ['spans', 'events', 'outline'] as const) {
    sum += spanTreeRows(buildSpanTreeView(tree, { mode }), EXPANSION).length;
  }
  return sum + visibleRows(tree, COLLAPSED).length;
}

/** Lets the current job end (a WeakRef's target lives until then), then collects. */
async function collect(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
  }
}

describe('live views over many snapshots', () => {
  it('keep no snapshot alive once they have moved on from it', async () => {
    const run = generateRun({ seed: 7, events: 6_000 });
    const builder = createEventTreeBuilder();
    const earlier: WeakRef<EventTree>[] = [];
    let last: EventTree | null = null;
    let derived = 0;
    for (let at = 0; at < run.length;) {
      const end = Math.min(run.length, at + 150);
      for (; at < end; at++) builder.append(run[at]!);
      const tree = builder.getSnapshot();
      derived += deriveAll(tree);
      if (last !== null) earlier.push(new WeakRef(last));
      last = tree;
    }
    // The carries did go on from earlier snapshots (the chain this guards).
    expect(last!.change).toBeDefined();
    expect(earlier.length).toBeGreaterThan(30);
    expect(derived).toBeGreaterThan(0);
    await collect();
    const alive = earlier.filter((ref) => ref.deref() !== undefined).length;
    // The builder may hold its last snapshot to go on from; nothing older.
    expect(alive).toBeLessThanOrEqual(1);
    // The live snapshot still derives (its caches were not what kept it).
    expect(deriveAll(last!)).toBeGreaterThan(0);
  });

  it('go on from the last snapshot they saw when the snapshots between are gone', async () => {
    // A feed publishes more often than a list renders; nothing holds the
    // snapshots between, so they are collected. The views still go on from
    // the snapshot they last derived (changedSince), not from scratch.
    const run = generateRun({ seed: 11, events: 3_000, pendingRate: 0 });
    const builder = createEventTreeBuilder();
    const options = { collapsed: COLLAPSED, hiddenKinds: HIDDEN };
    let seen: EventTree | null = null;
    let continued = 0;
    let renders = 0;
    for (let at = 0, k = 0; at < run.length; k++) {
      const end = Math.min(run.length, at + 40);
      for (; at < end; at++) builder.append(run[at]!);
      const tree = builder.getSnapshot();
      if (k % 4 !== 3 && at < run.length) continue; // published, not rendered
      await collect();
      const rows = buildTranscriptRows(tree, options);
      if (seen !== null && rowsContinued(rows, buildTranscriptRows(seen, options)) > 0) {
        continued++;
      }
      const full = buildEventTree(run.slice(0, at));
      expect(Array.from(rows.node)).toEqual(Array.from(buildTranscriptRows(full, options).node));
      expect(deriveAll(tree)).toBe(deriveAll(full));
      seen = tree;
      renders++;
    }
    expect(renders).toBeGreaterThan(10);
    expect(continued).toBe(renders - 1);
  });
});
