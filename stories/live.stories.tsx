import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { useEffect, useState } from 'react';
import { useProducer } from './producer.js';
import { EventStream, createSelectionStore, generateRun, type FetchLike } from '../src/index.js';
// The real Fetch handler of `skein/server`, run in the page: it imports no
// Node built-ins, so the story's "server" is skein's own, with no network.
import { createEventStreamFetchHandler } from '../src/node/server/fetch.js';
import {
  Player,
  SkeinTheme,
  SpanTree,
  Transcript,
  useEventStream,
  useReplayPlayer,
  useStoreSelector,
} from '../src/react.js';

const meta = {
  title: 'Views/Live and replay',
  component: Player,
  tags: ['autodocs'],
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof Player>;

export default meta;
type Story = StoryObj<typeof meta>;

const URL_ = 'https://agent.example/run/events';

/**
 * A server in the page: `skein/server`'s Fetch handler over `stream`,
 * reached through a `fetch` the client is given. `drop()` cuts every open
 * response (as a proxy timing out would); `down` makes new requests fail as
 * a network error does, so the client's retries show.
 */
function createMockServer(stream: EventStream) {
  const handler = createEventStreamFetchHandler(stream, {
    heartbeatMs: 2000,
    allowedHosts: ['agent.example'],
  });
  const open = new Set<ReadableStreamDefaultController<Uint8Array>>();
  const server = {
    down: false,
    drop() {
      for (const c of open) c.error(new TypeError('network error (dropped by the story)'));
      open.clear();
    },
    fetch: (async (url, init) => {
      if (server.down) throw new TypeError('Failed to fetch (the story took the server down)');
      const response = await handler(
        new Request(url, {
          headers: init.headers,
          signal: init.signal as AbortSignal,
        }),
      );
      const reader = response.body!.getReader();
      let self!: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>({
        start: (c) => {
          self = c;
          open.add(c);
        },
        async pull(c) {
          try {
            const { done, value } = await reader.read();
            if (done) {
              open.delete(self);
              c.close();
            } else c.enqueue(value);
          } catch (error) {
            open.delete(self);
            c.error(error);
          }
        },
        cancel: () => {
          open.delete(self);
          void reader.cancel();
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    }) satisfies FetchLike,
    close: () => handler.close(),
  };
  return server;
}

const replayRun = generateRun({ seed: 5, events: 600, pendingRate: 0.1 });

function Replay() {
  const [selection] = useState(() => createSelectionStore());
  const player = useReplayPlayer(replayRun, { selection, speed: 4 });
  const stream = useStoreSelector(player, (s) => s.stream);
  const selected = useStoreSelector(selection, (s) => s.selected);
  const playhead = useStoreSelector(selection, (s) => s.playhead);
  return (
    <div style={{ display: 'grid', gap: 8, height: 600, gridTemplateRows: 'auto auto 1fr' }}>
      <Player player={player} />
      <span>
        Playhead:{' '}
        <output aria-label="Playhead">
          {playhead === null ? '–' : new Date(playhead).toISOString()}
        </output>
      </span>
      <div style={{ display: 'grid', gridTemplateColumns: '1fr 1.4fr', gap: 8, minHeight: 0 }}>
        <SpanTree stream={stream} selection={selection} aria-label="Replayed spans" />
        <Transcript
          stream={stream}
          selectedId={selected}
          onSelect={(uuid) => selection.select(uuid)}
          aria-label="Replayed transcript"
        />
      </div>
    </div>
  );
}

/**
 * Replay with the player: one playhead (the shared selection store's) drives
 * the span tree and the transcript, which show the run as of the playhead.
 */
export const ReplayWithPlayer: Story = {
  tags: ['light-only'],
  args: { player: undefined as never },
  render: () => <Replay />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const slider = await canvas.findByRole('slider', { name: 'Position' });
    const feed = await canvas.findByRole('feed', { name: 'Replayed transcript' });
    const articles = () => feed.querySelectorAll('article').length;
    const before = articles();
    await userEvent.click(canvas.getByRole('button', { name: 'Next turn' }));
    await userEvent.click(canvas.getByRole('button', { name: 'Next turn' }));
    // Generous timeouts: CI runs this beside other browser projects on 2 cores.
    await waitFor(() => expect(articles()).toBeGreaterThan(before), { timeout: 10_000 });
    // The selected event is the last one shown, in both views.
    await waitFor(() => expect(feed.querySelector('article[data-selected]')).not.toBeNull(), {
      timeout: 10_000,
    });
    // The keyboard: End shows the whole run.
    slider.focus();
    await userEvent.keyboard('{End}');
    await waitFor(
      () =>
        expect(slider.getAttribute('aria-valuetext')).toMatch(
          new RegExp(`event ${replayRun.length.toLocaleString('en-US')} of`),
        ),
      { timeout: 10_000 },
    );
    await userEvent.keyboard('{Home}');
    expect(slider.getAttribute('aria-valuenow')).toBe('0');
    await userEvent.click(canvas.getByRole('button', { name: 'Play' }));
    await waitFor(() => expect(slider.getAttribute('aria-valuenow')).not.toBe('0'), {
      timeout: 10_000,
    });
    await userEvent.click(canvas.getByRole('button', { name: 'Pause' }));
  },
};

/** The player with only `skein/styles.css` (no `<SkeinTheme>`). */
export const PlayerBare: Story = {
  args: { player: undefined as never },
  parameters: { skeinTheme: false },
  render: () => <BarePlayer />,
  play: async ({ canvasElement }) => {
    const slider = await within(canvasElement).findByRole('slider');
    // Styled by the stylesheet alone: the track has a height and a colour.
    const track = slider.querySelector('.skein-player__track')!;
    expect(getComputedStyle(track).height).toBe('4px');
  },
};

function BarePlayer() {
  const player = useReplayPlayer(replayRun);
  return (
    <div style={{ padding: 16, maxWidth: 720 }}>
      <Player player={player} />
    </div>
  );
}

/** The player in the dark theme (variables only; axe checks its contrast). */
export const PlayerDark: Story = {
  args: { player: undefined as never },
  globals: { theme: 'dark' },
  render: () => (
    <SkeinTheme theme="dark" style={{ padding: 16 }}>
      <BarePlayer />
    </SkeinTheme>
  ),
};

const liveRun = generateRun({ seed: 11, events: 300, pendingRate: 0.2 });

function LiveFeed({ controls }: { controls: boolean }) {
  // Without controls nothing waits on the producer: bigger batches, fewer renders.
  const [serverStream] = useState(() => new EventStream());
  const [server] = useState(() => createMockServer(serverStream));
  useEffect(() => () => void server.close(), [server]);
  useProducer(serverStream, liveRun, controls ? 4 : 20);
  const live = useEventStream(URL_, {
    fetch: server.fetch,
    // Quick retries, so the story does not sit in "reconnecting".
    retry: { firstDelayMs: 100, baseDelayMs: 300, maxDelayMs: 1000 },
  });
  const [down, setDown] = useState(false);
  return (
    <div style={{ display: 'grid', gap: 8, height: 560, gridTemplateRows: 'auto 1fr' }}>
      <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
        <span>
          Server:{' '}
          <output aria-label="Events on the server">
            <Length stream={serverStream} />
          </output>{' '}
          events
        </span>
        <span>
          Client:{' '}
          <output aria-label="Events on the client">
            {live === null ? 0 : <Length stream={live.stream} />}
          </output>{' '}
          events
        </span>
        {controls ? (
          <>
            <button type="button" onClick={() => server.drop()}>
              Drop the connection
            </button>
            <button
              type="button"
              aria-pressed={down}
              onClick={() => {
                server.down = !down;
                if (!down) server.drop();
                setDown(!down);
              }}
            >
              Server down
            </button>
          </>
        ) : null}
      </div>
      <div style={{ display: 'grid', gridTemplateColumns: '1fr 1.4fr', gap: 8, minHeight: 0 }}>
        {live === null ? null : (
          <>
            <SpanTree stream={live.stream} aria-label="Live spans" toolbar={false} />
            <Transcript stream={live.stream} connection={live} aria-label="Live transcript" />
          </>
        )}
      </div>
    </div>
  );
}

function Length({ stream }: { stream: EventStream }) {
  return useStoreSelector(stream, (s) => s.length);
}

const statusOf = (canvasElement: HTMLElement) =>
  within(canvasElement).findByRole('status', { name: 'Connection' });

/**
 * A live feed from a server (skein's Fetch handler, in the page, behind a
 * mock `fetch`): history first, then the tail; the transcript's toolbar
 * shows the connection status.
 */
export const LiveFeedFromServer: Story = {
  tags: ['light-only'],
  args: { player: undefined as never },
  render: () => <LiveFeed controls={false} />,
  play: async ({ canvasElement }) => {
    const status = await statusOf(canvasElement);
    await waitFor(() => expect(status.textContent).toBe('Live'), { timeout: 15_000 });
    // The run ends (a still page for the accessibility check) with every event.
    const client = within(canvasElement).getByLabelText('Events on the client');
    await waitFor(() => expect(Number(client.textContent)).toBe(liveRun.length), {
      timeout: 30_000,
    });
  },
};

/**
 * Reconnecting: "Server down" cuts the connection and fails every retry
 * until pressed again; the status shows Reconnecting… with the last error,
 * then Live — and the client has every event the server has, none twice.
 */
export const Reconnecting: Story = {
  tags: ['light-only'],
  args: { player: undefined as never },
  render: () => <LiveFeed controls />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const status = await statusOf(canvasElement);
    await waitFor(() => expect(status.textContent).toBe('Live'), { timeout: 15_000 });
    const down = canvas.getByRole('button', { name: 'Server down' });
    await userEvent.click(down);
    await waitFor(() => expect(status.dataset['status']).toBe('reconnecting'), {
      timeout: 15_000,
    });
    await waitFor(() => expect(status.textContent).toMatch(/last error: .*Failed to fetch/), {
      timeout: 15_000,
    });
    await userEvent.click(down);
    await waitFor(() => expect(status.textContent).toBe('Live'), { timeout: 15_000 });
    // Once the producer is done, the client holds exactly the server's log.
    const server = canvas.getByLabelText('Events on the server');
    const client = canvas.getByLabelText('Events on the client');
    await waitFor(() => expect(Number(server.textContent)).toBe(liveRun.length), {
      timeout: 30_000,
    });
    await waitFor(() => expect(client.textContent).toBe(server.textContent), { timeout: 15_000 });
  },
};

/**
 * A connection that stays failed: the server refuses the stream (HTTP 401),
 * which is final (a 4xx is not retried). The status says Disconnected with
 * the server's error, and the views stay empty.
 */
export const ConnectionRefused: Story = {
  args: { player: undefined as never },
  render: () => <FailedFeed fetch={refuse} />,
  play: async ({ canvasElement }) => {
    const status = await statusOf(canvasElement);
    await waitFor(() => expect(status.dataset['status']).toBe('closed'), { timeout: 15_000 });
    await expect(status.textContent).toMatch(/^Disconnected — last error: .*401/);
  },
};

/**
 * A server that cannot be reached: every attempt fails as a network error
 * does, and the client keeps retrying (with backoff), saying so.
 */
export const ServerUnreachable: Story = {
  args: { player: undefined as never },
  render: () => <FailedFeed fetch={unreachable} />,
  play: async ({ canvasElement }) => {
    const status = await statusOf(canvasElement);
    await waitFor(() => expect(status.textContent).toMatch(/^Reconnecting… \(attempt [2-9]\)/), {
      timeout: 15_000,
    });
    await expect(status.textContent).toMatch(/last error: .*Failed to fetch/);
  },
};

const refuse: FetchLike = async () =>
  new Response('{"error":"unauthorized"}', {
    status: 401,
    headers: { 'content-type': 'application/json' },
  });
const unreachable: FetchLike = async () => {
  throw new TypeError('Failed to fetch (no server at this address)');
};

function FailedFeed({ fetch }: { fetch: FetchLike }) {
  const live = useEventStream(URL_, {
    fetch,
    // Retries close together, then a long wait: the story settles on a
    // stable "attempt n" for its accessibility check and its first look.
    retry: { firstDelayMs: 50, baseDelayMs: 100, maxDelayMs: 60_000 },
  });
  return (
    <div style={{ height: 420 }}>
      {live === null ? null : (
        <Transcript stream={live.stream} connection={live} aria-label="Live transcript" />
      )}
    </div>
  );
}
