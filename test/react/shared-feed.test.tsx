// Views given the same source share one feed (`sharedEventTreeFeed`): one
// span tree for the run, and an async iterable (which can be read only once)
// reaches every view whole.
import { render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { EventStream, sharedEventTreeFeed, type Event } from '../../src/index.js';
import { SpanTree, Transcript } from '../../src/react.js';
import { begin, end, info } from '../core/helpers/tree-oracle.js';

// Span times do not matter here: the tree's shape and the events' text do.
const note = (uuid: string, span: string): Event => info(uuid, span, { data: `note ${uuid}` });

const run: Event[] = [
  begin('b-agent', 'agent', null),
  note('n1', 'agent'),
  begin('b-planner', 'planner', 'agent'),
  note('n2', 'planner'),
  end('x-planner', 'planner'),
  begin('b-coder', 'coder', 'agent'),
  note('n3', 'coder'),
  end('x-coder', 'coder'),
  end('x-agent', 'agent'),
];

beforeEach(() => {
  // jsdom has no layout (research/toolchain.md §2.4).
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(400);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(600);
});

const treeKeys = () =>
  screen
    .getAllByRole('row')
    .filter((r) => r.hasAttribute('aria-level'))
    .map((r) => r.dataset['key']);

/** The run as an async iterable (readable once), and how many events were pulled from it. */
function readOnce(): { events: AsyncGenerator<Event>; pulled: () => number } {
  let pulled = 0;
  async function* source(): AsyncGenerator<Event> {
    for (const e of run) {
      pulled++;
      await Promise.resolve();
      yield e;
    }
  }
  return { events: source(), pulled: () => pulled };
}

describe('views of one source', () => {
  it('two transcripts and a span tree given one async iterable each show the whole run', async () => {
    const { events, pulled } = readOnce();
    render(
      <div style={{ height: 400 }}>
        <Transcript iterable={events} />
        <Transcript iterable={events} />
        <SpanTree iterable={events} />
      </div>,
    );
    await waitFor(() => {
      expect(treeKeys()).toEqual(['agent', 'planner', 'coder']);
      const feeds = screen.getAllByRole('feed');
      expect(feeds).toHaveLength(2);
      for (const feed of feeds) {
        for (const n of ['note n1', 'note n2', 'note n3']) expect(feed.textContent).toContain(n);
      }
    });
    expect(pulled()).toBe(run.length);
  });

  it('a span tree and a transcript of one stream: one tree, both views whole', () => {
    const stream = EventStream.from(run);
    render(
      <div style={{ height: 400 }}>
        <SpanTree stream={stream} />
        <Transcript stream={stream} />
      </div>,
    );
    expect(treeKeys()).toEqual(['agent', 'planner', 'coder']);
    expect(screen.getByRole('feed').textContent).toContain('note n3');
    // Both read the snapshot of the one shared feed.
    expect(sharedEventTreeFeed(stream).getSnapshot().tree.length).toBeGreaterThan(0);
  });

  it('share the feed while mounted and let it go when the last one unmounts', async () => {
    const stream = EventStream.from(run);
    const view = render(
      <div style={{ height: 400 }}>
        <SpanTree stream={stream} />
        <Transcript stream={stream} />
      </div>,
    );
    const feed = sharedEventTreeFeed(stream);
    view.rerender(
      <div style={{ height: 400 }}>
        <SpanTree stream={stream} />
      </div>,
    );
    await new Promise((r) => setTimeout(r, 0));
    expect(sharedEventTreeFeed(stream)).toBe(feed);
    view.unmount();
    await new Promise((r) => setTimeout(r, 0));
    expect(sharedEventTreeFeed(stream)).not.toBe(feed);
  });
});
