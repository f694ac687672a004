import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EventStream,
  buildEventTree,
  createEventTreeBuilder,
  deepFreeze,
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
  step,
  wellFormedRun,
} from './helpers/tree-oracle.js';

/** Appends `arrivals` one by one, checking the snapshot against the batch build after every append. */
function checkEveryPrefix(arrivals: readonly Event[]): void {
  const builder = createEventTreeBuilder();
  for (let k = 0; k < arrivals.length; k++) {
    builder.append(arrivals[k]!);
    const expected = dumpTree(buildEventTree(latestVersions(arrivals.slice(0, k + 1))));
    expect(dumpTree(builder.getSnapshot())).toEqual(expected);
  }
}

const incremental = (arrivals: Event[]) =>
  dumpTree(createEventTreeBuilder({ events: arrivals }).getSnapshot());
const batch = (arrivals: Event[]) => dumpTree(buildEventTree(latestVersions(arrivals)));

describe('createEventTreeBuilder: same tree as buildEventTree', () => {
  it('for events in file order', () => {
    const events = generateRun({ seed: 4, events: 2000, pendingRate: 0 });
    expect(incremental(events)).toEqual(dumpTree(buildEventTree(events)));
  });

  it('for a generated live feed with pending copies (same as EventStream.latest())', () => {
    const feed = generateRun({ seed: 9, events: 2000, pendingRate: 0.3 });
    const latest = EventStream.from(feed.map((e) => ({ ...e }))).latest();
    expect(incremental(feed)).toEqual(dumpTree(buildEventTree(latest)));
  });

  it('when children arrive before their span_begin', () =>
    checkEveryPrefix([
      info('e1', 'B'),
      begin('b2', 'B', 'A'),
      info('e2', 'A'),
      begin('b1', 'A'),
      end('x1', 'A'),
    ]));

  it('when a span_end arrives before its span_begin, and twice', () =>
    checkEveryPrefix([
      end('x1', 'A'),
      end('x2', 'A'),
      info('e1', 'A'),
      begin('b1', 'A'),
      end('x3', 'A'),
    ]));

  it('when a parent cycle closes late', () =>
    checkEveryPrefix([
      begin('b1', 'A', 'C'),
      info('e1', 'A'),
      begin('b2', 'B', 'A'),
      begin('b3', 'C', 'B'),
      begin('b4', 'D', 'C'),
    ]));

  it('for duplicate span ids, self-parents and legacy steps', () =>
    checkEveryPrefix([
      begin('b1', 'A', 'A'),
      step('s1', 'begin', 'x', 'B'),
      info('e1', 'B'),
      begin('b2', 'A', 'B'),
      begin('b3', 'B'),
      step('s2', 'end', 'x', 'B'),
      step('s3', 'end', 'x', 'B'),
    ]));

  it('when a pending event is replaced by its final version in place', () => {
    const pending = info('m1', 'A', { pending: true } as Partial<Event>);
    const final = info('m1', 'A');
    const builder = createEventTreeBuilder({
      events: [begin('b1', 'A'), pending, info('e2', 'A')],
    });
    builder.append(final);
    const tree = builder.getSnapshot();
    expect(tree.events[1]).toBe(final);
    expect(builder.size).toBe(3);
  });

  it('shows the new name and type of a span or step re-sent with the same structure', () => {
    const first = begin('b1', 'A', null, 'first');
    const renamed = { ...begin('b1', 'A', null, 'renamed'), type: 'agent' };
    const stepFirst = step('s1', 'begin', 'solve', null);
    const stepRetyped = { ...step('s1', 'begin', 'solve', null), type: 'scorer' };
    const arrivals = [first, stepFirst, info('e1', 'A'), renamed, stepRetyped];
    checkEveryPrefix(arrivals);
    const builder = createEventTreeBuilder({ events: arrivals.slice(0, 3) });
    const before = builder.getSnapshot();
    expect(before.spans.map((s) => [s.name, s.type])).toEqual([
      ['first', 'first'],
      ['solve', 'solver'],
    ]);
    builder.append(renamed);
    builder.append(stepRetyped);
    const after = builder.getSnapshot();
    expect(after.spans.map((s) => [s.name, s.type, s.begin])).toEqual([
      ['renamed', 'agent', renamed],
      ['solve', 'scorer', stepRetyped],
    ]);
  });

  it('ignores a stale pending copy that arrives after the final version', () => {
    const final = info('m1');
    const builder = createEventTreeBuilder({ events: [final] });
    const before = builder.getSnapshot();
    builder.append(info('m1', null, { pending: true } as Partial<Event>));
    expect(builder.getSnapshot()).toBe(before);
    expect(builder.getSnapshot().events[0]).toBe(final);
  });

  it('rebuilds when a new version moves an event to another span', () =>
    checkEveryPrefix([
      begin('b1', 'A'),
      begin('b2', 'B'),
      info('m1', 'A', { pending: true } as Partial<Event>),
      info('e1', 'A'),
      info('m1', 'B'),
    ]));

  it('over random arrival orders of well-formed runs (property)', () =>
    fc.assert(
      fc.property(
        wellFormedRun.chain((events) => liveFeed(events)),
        (arrivals) => {
          expect(incremental(arrivals)).toEqual(batch(arrivals));
        },
      ),
      { numRuns: 300 },
    ));

  it('over random arrival orders of malformed runs, with restructuring copies (property)', () =>
    fc.assert(
      fc.property(
        malformedRun.chain((events) => liveFeed(events, true)),
        (arrivals) => {
          expect(incremental(arrivals)).toEqual(batch(arrivals));
        },
      ),
      { numRuns: 500 },
    ));

  it('after every single append of a random feed (property)', () =>
    fc.assert(
      fc.property(
        malformedRun.chain((events) => liveFeed(events, true)),
        (arrivals) => {
          checkEveryPrefix(arrivals);
        },
      ),
      { numRuns: 100 },
    ));
});

