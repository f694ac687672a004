import { describe, expect, it } from 'vitest';
import {
  DEFAULT_HIDDEN_KINDS,
  EventStream,
  buildEventTree,
  buildTranscriptRows,
  createEventTreeFeed,
  createTranscriptFind,
  deepFreeze,
  findMatchOffsets,
  formatEventHash,
  generateRun,
  parseEventHash,
  spanSummary,
  stepMatch,
  transcriptKeyAction,
  transcriptRowOf,
  transcriptRowOfEvent,
  visibleRows,
  type Event,
} from '../../src/index.js';
import { begin, end, info } from './helpers/tree-oracle.js';

const kind = (uuid: string, event: string, span: string | null = null): Event =>
  ({ ...info(uuid, span), event }) as Event;

/** A manual scheduler: tasks run only when the test says so. */
function manual() {
  const tasks: (() => void)[] = [];
  return {
    schedule: (task: () => void) => void tasks.push(task),
    runAll() {
      while (tasks.length > 0) tasks.shift()!();
    },
    get pending() {
      return tasks.length;
    },
  };
}

describe('transcript rows', () => {
  const events = deepFreeze([
    begin('b1', 'agent'),
    kind('e1', 'sample_init', 'agent'),
    info('e2', 'agent'),
    kind('e3', 'sandbox', 'agent'),
    begin('b2', 'tool', 'agent'),
    kind('e4', 'store', 'tool'),
    end('x2', 'tool'),
    end('x1', 'agent'),
    kind('e5', 'state'),
  ]);
  const tree = buildEventTree(events);
  const keys = (rows: ReturnType<typeof buildTranscriptRows>) =>
    Array.from(rows.node, (i) => tree.events[i]!.uuid);

  it('hides sample_init, sandbox, state and store by default and counts them', () => {
    const rows = buildTranscriptRows(tree);
    expect(keys(rows)).toEqual(['b1', 'e2', 'b2']);
    expect(rows.hiddenCount).toBe(4);
    expect(Object.fromEntries(rows.hiddenByKind)).toEqual({
      sample_init: 1,
      sandbox: 1,
      store: 1,
      state: 1,
    });
    expect([...DEFAULT_HIDDEN_KINDS].sort()).toEqual(['sample_init', 'sandbox', 'state', 'store']);
  });

  it('hides kinds no one knows by name, and kinds given by the caller', () => {
    const odd = deepFreeze([
      info('a'),
      kind('u1', 'acp_plan'),
      kind('u2', 'acp_plan'),
      kind('u3', 'other_thing'),
      kind('m1', 'model'),
    ]);
    const t = buildEventTree(odd);
    const rows = buildTranscriptRows(t, { hiddenKinds: new Set(['acp_plan', 'model']) });
    expect(Array.from(rows.node, (i) => t.events[i]!.uuid)).toEqual(['a', 'u3']);
    expect([...rows.hiddenByKind]).toEqual([
      ['model', 1],
      ['acp_plan', 2],
    ]);
    // The same tree after structuredClone (no builder data with it).
    const cloned = structuredClone(t);
    const again = buildTranscriptRows(cloned, { hiddenKinds: new Set(['acp_plan', 'model']) });
    expect(Array.from(again.node)).toEqual(Array.from(rows.node));
  });

  it('shows everything with an empty filter, as visibleRows does', () => {
    const rows = buildTranscriptRows(tree, { hiddenKinds: new Set() });
    expect(Array.from(rows.node)).toEqual(Array.from(visibleRows(tree, new Set()).node));
    expect(rows.hiddenCount).toBe(0);
  });

  it('keeps span headers when everything inside is hidden, and collapses sections', () => {
    const rows = buildTranscriptRows(tree, { collapsed: new Set(['agent']) });
    expect(keys(rows)).toEqual(['b1']);
    expect(rows.hasChildren[0]).toBe(1);
    expect(rows.expanded[0]).toBe(0);
    // Hidden counts cover collapsed sections too.
    expect(rows.hiddenCount).toBe(4);
    expect(transcriptRowOf(rows, 0)).toBe(0);
    expect(transcriptRowOf(rows, 2)).toBe(-1);
  });

  it('summarises a span: duration, tokens, errors, status', () => {
    const run = generateRun({ seed: 3, events: 400, pendingRate: 0 });
    const t = buildEventTree(run);
    const root = t.spans.find((s) => s.parentId === null && s.end !== null)!;
    const summary = spanSummary(t, root.index);
    expect(summary.status === 'ok' || summary.status === 'error').toBe(true);
    expect(summary.events).toBe(t.subtreeEnd[root.index]! - root.index - 1);
    expect(summary.durationMs).toBeGreaterThanOrEqual(0);
    const solvers = t.spans.find((s) => s.name === 'solvers')!;
    expect(spanSummary(t, solvers.index).tokens).toBeGreaterThan(0);
    const open = buildEventTree([begin('o', 'open'), info('i', 'open')]);
    expect(spanSummary(open, 0)).toMatchObject({ status: 'running', events: 1 });
    expect(spanSummary(open, 0).durationMs).toBeNaN();
  });
});

