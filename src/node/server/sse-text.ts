/** The SSE text of each live message (no Node built-ins: the Fetch handler uses it too). */
import type { LiveClose, LiveHello } from '../../core/live/wire.js';

/** SSE text of each message; data lines never hold a newline (JSON escapes them). */
export const sse = {
  hello: (h: LiveHello, retryMs: number) =>
    `retry: ${retryMs}\nevent: hello\ndata: ${JSON.stringify(h)}\n\n`,
  entries: (batch: readonly { id: string; json: string }[]) => {
    let text = '';
    for (const e of batch) text += `id: ${e.id}\ndata: ${e.json}\n\n`;
    return text;
  },
  live: (seq: string | null) => `event: live\ndata: ${JSON.stringify({ seq })}\n\n`,
  ping: () => ': ping\n\n',
  close: (c: LiveClose) => `event: close\ndata: ${JSON.stringify(c)}\n\n`,
};

/** The SSE response headers (the body is the stream). */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  // nginx buffers proxied responses unless told not to.
  'X-Accel-Buffering': 'no',
};
