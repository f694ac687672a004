import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  connectEventStream,
  LiveError,
  type LiveTransport,
  type LiveTransportHandlers,
} from '../../src/index.js';
import { Transcript, useEventStream } from '../../src/react.js';

/** A transport the test drives by hand. */
function scripted() {
  const connections: { h: LiveTransportHandlers; closed: boolean }[] = [];
  const transport: LiveTransport = (_request, h) => {
    const c = { h, closed: false };
    connections.push(c);
    return { close: () => void (c.closed = true) };
  };
  return { transport, connections };
}

const hello = { protocol: 1, streamId: 'S', after: null, reset: false };
const info = (n: number) => ({
  event: 'info',
  uuid: `u${n}`,
  timestamp: `2026-01-01T00:00:0${n}Z`,
  data: `event ${n}`,
});

describe('<Transcript connection>', () => {
  it('shows connecting, live, reconnecting with the last error, and closed', async () => {
    const s = scripted();
    const timers: (() => void)[] = [];
    const live = connectEventStream('http://x/', {
      transport: s.transport,
      setTimeout: (cb) => timers.push(cb),
      clearTimeout: () => {},
    });
    render(
      <div style={{ height: 400 }}>
        <Transcript stream={live.stream} connection={live} />
      </div>,
    );
    const status = () => screen.getByRole('status', { name: 'Connection' });
    expect(status().textContent).toBe('Connecting…');
    expect(status().dataset['status']).toBe('connecting');
    const h = s.connections[0]!.h;
    await act(async () => {
      h.open();
      h.message('hello', hello, null);
      h.message('event', info(1), 'S:1');
      h.message('live', { seq: '1' }, null);
    });
    expect(status().textContent).toBe('Live');
    await act(async () => h.end(new LiveError('live_connection_lost', 'socket hang up')));
    expect(status().dataset['status']).toBe('reconnecting');
    expect(status().textContent).toBe(
      'Reconnecting… — last error: The live connection was lost: socket hang up',
    );
    // The same region is updated in place (so screen readers announce it).
    const region = status();
    await act(async () => live.close());
    expect(status()).toBe(region);
    expect(status().textContent).toMatch(/^Disconnected/);
  });

  it('takes useEventStream’s snapshot as well', async () => {
    const s = scripted();
    function Live() {
      const live = useEventStream('http://y/', { transport: s.transport });
      if (live === null) return null;
      return (
        <div style={{ height: 400 }}>
          <Transcript stream={live.stream} connection={live} />
        </div>
      );
    }
    render(<Live />);
    await act(async () => {});
    expect(screen.getByRole('status', { name: 'Connection' }).textContent).toBe('Connecting…');
    const h = s.connections[0]!.h;
    await act(async () => {
      h.open();
      h.message('hello', hello, null);
      h.message('live', { seq: null }, null);
    });
    expect(screen.getByRole('status', { name: 'Connection' }).textContent).toBe('Live');
  });

  it('shows nothing without a connection', () => {
    render(
      <div style={{ height: 400 }}>
        <Transcript events={[]} />
      </div>,
    );
    expect(screen.queryByRole('status', { name: 'Connection' })).toBeNull();
  });
});
