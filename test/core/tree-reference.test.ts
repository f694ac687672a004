// Differential tests (STYLE §14): the single-pass builders of src/core/tree
// (rewritten for speed, issue 4 "Performance") against the first versions,
// kept in helpers/tree-reference.ts. Every column, every span object and every
// diagnostic must be identical, not just the tree's shape.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildEventTree,
  createEventTreeBuilder,
  generateRun,
  type Event,
  type EventTree,
} from '../../src/index.js';
import {
  begin,
  dumpTree,
  end,
  info,
  latestVersions,
  liveFeed,
  malformedRun,
  oracleDump,
  step,
  wellFormedRun,
} from './helpers/tree-oracle.js';
import { referenceBuildEventTree, referenceIncrementalTree } from './helpers/tree-reference.js';

/** Everything a tree holds, as plain data. */
function whole(tree: EventTree) {
  return {
    length: tree.length,
    events: [...tree.events],
    depth: Array.from(tree.depth),
    parentIndex: Array.from(tree.parentIndex),
    subtreeEnd: Array.from(tree.subtreeEnd),
    spanIndex: Array.from(tree.spanIndex),
    spans: tree.spans.map((s) => ({ ...s })),
    rootCount: tree.rootCount,
    diagnostics: tree.diagnostics.map((d) => ({ ...d })),
    keys: tree.keys === undefined ? undefined : [...tree.keys],
    twin: tree.twin === undefined ? undefined : Array.from(tree.twin),
  };
}

/**
 * Whether the first versions read `events` as the builders do now: they kept
 * the first begin of a span id begun twice, and the first of two ends, where
 * the builders now follow inspect (copies, last end). Such runs are checked
 * against the nested oracle instead (written from the rules as they are now).
 */
function sameRulesAsFirstVersions(events: readonly Event[]): boolean {
  const begun = new Set<string>();
  const ended = new Set<string>();
  for (const e of events) {
    const id = (e as Event & { id?: string }).id!;
    if (e.event === 'span_begin') {
      if (begun.has(id)) return false;
      begun.add(id);
    } else if (e.event === 'span_end') {
      if (ended.has(id)) return false;
      ended.add(id);
    }
  }
  return true;
}

function checkBatch(events: readonly Event[]): void {
  if (!sameRulesAsFirstVersions(events)) {
    expect(dumpTree(buildEventTree(events))).toEqual(oracleDump(events));
    return;
  }
  expect(whole(buildEventTree(events))).toEqual(whole(referenceBuildEventTree(events)));
}

function checkIncremental(arrivals: readonly Event[]): void {
  const latest = latestVersions(arrivals);
  if (!sameRulesAsFirstVersions(latest)) {
    // The live builder against a batch build of the same input, and that against the oracle.
    const batch = buildEventTree(latest);
    expect(whole(createEventTreeBuilder({ events: arrivals }).getSnapshot())).toEqual(whole(batch));
    expect(dumpTree(batch)).toEqual(oracleDump(latest));
    return;
  }
  const expected = whole(referenceIncrementalTree(arrivals));
  expect(whole(createEventTreeBuilder({ events: arrivals }).getSnapshot())).toEqual(expected);
  // And the batch build of the same input, both ways.
  expect(whole(buildEventTree(latest))).toEqual(expected);
}

/** `n` events in `n / 4` spans, each span's events before its begin (all wait, then move). */
function childrenFirst(n: number): Event[] {
  const out: Event[] = [];
  for (let s = 0; out.length < n; s++) {
    out.push(info(`e${s}a`, `S${s}`), info(`e${s}b`, `S${s}`), end(`x${s}`, `S${s}`));
    out.push(begin(`b${s}`, `S${s}`, s > 0 ? `S${s - 1}` : null));
  }
  return out;
}