describe('find over every event', () => {
  const run = generateRun({ seed: 5, events: 3000, pendingRate: 0 });
  const tree = buildEventTree(run);

  it('finds what describeEvent.searchText holds, in slices, in tree order', () => {
    const m = manual();
    let clock = 0;
    const find = createTranscriptFind({
      schedule: m.schedule,
      now: () => (clock += 1),
      sliceMs: 5,
    });
    find.search('BASH', tree);
    expect(find.getSnapshot().done).toBe(false);
    expect(m.pending).toBe(1);
    m.runAll();
    const state = find.getSnapshot();
    expect(state.done).toBe(true);
    expect(state.scanned).toBe(tree.length);
    const found = state.matches.slice(0, state.count);
    expect(found.length).toBeGreaterThan(0);
    expect([...found].sort((a, b) => a - b)).toEqual(found);
    const sorted = [...found];
    // Slow oracle: the same test on every node.
    const oracleFind = createTranscriptFind({ schedule: () => {}, now: () => 0, sliceMs: 1e9 });
    oracleFind.search('bash', tree);
    expect(oracleFind.getSnapshot().matches.slice(0, oracleFind.getSnapshot().count)).toEqual(
      sorted,
    );
  });

  it('refines a longer query from the shorter one without re-describing misses', () => {
    let described = 0;
    const find = createTranscriptFind({
      searchText: (e) => {
        described++;
        return JSON.stringify(e);
      },
      schedule: () => {},
      now: () => 0,
      sliceMs: 1e9,
    });
    find.search('bas', tree);
    const first = described;
    const shorter = find.getSnapshot().count;
    expect(first).toBe(tree.length);
    expect(shorter).toBeGreaterThan(0);
    find.search('bash', tree);
    // Only the events that matched "bas" are looked at again.
    expect(described - first).toBe(shorter);
  });

  it('respects the include filter, clears on an empty query, and survives a throwing describer', () => {
    const find = createTranscriptFind({
      searchText: (e) => {
        if (e.uuid === 'boom') throw new Error('no');
        return e.event;
      },
      schedule: () => {},
      now: () => 0,
      sliceMs: 1e9,
    });
    const small = buildEventTree([info('a'), kind('b', 'store'), info('boom')]);
    find.search('info', small, (i) => small.events[i]!.event !== 'store');
    expect(find.getSnapshot().matches.slice(0, find.getSnapshot().count)).toEqual([0]);
    find.search('', small);
    expect(find.getSnapshot()).toMatchObject({ count: 0, done: true });
  });

  it('steps through matches with wrap-around', () => {
    const matches = [2, 5, 9];
    expect(stepMatch(matches, 3, -1, 1)).toBe(0);
    expect(stepMatch(matches, 3, 5, 1)).toBe(2);
    expect(stepMatch(matches, 3, 9, 1)).toBe(0);
    expect(stepMatch(matches, 3, 5, -1)).toBe(0);
    expect(stepMatch(matches, 3, 2, -1)).toBe(2);
    expect(stepMatch(matches, 3, 6, -1)).toBe(1);
    expect(stepMatch([], 0, 1, 1)).toBe(-1);
  });
});