/**
 * Every column, event object and span object of `actual` is what the batch
 * build of the same events gives (`dumpTree` compares uuids only; a live
 * tree must show the newest version of each event).
 */
function expectSameTree(actual: EventTree, expected: EventTree): void {
  expect(actual.length).toBe(expected.length);
  expect(actual.events.length).toBe(expected.length);
  expect(Array.from(actual.depth)).toEqual(Array.from(expected.depth));
  expect(Array.from(actual.parentIndex)).toEqual(Array.from(expected.parentIndex));
  expect(Array.from(actual.subtreeEnd)).toEqual(Array.from(expected.subtreeEnd));
  expect(Array.from(actual.spanIndex)).toEqual(Array.from(expected.spanIndex));
  expect(actual.rootCount).toBe(expected.rootCount);
  for (let i = 0; i < expected.length; i++) {
    if (actual.events[i] !== expected.events[i]) {
      throw new Error(`node ${i}: ${actual.events[i]!.uuid} is not the newest version`);
    }
  }
  expect(actual.spans.length).toBe(expected.spans.length);
  expect(Object.isFrozen(actual.spans)).toBe(true);
  actual.spans.forEach((span, k) => {
    const want = expected.spans[k]!;
    expect({ ...span, begin: null, end: null }).toEqual({ ...want, begin: null, end: null });
    expect(span.begin).toBe(want.begin);
    expect(span.end).toBe(want.end);
  });
  expect(actual.diagnostics).toEqual(expected.diagnostics);
}

describe('createEventTreeBuilder: resumed flattens (issue 21)', () => {
  // A live tree is flattened again after every batch, resuming where the
  // batch first changed it: each snapshot must still be the batch build.
  it('equals the batch build after every batch of a generated live feed', () => {
    const feed = deepFreeze(generateRun({ seed: 21, events: 4000, pendingRate: 0.3 }));
    const builder = createEventTreeBuilder();
    let at = 0;
    let batch = 1;
    let snapshots = 0;
    while (at < feed.length) {
      // Batches of 1 to 64 events, in a fixed pseudo-random order.
      batch = (batch * 37 + 11) % 64;
      const end = Math.min(feed.length, at + batch + 1);
      for (; at < end; at++) builder.append(feed[at]!);
      expectSameTree(builder.getSnapshot(), buildEventTree(latestVersions(feed.slice(0, at))));
      snapshots++;
    }
    expect(snapshots).toBeGreaterThan(100);
  });

  it('equals the batch build after every append of a random feed (property)', () =>
    fc.assert(
      fc.property(
        malformedRun.chain((events) => liveFeed(events, true)),
        (arrivals) => {
          const builder = createEventTreeBuilder();
          for (let k = 0; k < arrivals.length; k++) {
            builder.append(arrivals[k]!);
            const expected = buildEventTree(latestVersions(arrivals.slice(0, k + 1)));
            expectSameTree(builder.getSnapshot(), expected);
          }
        },
      ),
      { numRuns: 200 },
    ));

  it('shows a pending event replaced by its final version early in a large tree', () => {
    const run = deepFreeze(generateRun({ seed: 3, events: 1500, pendingRate: 0 }));
    const builder = createEventTreeBuilder({ events: run });
    builder.getSnapshot();
    // A late copy of an early event (same structure) and a new end for the
    // first span that has one.
    const early = run.find((e) => e.event === 'model')!;
    const final = deepFreeze({ ...early, timestamp: '2030-01-01T00:00:00Z' });
    builder.append(final);
    const firstEnd = run.find((e) => e.event === 'span_end')!;
    const newEnd = deepFreeze({ ...firstEnd, timestamp: '2030-01-01T00:00:01Z' });
    builder.append(newEnd);
    const late = info('late');
    builder.append(late);
    const tree = builder.getSnapshot();
    expectSameTree(tree, buildEventTree(latestVersions([...run, final, newEnd, late])));
    expect(tree.events[tree.events.findIndex((e) => e.uuid === early.uuid)]).toBe(final);
    const span = tree.spans.find((s) => s.end?.uuid === firstEnd.uuid)!;
    expect(span.end).toBe(newEnd);
  });
});

