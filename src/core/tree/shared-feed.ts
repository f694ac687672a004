/**
 * One feed per source for the views that are given a source and no feed.
 *
 * `<Transcript stream={s} />` beside `<SpanTree stream={s} />` used to build
 * two span trees of the same run: twice the time while loading and twice the
 * memory. And two views given one async iterable each pulled from it, so
 * each saw part of the run. Views now ask {@link sharedEventTreeFeed}, which
 * hands every caller with the same source (the same object) the same feed.
 *
 * The feed is forgotten once its last subscriber has been gone past the
 * current task (as React unsubscribes and resubscribes at once when a view
 * moves): a view mounted later builds a fresh one, so a stream the app keeps
 * does not keep a tree no view shows. A feed made in a render that never
 * commits has no subscriber and stays until its source is garbage (a
 * `WeakMap`); for an array or a stream it holds only the first slice.
 */
import { createEventTreeFeed, type EventTreeFeed, type EventTreeSource } from './feed.js';

const feeds = new WeakMap<EventTreeSource, EventTreeFeed>();

/**
 * The feed every view of `source` shares (created on first use). Use
 * `createEventTreeFeed` for a feed of your own (other options, or one you
 * dispose yourself); pass it to each view's `feed` prop to share it.
 *
 * @example
 * const a = sharedEventTreeFeed(stream);
 * a === sharedEventTreeFeed(stream); // true while a view subscribes
 */
export function sharedEventTreeFeed(source: EventTreeSource): EventTreeFeed {
  const known = feeds.get(source);
  if (known !== undefined) return known;
  const inner = createEventTreeFeed(source);
  let count = 0;
  let forgetQueued = false;
  const feed: EventTreeFeed = {
    getSnapshot: inner.getSnapshot,
    subscribe(listener) {
      count++;
      const leave = inner.subscribe(listener);
      let left = false;
      return () => {
        if (left) return;
        left = true;
        count--;
        leave();
        if (count === 0 && !forgetQueued) {
          forgetQueued = true;
          void Promise.resolve().then(() => {
            forgetQueued = false;
            if (count === 0 && feeds.get(source) === feed) feeds.delete(source);
          });
        }
      };
    },
    dispose() {
      if (feeds.get(source) === feed) feeds.delete(source);
      inner.dispose();
    },
  };
  feeds.set(source, feed);
  return feed;
}