describe('keyboard map', () => {
  it.each([
    [{ key: 'j' }, 'next'],
    [{ key: 'ArrowDown' }, 'next'],
    [{ key: 'k' }, 'previous'],
    [{ key: 'ArrowUp' }, 'previous'],
    [{ key: 'Home' }, 'first'],
    [{ key: 'End' }, 'last'],
    [{ key: 'PageDown' }, 'page-down'],
    [{ key: 'PageUp' }, 'page-up'],
    [{ key: 'PageDown', inFind: true, findOpen: true }, null],
    [{ key: 'PageDown', altKey: true }, null],
    [{ key: 'Enter' }, 'toggle'],
    [{ key: ' ' }, 'toggle'],
    [{ key: '/' }, 'find'],
    [{ key: 'f', ctrlKey: true }, 'find'],
    [{ key: 'f', metaKey: true, inFind: true }, 'find'],
    [{ key: 'Escape', findOpen: true }, 'close-find'],
    [{ key: 'Escape' }, null],
    [{ key: 'Enter', inFind: true, findOpen: true }, 'find-next'],
    [{ key: 'Enter', shiftKey: true, inFind: true, findOpen: true }, 'find-previous'],
    [{ key: 'j', inFind: true, findOpen: true }, null],
    [{ key: 'j', ctrlKey: true }, null],
    [{ key: 'x' }, null],
  ] as const)('%o → %s', (input, action) => {
    expect(transcriptKeyAction(input)).toBe(action);
  });
});

describe('#event= deep links', () => {
  it('reads and writes the event pair among others', () => {
    expect(parseEventHash('#event=abc')).toBe('abc');
    expect(parseEventHash('#tab=1&event=a%2Fb')).toBe('a/b');
    expect(parseEventHash('#tab=1')).toBeNull();
    expect(parseEventHash('#event=%E0%A4%A')).toBeNull();
    expect(formatEventHash('#tab=1', 'a/b')).toBe('#tab=1&event=a%2Fb');
    expect(formatEventHash('#event=x&tab=1', 'y')).toBe('#tab=1&event=y');
    expect(formatEventHash('#event=x', null)).toBe('');
    expect(parseEventHash(formatEventHash('', 'ü id'))).toBe('ü id');
  });
});

