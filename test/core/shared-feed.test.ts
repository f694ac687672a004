import { describe, expect, it } from 'vitest';
import { EventStream, generateRun, sharedEventTreeFeed, type Event } from '../../src/index.js';
import { info } from './helpers/tree-oracle.js';

const settle = () => new Promise((r) => setTimeout(r, 0));

/** Resolves once the feed has taken its whole source. */
function loaded(feed: ReturnType<typeof sharedEventTreeFeed>): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!feed.getSnapshot().loading) {
        stop();
        resolve();
      }
    };
    const stop = feed.subscribe(check);
    check();
  });
}

describe('sharedEventTreeFeed', () => {
  it('gives every caller with the same source the same feed, and other sources their own', () => {
    const stream = EventStream.from([info('a'), info('b')]);
    const events = [info('c')];
    const a = sharedEventTreeFeed(stream);
    expect(sharedEventTreeFeed(stream)).toBe(a);
    expect(sharedEventTreeFeed(events)).toBe(sharedEventTreeFeed(events));
    expect(sharedEventTreeFeed(events)).not.toBe(a);
    // An equal array is another source.
    expect(sharedEventTreeFeed([...events])).not.toBe(sharedEventTreeFeed(events));
    expect(a.getSnapshot().tree.events.map((e) => e.uuid)).toEqual(['a', 'b']);
  });

  it('one tree for two subscribers of a live stream, both see every append', async () => {
    const stream = new EventStream();
    const feed = sharedEventTreeFeed(stream);
    let heardA = 0;
    let heardB = 0;
    const stopA = sharedEventTreeFeed(stream).subscribe(() => heardA++);
    const stopB = sharedEventTreeFeed(stream).subscribe(() => heardB++);
    stream.append(info('x'));
    stream.append(info('y'));
    await settle();
    expect(feed.getSnapshot().tree.events.map((e) => e.uuid)).toEqual(['x', 'y']);
    expect(heardA).toBeGreaterThan(0);
    expect(heardB).toBe(heardA);
    stopA();
    stopB();
  });

  it('is forgotten once the last subscriber has left past the current task, not on a resubscribe in the same task', async () => {
    const stream = EventStream.from([info('a')]);
    const first = sharedEventTreeFeed(stream);
    const stop = first.subscribe(() => {});
    stop();
    stop(); // a second call changes nothing
    // A view moved by React: unsubscribed and subscribed again at once.
    const again = sharedEventTreeFeed(stream).subscribe(() => {});
    await settle();
    expect(sharedEventTreeFeed(stream)).toBe(first);
    again();
    await settle();
    const later = sharedEventTreeFeed(stream);
    expect(later).not.toBe(first);
    // The new feed reads the same stream from the start.
    expect(later.getSnapshot().tree.events.map((e) => e.uuid)).toEqual(['a']);
  });

  it('an async iterable is pulled once for every view: each sees the whole run', async () => {
    const run = generateRun({ seed: 3, events: 700, pendingRate: 0 });
    let pulled = 0;
    async function* source(): AsyncGenerator<Event> {
      for (const e of run) {
        pulled++;
        yield e;
      }
    }
    const iterable = source();
    const a = sharedEventTreeFeed(iterable);
    const b = sharedEventTreeFeed(iterable);
    await Promise.all([loaded(a), loaded(b)]);
    expect(pulled).toBe(run.length);
    const uuids = (f: typeof a) => f.getSnapshot().tree.events.map((e) => e.uuid);
    expect(uuids(a)).toEqual(uuids(b));
    // The same tree as one feed over the whole list.
    const whole = sharedEventTreeFeed(run);
    await loaded(whole);
    expect(uuids(a)).toEqual(uuids(whole));
  });

  it('dispose forgets the feed at once and stops it', () => {
    const stream = new EventStream();
    const feed = sharedEventTreeFeed(stream);
    feed.subscribe(() => {});
    feed.dispose();
    expect(sharedEventTreeFeed(stream)).not.toBe(feed);
    stream.append(info('late'));
    expect(feed.getSnapshot().tree.length).toBe(0);
  });
});
