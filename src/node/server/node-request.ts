/** What the two Node handlers (`sse.ts`, `websocket.ts`) read of a request. Internal. */
import type { IncomingMessage } from 'node:http';
import type { RequestView } from './options.js';

/** A Node request as the shared checks read it (the first value of a repeated header). */
export function nodeRequestView(req: IncomingMessage): RequestView {
  return {
    method: req.method ?? 'GET',
    url: req.url ?? '/',
    header: (name) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    },
  };
}
