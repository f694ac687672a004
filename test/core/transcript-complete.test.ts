// Complete vs open sources (issue 16) and what a section's header counts.
import { describe, expect, it } from 'vitest';
import {
  EventStream,
  buildEventTree,
  createEventTreeFeed,
  sectionCounts,
  type Event,
} from '../../src/index.js';
import { begin, end, info } from './helpers/tree-oracle.js';

const sync = { schedule: (task: () => void) => task(), now: () => 0 };
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('EventStream complete / close()', () => {
  it('a new stream is open; close() completes it, notifies and refuses appends', async () => {
    const stream = new EventStream();
    stream.append(info('a'));
    expect(stream.complete).toBe(false);
    expect(stream.getSnapshot().complete).toBe(false);
    let calls = 0;
    stream.subscribe(() => calls++);
    stream.close();
    stream.close();
    expect(stream.complete).toBe(true);
    expect(stream.getSnapshot().complete).toBe(true);
    await flush();
    expect(calls).toBe(1);
    expect(() => stream.append(info('b'))).toThrow(/stream_closed|after close\(\)/);
    expect(stream.length).toBe(1);
  });

  it('EventStream.from is complete, and live again if appended to', () => {
    const stream = EventStream.from([info('a'), info('b')]);
    expect(stream.complete).toBe(true);
    stream.append(info('c'));
    expect(stream.complete).toBe(false);
    stream.close();
    expect(stream.complete).toBe(true);
  });
});

describe('TranscriptFeed complete', () => {
  it('an array is complete from the first snapshot', () => {
    expect(createEventTreeFeed([info('a')], sync).getSnapshot().complete).toBe(true);
  });

  it('a stream follows stream.complete, publishing when only that changed', async () => {
    const stream = new EventStream();
    stream.append(info('a'));
    const feed = createEventTreeFeed(stream, sync);
    const seen: boolean[] = [];
    feed.subscribe(() => seen.push(feed.getSnapshot().complete));
    expect(feed.getSnapshot().complete).toBe(false);
    stream.close();
    await flush();
    expect(feed.getSnapshot().complete).toBe(true);
    expect(seen.at(-1)).toBe(true);
    expect(feed.getSnapshot().tree.length).toBe(1);
  });

  it('an async iterable is complete once done, not when it fails', async () => {
    async function* ok() {
      yield info('a');
    }
    const feed = createEventTreeFeed(ok());
    const off = feed.subscribe(() => {});
    expect(feed.getSnapshot().complete).toBe(false);
    await expect.poll(() => feed.getSnapshot().complete).toBe(true);
    off();
    async function* bad(): AsyncGenerator<Event> {
      yield info('a');
      throw new Error('boom');
    }
    const failing = createEventTreeFeed(bad());
    const off2 = failing.subscribe(() => {});
    await expect.poll(() => failing.getSnapshot().failed).toBe(true);
    expect(failing.getSnapshot().complete).toBe(false);
    off2();
  });
});

describe('sectionCounts', () => {
  it('counts what opening a section shows and what the filter hides, per kind', () => {
    const tree = buildEventTree([
      begin('b-init', 'init'),
      info('s1', 'init', { event: 'sample_init' } as Partial<Event>),
      end('e-init', 'init'),
      begin('b-agent', 'agent'),
      info('i1', 'agent'),
      info('st1', 'agent', { event: 'state' } as Partial<Event>),
      info('st2', 'agent', { event: 'state' } as Partial<Event>),
      begin('b-sub', 'sub', 'agent'),
      info('i2', 'sub'),
      end('e-sub', 'sub'),
      end('e-agent', 'agent'),
    ]);
    const count = sectionCounts(tree, new Set(['sample_init', 'state']));
    const node = (uuid: string) => tree.events.findIndex((e) => e.uuid === uuid);
    expect(count(node('b-init'))).toEqual({
      shown: 0,
      hidden: 1,
      hiddenByKind: new Map([['sample_init', 1]]),
    });
    // i1, the sub-section header and i2; two state events hidden.
    expect(count(node('b-agent'))).toEqual({
      shown: 3,
      hidden: 2,
      hiddenByKind: new Map([['state', 2]]),
    });
    expect(sectionCounts(tree, new Set())(node('b-agent'))).toEqual({
      shown: 5,
      hidden: 0,
      hiddenByKind: new Map(),
    });
  });
});
