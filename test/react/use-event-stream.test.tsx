import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LiveTransport, LiveTransportHandlers } from '../../src/index.js';
import { useEventStream } from '../../src/react.js';

function scripted() {
  const connections: { url: string; h: LiveTransportHandlers; closed: boolean }[] = [];
  const transport: LiveTransport = ({ url }, h) => {
    const c = { url, h, closed: false };
    connections.push(c);
    return { close: () => void (c.closed = true) };
  };
  return { transport, connections };
}

function Status({ url, transport }: { url: string; transport: LiveTransport }) {
  const live = useEventStream(url, { transport });
  return <p role="status">{live === null ? 'none' : `${live.status} ${live.stream.length}`}</p>;
}

describe('useEventStream', () => {
  it('connects on mount, re-renders on status changes, closes on unmount and on a new url', async () => {
    const s = scripted();
    const { rerender, unmount } = render(<Status url="http://a/" transport={s.transport} />);
    expect(screen.getByRole('status').textContent).toBe('connecting 0');
    const h = s.connections[0]!.h;
    await act(async () => {
      h.message('hello', { protocol: 1, streamId: 'S', after: null, reset: false }, null);
      h.message('event', { event: 'info', uuid: 'u', timestamp: '2026-01-01T00:00:00Z' }, 'S:1');
      h.message('live', { seq: '1' }, null);
    });
    expect(screen.getByRole('status').textContent).toBe('live 1');
    rerender(<Status url="http://b/" transport={s.transport} />);
    expect(s.connections[0]!.closed).toBe(true);
    expect(s.connections[1]!.url).toBe('http://b/');
    unmount();
    expect(s.connections[1]!.closed).toBe(true);
  });
});