describe('single-pass builders: identical to the first versions', () => {
  it('on generated runs (batch)', () => {
    for (const seed of [1, 2, 3]) checkBatch(generateRun({ seed, events: 3000, pendingRate: 0 }));
  });

  it('on generated live feeds with pending copies (incremental)', () => {
    for (const seed of [1, 2])
      checkIncremental(generateRun({ seed, events: 3000, pendingRate: 0.3 }));
  });

  it('when every event arrives before its span, across table growth', () => {
    checkBatch(childrenFirst(5000));
    checkIncremental(childrenFirst(5000));
  });

  it('with duplicate ids, self-parents, late cycles and steps', () => {
    const events = [
      begin('b1', 'A', 'C'),
      step('s1', 'begin', 'x', 'B'),
      info('e1', 'B'),
      begin('b2', 'B', 'A'),
      begin('b3', 'C', 'B'),
      begin('b4', 'A', 'A'),
      begin('b5', 'D', 'D'),
      step('s2', 'end', 'x', 'B'),
      step('s3', 'end', 'x', 'B'),
      end('x1', 'A'),
      end('x2', 'A'),
      end('x3', 'Z'),
    ];
    checkBatch(events);
    checkIncremental(events);
  });

  it('finds re-emitted versions after the uuid table has grown', () => {
    const events = generateRun({ seed: 5, events: 6000, pendingRate: 0 });
    // Pending copies of early events first, then everything (finals replace them in place).
    const pending = events.slice(0, 50).map((e) => ({ ...e, pending: true }) as Event);
    const arrivals = [...pending, ...events, ...pending];
    checkIncremental(arrivals);
    expect(createEventTreeBuilder({ events: arrivals }).size).toBe(events.length);
  });

  it('keeps spans apart whose ids share a recent-span cache entry', () => {
    // Same first and last character and length: every id lands in one entry
    // of the recent-span cache, so lookups alternate between hits and misses.
    const ids = Array.from({ length: 40 }, (_, k) => `s${String(k).padStart(3, '0')}x`);
    const events: Event[] = [begin('root', 'R', null)];
    ids.forEach((id, k) => events.push(begin(`b${k}`, id, k % 3 === 0 ? 'R' : ids[k - 1]!)));
    // Children interleaved across all spans, then ends in reverse.
    for (let round = 0; round < 5; round++) {
      ids.forEach((id, k) => events.push(info(`e${round}-${k}`, id)));
    }
    ids.forEach((id, k) => events.push(end(`x${k}`, ids[ids.length - 1 - k]!)));
    checkBatch(events);
    checkIncremental(events);
    const tree = buildEventTree(events);
    for (const span of tree.spans) {
      if (span.id !== 'R') expect(span.childCount).toBeGreaterThanOrEqual(5);
    }
  });

  it('matches with snapshots taken between appends, across queue chunks', () => {
    const events = generateRun({ seed: 8, events: 5000, pendingRate: 0.2 });
    const builder = createEventTreeBuilder();
    const cuts = [1, 511, 512, 513, 1024, 1500, 2047, 4096, events.length];
    let from = 0;
    for (const cut of cuts) {
      for (let k = from; k < cut; k++) builder.append(events[k]!);
      from = cut;
      expect(whole(builder.getSnapshot())).toEqual(
        whole(referenceIncrementalTree(events.slice(0, cut))),
      );
    }
  });

  it('over random well-formed runs and arrival orders (property)', () =>
    fc.assert(
      fc.property(
        wellFormedRun.chain((events) => fc.tuple(fc.constant(events), liveFeed(events))),
        ([events, arrivals]) => {
          checkBatch(events);
          checkIncremental(arrivals);
        },
      ),
      { numRuns: 200 },
    ));

  it('over random malformed runs and restructuring feeds (property)', () =>
    fc.assert(
      fc.property(
        malformedRun.chain((events) => fc.tuple(fc.constant(events), liveFeed(events, true))),
        ([events, arrivals]) => {
          checkBatch(events);
          checkIncremental(arrivals);
        },
      ),
      { numRuns: 300 },
    ));
});