describe('transcript feed', () => {
  it('takes a first slice at once and the rest in slices, ending with the batch tree', () => {
    const run = generateRun({ seed: 2, events: 5000 });
    const m = manual();
    let clock = 0;
    const feed = createEventTreeFeed(run, {
      schedule: m.schedule,
      now: () => (clock += 1),
      sliceMs: 300,
      firstSlice: 500,
    });
    expect(feed.getSnapshot().taken).toBe(500);
    expect(feed.getSnapshot().loading).toBe(true);
    let published = 0;
    feed.subscribe(() => published++);
    m.runAll();
    const snap = feed.getSnapshot();
    expect(snap.loading).toBe(false);
    expect(snap.taken).toBe(5000);
    // Doubling: few publishes, not one per slice.
    expect(published).toBeLessThanOrEqual(5);
    const batch = buildEventTree(EventStream.from(run).latest());
    expect(snap.tree.events.map((e) => e.uuid)).toEqual(batch.events.map((e) => e.uuid));
  });

  it('follows an EventStream live, pending versions updating in place', async () => {
    const stream = new EventStream();
    stream.append(info('a'));
    // A clock that stands still: no snapshot seems to cost anything, so none
    // is held back (with the real clock, a loaded machine made one cost over
    // LIVE_MIN_COST_MS and this test flaky; holding back is tested below).
    const feed = createEventTreeFeed(stream, { schedule: () => {}, now: () => 0 });
    const stop = feed.subscribe(() => {});
    expect(feed.getSnapshot().tree.length).toBe(1);
    stream.append({ ...info('b'), pending: true });
    await Promise.resolve();
    expect(feed.getSnapshot().tree.length).toBe(2);
    stream.append({ ...info('b'), data: 'final' } as Event);
    await Promise.resolve();
    const tree = feed.getSnapshot().tree;
    expect(tree.length).toBe(2);
    expect(tree.events[1]!.pending).toBeUndefined();
    // Nobody listening: the stream is not followed; a new listener catches up.
    stop();
    stream.append(info('c'));
    await Promise.resolve();
    expect(feed.getSnapshot().tree.length).toBe(2);
    feed.subscribe(() => {});
    expect(feed.getSnapshot().tree.length).toBe(3);
    feed.dispose();
    stream.append(info('d'));
    await Promise.resolve();
    expect(feed.getSnapshot().tree.length).toBe(3);
  });

  it('takes an async iterable as it yields', async () => {
    async function* gen() {
      yield info('a');
      await new Promise((r) => setTimeout(r, 1));
      yield info('b');
    }
    const feed = createEventTreeFeed(gen(), { sliceMs: 50 });
    expect(feed.getSnapshot().loading).toBe(true);
    await new Promise<void>((resolve) => {
      const stop = feed.subscribe(() => {
        if (!feed.getSnapshot().loading) {
          stop();
          resolve();
        }
      });
    });
    expect(feed.getSnapshot().tree.events.map((e) => e.uuid)).toEqual(['a', 'b']);
  });

  it('keeps the error of an async source that throws, with what came before', async () => {
    async function* gen() {
      yield info('a');
      yield info('b');
      throw new Error('socket closed');
    }
    const feed = createEventTreeFeed(gen(), { sliceMs: 50 });
    await new Promise<void>((resolve) => {
      const stop = feed.subscribe(() => {
        if (!feed.getSnapshot().loading) {
          stop();
          resolve();
        }
      });
    });
    const snap = feed.getSnapshot();
    expect(snap.failed).toBe(true);
    expect((snap.error as Error).message).toBe('socket closed');
    expect(snap.tree.events.map((e) => e.uuid)).toEqual(['a', 'b']);
  });

  it('keeps the error of a sync iterable that throws', () => {
    function* gen() {
      yield info('a');
      throw new Error('bad line');
    }
    const m = manual();
    const feed = createEventTreeFeed(gen(), { schedule: m.schedule });
    const stop = feed.subscribe(() => {});
    m.runAll();
    const snap = feed.getSnapshot();
    expect(snap).toMatchObject({ failed: true, loading: false, taken: 1 });
    expect((snap.error as Error).message).toBe('bad line');
    stop();
  });

  it('pulls nothing and schedules nothing before the first subscribe', async () => {
    let pulls = 0;
    let returned = 0;
    const iterator: AsyncIterator<Event> & AsyncIterable<Event> = {
      next: () => Promise.resolve({ done: pulls > 2, value: info(`e${pulls++}`) }),
      return: () => {
        returned++;
        return Promise.resolve({ done: true, value: undefined });
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
    const m = manual();
    const feed = createEventTreeFeed(iterator, { schedule: m.schedule });
    expect(feed.getSnapshot()).toMatchObject({ taken: 0, loading: true, failed: false });
    // A thrown-away render: a second feed over the same iterator, never subscribed.
    createEventTreeFeed(iterator, { schedule: m.schedule }).getSnapshot();
    await new Promise((r) => setTimeout(r, 1));
    expect(pulls).toBe(0);
    expect(m.pending).toBe(0);
    const stop = feed.subscribe(() => {});
    // Unsubscribing and subscribing at once (StrictMode) keeps the iterator.
    stop();
    const stop2 = feed.subscribe(() => {});
    await new Promise((r) => setTimeout(r, 1));
    m.runAll();
    expect(returned).toBe(0);
    expect(feed.getSnapshot().tree.events.map((e) => e.uuid)).toEqual(['e0', 'e1', 'e2']);
    expect(feed.getSnapshot().loading).toBe(false);
    stop2();
    await Promise.resolve();
    await Promise.resolve();
    // Done already: nothing to return.
    expect(returned).toBe(0);
  });

  it('returns the iterator and stops its slices when the last subscriber leaves', async () => {
    let returned = 0;
    async function* gen() {
      try {
        for (let i = 0; ; i++) {
          yield info(`e${i}`);
          await new Promise((r) => setTimeout(r, 1));
        }
      } finally {
        returned++;
      }
    }
    const m = manual();
    const feed = createEventTreeFeed(gen(), { schedule: m.schedule });
    const stop = feed.subscribe(() => {});
    await new Promise((r) => setTimeout(r, 5));
    m.runAll();
    expect(feed.getSnapshot().taken).toBeGreaterThan(0);
    stop();
    await new Promise((r) => setTimeout(r, 10));
    expect(returned).toBe(1);
    const taken = feed.getSnapshot().taken;
    expect(feed.getSnapshot().loading).toBe(false);
    m.runAll();
    await new Promise((r) => setTimeout(r, 5));
    expect(feed.getSnapshot().taken).toBe(taken);
  });

  it('schedules no slices while nobody listens', () => {
    const m = manual();
    const feed = createEventTreeFeed(generateRun({ seed: 2, events: 3000 }), {
      schedule: m.schedule,
      firstSlice: 500,
    });
    expect(feed.getSnapshot().taken).toBe(500);
    expect(m.pending).toBe(0);
    const stop = feed.subscribe(() => {});
    expect(m.pending).toBe(1);
    stop();
    m.runAll();
    expect(m.pending).toBe(0);
    expect(feed.getSnapshot().loading).toBe(true);
    feed.subscribe(() => {});
    m.runAll();
    expect(feed.getSnapshot()).toMatchObject({ taken: 3000, loading: false });
  });
});

describe('find offsets agree with the find', () => {
  it('gives offsets into the text itself, even where lower-casing changes its length', () => {
    // 'İ'.toLowerCase() is two UTF-16 units: offsets found in the lowered
    // text were past the end of the node.
    expect('İİİİ foo'.toLowerCase().indexOf('foo')).toBe(9);
    expect(findMatchOffsets('İİİİ foo', 'foo')).toEqual([[5, 8]]);
    expect(findMatchOffsets('İİİİ FOO foo', 'Foo')).toEqual([
      [5, 8],
      [9, 12],
    ]);
    for (const [start, end] of findMatchOffsets('İstanbul İSTANBUL', 'stanbul')) {
      expect(end).toBeLessThanOrEqual('İstanbul İSTANBUL'.length);
      expect('İstanbul İSTANBUL'.slice(start, end).toLowerCase()).toBe('stanbul');
    }
    expect(findMatchOffsets('a.b a+b (x)', '(x)')).toEqual([[8, 11]]);
    expect(findMatchOffsets('a.b a+b', '.')).toEqual([[1, 2]]);
    expect(findMatchOffsets('aaaa', 'a', 2)).toHaveLength(2);
    expect(findMatchOffsets('anything', '')).toEqual([]);
  });

  it('counts exactly what it highlights', () => {
    const texts = ['İİİİ foo', 'İ', 'i̇', 'ΟΔΟΣ', 'straße STRASSE', 'FOO.bar', 'nothing'];
    const events = texts.map((t, i) => info(`x${i}`, null, { data: t } as Partial<Event>));
    const tree = buildEventTree(events);
    for (const query of ['foo', 'İ', 'i̇', 'i', 'σ', 'ß', 'o.b', 'x']) {
      const find = createTranscriptFind({
        searchText: (e) => String((e as { data?: unknown }).data),
        schedule: () => {},
        now: () => 0,
        sliceMs: 1e9,
      });
      find.search(query, tree);
      const state = find.getSnapshot();
      const found = state.matches.slice(0, state.count);
      const highlighted = texts.flatMap((t, i) =>
        findMatchOffsets(t, query).length > 0 ? [i] : [],
      );
      expect(found, query).toEqual(highlighted);
    }
  });
});

describe('the focused row', () => {
  it('is found in O(1) where it was, and by a scan only when it moved', () => {
    const tree = buildEventTree(Array.from({ length: 1000 }, (_, i) => info(`e${i}`)));
    const rows = buildTranscriptRows(tree);
    let reads = 0;
    const events = new Proxy(tree.events, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const counted = { ...tree, events } as typeof tree;
    expect(transcriptRowOfEvent(counted, rows, 'e700', 700)).toBe(700);
    expect(reads).toBe(1);
    reads = 0;
    // A stale hint: scan.
    expect(transcriptRowOfEvent(counted, rows, 'e700', 3)).toBe(700);
    expect(reads).toBeGreaterThan(700);
    expect(transcriptRowOfEvent(counted, rows, 'e700', 5000)).toBe(700);
    expect(transcriptRowOfEvent(counted, rows, 'nope', 1)).toBe(-1);
    expect(transcriptRowOfEvent(counted, rows, 'e2')).toBe(2);
  });
});

describe('transcript feed: live snapshots of a large run', () => {
  it('holds the next snapshot back for LIVE_RATIO × the cost of the last one', () => {
    const stream = new EventStream();
    stream.append(info('a'));
    let clock = 1000;
    const delayed: { task: () => void; ms: number }[] = [];
    const feed = createEventTreeFeed(stream, {
      schedule: () => {},
      now: () => clock,
      delay: (task, ms) => delayed.push({ task, ms }),
    });
    // Each publish "costs" 50 ms: the listener advances the clock.
    let published = 0;
    feed.subscribe(() => {
      published++;
      clock += 50;
    });
    stream.append(info('b'));
    return Promise.resolve().then(() => {
      // The first live change is published at once (no cost known yet)…
      expect(feed.getSnapshot().tree.length).toBe(2);
      const first = published;
      stream.append(info('c'));
      stream.append(info('d'));
      return Promise.resolve().then(() => {
        // …the next waits: 5 × 50 ms after the last one ended.
        expect(published).toBe(first);
        expect(feed.getSnapshot().tree.length).toBe(2);
        expect(delayed).toHaveLength(1);
        expect(delayed[0]!.ms).toBe(250);
        stream.append(info('e'));
        return Promise.resolve().then(() => {
          expect(delayed).toHaveLength(1);
          clock += 250;
          delayed[0]!.task();
          expect(published).toBe(first + 1);
          expect(feed.getSnapshot().tree.events.map((e) => e.uuid)).toEqual([
            'a',
            'b',
            'c',
            'd',
            'e',
          ]);
        });
      });
    });
  });

  it('tells listeners of a costly snapshot in a task of its own, and counts their render', async () => {
    const stream = new EventStream();
    stream.append(info('x'));
    // Every clock read inside the feed is `step` ms later: with a step, a
    // flatten (a read before and after it) "costs" that much.
    let step = 0;
    let clock = 0;
    const tasks: (() => void)[] = [];
    const delayed: { task: () => void; ms: number }[] = [];
    const feed = createEventTreeFeed(stream, {
      schedule: (task) => void tasks.push(task),
      now: () => (clock += step),
      delay: (task, ms) => delayed.push({ task, ms }),
    });
    let heard = 0;
    let render = 0;
    feed.subscribe(() => {
      heard++;
      clock += render; // the views' render
    });
    while (tasks.length > 0) tasks.shift()!();
    // A cheap snapshot: listeners are told at once.
    stream.append(info('w'));
    await Promise.resolve();
    expect(tasks).toHaveLength(0);
    const told = heard;
    expect(told).toBeGreaterThan(0);
    // A costly one (the flatten takes 10 ms, the render 30 ms)…
    step = 10;
    render = 30;
    stream.append(info('y'));
    await Promise.resolve();
    // …is made at once, but its listeners hear of it in the next task…
    expect(feed.getSnapshot().tree.length).toBe(3);
    expect(heard).toBe(told);
    expect(tasks).toHaveLength(1);
    tasks.shift()!();
    expect(heard).toBe(told + 1);
    // …and the task after that measures their render: the next snapshot
    // waits LIVE_RATIO × (flatten + render), not × the flatten alone.
    tasks.shift()!();
    step = 0;
    stream.append(info('z'));
    await Promise.resolve();
    expect(delayed).toHaveLength(1);
    expect(delayed[0]!.ms).toBeGreaterThanOrEqual(5 * (10 + 30));
  });

  it('publishes a live burst bigger than a slice once, when its last slice is taken', async () => {
    const stream = new EventStream();
    for (let k = 0; k < 3000; k++) stream.append(info(`e${k}`));
    // Every clock read is 5 ms later: a slice (8 ms) takes 512 events.
    let clock = 0;
    const tasks: (() => void)[] = [];
    const feed = createEventTreeFeed(stream, {
      schedule: (task) => void tasks.push(task),
      now: () => (clock += 5),
      sliceMs: 8,
    });
    const seen: { length: number; loading: boolean }[] = [];
    feed.subscribe(() => {
      const { tree, loading } = feed.getSnapshot();
      seen.push({ length: tree.length, loading });
    });
    // The history loads in slices (a backlog: "loading" until done).
    while (tasks.length > 0) tasks.shift()!();
    expect(seen.at(-1)).toEqual({ length: 3000, loading: false });
    seen.length = 0;
    // A live burst (not doubling the tree) is taken in slices too…
    for (let k = 3000; k < 5000; k++) stream.append(info(`e${k}`));
    await Promise.resolve();
    // …but its first slice is not published: a live view is not loading.
    expect(seen).toEqual([]);
    expect(tasks.length).toBe(1);
    while (tasks.length > 0) tasks.shift()!();
    expect(seen).toEqual([{ length: 5000, loading: false }]);
  });

  it('publishes every change at once while snapshots are cheap', async () => {
    const stream = new EventStream();
    const delayed: unknown[] = [];
    const feed = createEventTreeFeed(stream, {
      schedule: () => {},
      now: () => 0,
      delay: (task) => delayed.push(task),
    });
    let published = 0;
    feed.subscribe(() => published++);
    for (let k = 0; k < 5; k++) {
      stream.append(info(`e${k}`));
      await Promise.resolve();
    }
    expect(published).toBe(5);
    expect(delayed).toHaveLength(0);
  });

  it('publishes events taken while a snapshot was held as soon as a listener comes back', async () => {
    const stream = new EventStream();
    for (let k = 0; k < 10; k++) stream.append(info(`e${k}`));
    let clock = 0;
    const delayed: (() => void)[] = [];
    const feed = createEventTreeFeed(stream, {
      schedule: (task) => task(),
      now: () => clock,
      delay: (task) => void delayed.push(task),
    });
    // Each publish "costs" 10 ms: the listener advances the clock.
    let published = 0;
    const listener = () => {
      published++;
      clock += 10;
    };
    const length = () => feed.getSnapshot().tree.length;
    let unsubscribe = feed.subscribe(listener);
    expect(length()).toBe(10);
    // The first live change is published at once (no cost known yet)…
    stream.append(info('e10'));
    await Promise.resolve();
    expect(length()).toBe(11);
    // …the next is taken but its snapshot held back.
    stream.append(info('e11'));
    await Promise.resolve();
    expect(delayed).toHaveLength(1);
    expect(length()).toBe(11);
    // The last listener leaves while it is held; the delay then runs with
    // no one listening and publishes nothing.
    unsubscribe();
    delayed.shift()!();
    expect(length()).toBe(11);
    // A listener comes back, with nothing new in the stream: what was taken
    // is published at once, not held again.
    const before = published;
    unsubscribe = feed.subscribe(listener);
    expect(length()).toBe(12);
    expect(published).toBe(before + 1);
    expect(delayed).toHaveLength(0);
    expect(feed.getSnapshot().tree.events.map((e) => e.uuid)).toEqual(
      Array.from({ length: 12 }, (_, k) => `e${k}`),
    );
    unsubscribe();
  });
});