describe('createEventTreeBuilder: store contract', () => {
  it('returns the same snapshot until something changes', () => {
    const builder = createEventTreeBuilder({ events: [info('e1')] });
    const a = builder.getSnapshot();
    expect(builder.getSnapshot()).toBe(a);
    builder.append(info('e2'));
    expect(builder.getSnapshot()).not.toBe(a);
  });

  it('does not change when the same event object is appended again', () => {
    const e = info('e1');
    const builder = createEventTreeBuilder({ events: [e] });
    const a = builder.getSnapshot();
    builder.append(e);
    expect(builder.getSnapshot()).toBe(a);
  });

  it('notifies subscribers once per microtask and stops after unsubscribe', async () => {
    const builder = createEventTreeBuilder();
    let calls = 0;
    const stop = builder.subscribe(() => calls++);
    builder.append(info('e1'));
    builder.appendAll([info('e2'), info('e3')]);
    await Promise.resolve();
    expect(calls).toBe(1);
    stop();
    stop();
    builder.append(info('e4'));
    await Promise.resolve();
    expect(calls).toBe(1);
  });

  it('does not notify when an append changes nothing', async () => {
    const final = info('e1');
    const builder = createEventTreeBuilder({ events: [final] });
    const before = builder.getSnapshot();
    let calls = 0;
    builder.subscribe(() => calls++);
    // A stale pending copy (EventStream.latest() ignores it) and the same object again.
    builder.append(info('e1', undefined, { pending: true }));
    builder.append(final);
    await Promise.resolve();
    expect(calls).toBe(0);
    expect(builder.getSnapshot()).toBe(before);
    expect(builder.size).toBe(1);
    builder.append(info('e2'));
    await Promise.resolve();
    expect(calls).toBe(1);
    expect(builder.getSnapshot()).not.toBe(before);
  });

  it('reports the size of what was appended before the snapshot is taken', () => {
    const builder = createEventTreeBuilder();
    for (let k = 0; k < 1500; k++) builder.append(info(`e${k % 1000}`));
    expect(builder.size).toBe(1000);
    expect(builder.getSnapshot().length).toBe(1000);
  });

  it('shows in the next snapshot what reading its size processed', () => {
    const builder = createEventTreeBuilder({ events: [info('e1')] });
    const before = builder.getSnapshot();
    builder.append(info('e2'));
    expect(builder.size).toBe(2);
    expect(builder.getSnapshot()).not.toBe(before);
    expect(builder.getSnapshot().length).toBe(2);
  });

  it('finds every uuid again after its index grew, and keeps new versions in place', () => {
    // 5,000 uuids grow the index twice (it starts at 2,048 buckets, at most half full).
    const first = Array.from({ length: 5000 }, (_, k) =>
      info(`evt-${k}`, undefined, { pending: true }),
    );
    const final = first.map((e) => info(e.uuid));
    const builder = createEventTreeBuilder({ events: first });
    expect(builder.size).toBe(5000);
    builder.appendAll(final.slice().reverse());
    expect(builder.size).toBe(5000);
    const tree = builder.getSnapshot();
    expect(tree.events).toEqual(final);
    expect(dumpTree(tree)).toEqual(dumpTree(buildEventTree(final)));
  });

  it('can be read through its bound getSnapshot and subscribe, as useSyncExternalStore does', async () => {
    const builder = createEventTreeBuilder();
    const { getSnapshot, subscribe } = builder;
    let calls = 0;
    const stop = subscribe(() => calls++);
    builder.append(info('e1'));
    await Promise.resolve();
    expect(calls).toBe(1);
    expect(getSnapshot().length).toBe(1);
    expect(getSnapshot()).toBe(builder.getSnapshot());
    stop();
  });

  it('reuses the span objects of the last snapshot that did not change', () => {
    const builder = createEventTreeBuilder({
      events: [begin('b1', 'A', null), info('e1', 'A'), end('x1', 'A'), begin('b2', 'B', null)],
    });
    const first = builder.getSnapshot();
    builder.append(info('e2', 'B'));
    const second = builder.getSnapshot();
    // A is untouched: the same object. B gained a child: a new one.
    expect(second.spans[0]).toBe(first.spans[0]);
    expect(second.spans[1]).not.toBe(first.spans[1]);
    expect(second.spans[1]!.childCount).toBe(1);
    expect(first.spans[1]!.childCount).toBe(0);
    // A span whose end arrives is a new object too.
    builder.append(end('x2', 'B'));
    const third = builder.getSnapshot();
    expect(third.spans[1]).not.toBe(second.spans[1]);
    expect(third.spans[1]!.end?.uuid).toBe('x2');
    expect(dumpTree(third)).toEqual(
      dumpTree(
        buildEventTree(
          latestVersions([
            begin('b1', 'A', null),
            info('e1', 'A'),
            end('x1', 'A'),
            begin('b2', 'B', null),
            info('e2', 'B'),
            end('x2', 'B'),
          ]),
        ),
      ),
    );
  });

  it('never mutates appended events (deep-frozen)', () => {
    const events = deepFreeze(generateRun({ seed: 6, events: 500, pendingRate: 0.3 }));
    const builder = createEventTreeBuilder();
    expect(() => builder.appendAll(events)).not.toThrow();
    expect(builder.getSnapshot().length).toBeGreaterThan(0);
  });
});
