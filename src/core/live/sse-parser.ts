/**
 * An incremental Server-Sent Events parser (WHATWG HTML §9.2.6, "Interpreting
 * an event stream"), for the `fetch` transport of `connectEventStream`: Node
 * has no `EventSource`, and `fetch` lets us send headers and see statuses.
 */

/**
 * One dispatched SSE message.
 *
 * @example
 * const m: SseMessage = { event: 'message', data: '{"event":"info"}', id: 'abc:1' };
 */
export interface SseMessage {
  /** The `event:` field, `'message'` when absent. */
  event: string;
  data: string;
  /** The `id:` field of this message, `null` when it had none. */
  id: string | null;
}

/**
 * Creates a parser: feed it decoded text chunks, in order, split anywhere;
 * it calls `onMessage` for each complete message and `onComment` for each
 * comment line (heartbeats).
 *
 * @example
 * import { createSseParser } from './sse-parser.js';
 * declare function handle(event: string, data: string): void;
 * const feed = createSseParser((m) => handle(m.event, m.data));
 * feed('data: hel');
 * feed('lo\n\n'); // logs: message hello
 */
export function createSseParser(
  onMessage: (message: SseMessage) => void,
  onComment?: (text: string) => void,
): (chunk: string) => void {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | null = null;
  // A chunk that ended with '\r' may continue with the '\n' of the same break.
  let skipLf = false;

  const line = (text: string): void => {
    if (text === '') {
      if (data.length > 0)
        onMessage({ event: event === '' ? 'message' : event, data: data.join('\n'), id });
      event = '';
      data = [];
      id = null;
      return;
    }
    const colon = text.indexOf(':');
    if (colon === 0) {
      onComment?.(text.slice(1));
      return;
    }
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    switch (field) {
      case 'event':
        event = value;
        break;
      case 'data':
        data.push(value);
        break;
      case 'id':
        if (!value.includes('\0')) id = value;
        break;
      default:
        // `retry` and unknown fields: the caller owns reconnection timing.
        break;
    }
  };

  return (chunk: string): void => {
    let text = chunk;
    if (skipLf && text.charCodeAt(0) === 10) text = text.slice(1);
    skipLf = false;
    buffer += text;
    let start = 0;
    // Found once per chunk and again only when passed: most streams have no
    // '\r' at all, and searching the whole rest per line would be quadratic.
    let cr = buffer.indexOf('\r');
    for (;;) {
      const lf = buffer.indexOf('\n', start);
      if (cr >= 0 && cr < start) cr = buffer.indexOf('\r', start);
      let end: number;
      let next: number;
      if (cr >= 0 && (lf < 0 || cr < lf)) {
        end = cr;
        if (cr + 1 === buffer.length) {
          next = cr + 1;
          skipLf = true;
        } else next = buffer.charCodeAt(cr + 1) === 10 ? cr + 2 : cr + 1;
      } else if (lf >= 0) {
        end = lf;
        next = lf + 1;
      } else break;
      line(buffer.slice(start, end));
      start = next;
    }
    buffer = start === 0 ? buffer : buffer.slice(start);
  };
}
