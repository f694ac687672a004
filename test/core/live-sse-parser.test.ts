import { createSseParser } from '../../src/core/live/sse-parser.js';
import { describe, expect, it } from 'vitest';
import { type SseMessage } from '../../src/index.js';
import { withFrom } from '../../src/core/live/transports.js';

function parseAll(chunks: string[]) {
  const out: SseMessage[] = [];
  const comments: string[] = [];
  const feed = createSseParser(
    (m) => out.push(m),
    (c) => comments.push(c),
  );
  for (const c of chunks) feed(c);
  return { out, comments };
}

const text =
  'retry: 1000\nevent: hello\ndata: {"a":1}\n\n: ping\n\nid: s:1\ndata: x\ndata: y\n\nid: s:2\ndata:z\n\n';

describe('createSseParser', () => {
  it('parses fields, multi-line data, ids and comments', () => {
    const { out, comments } = parseAll([text]);
    expect(out).toEqual([
      { event: 'hello', data: '{"a":1}', id: null },
      { event: 'message', data: 'x\ny', id: 's:1' },
      { event: 'message', data: 'z', id: 's:2' },
    ]);
    expect(comments).toEqual([' ping']);
  });

  it('gives the same messages however the text is split, with LF, CRLF or CR', () => {
    const whole = parseAll([text]).out;
    for (const eol of ['\n', '\r\n', '\r']) {
      const t = text.replace(/\n/g, eol);
      for (let at = 0; at <= t.length; at++) {
        expect(parseAll([t.slice(0, at), t.slice(at)]).out).toEqual(whole);
      }
      expect(parseAll([...t]).out).toEqual(whole);
    }
  });

  it('does not dispatch a message without data, or an unfinished one', () => {
    expect(parseAll(['event: x\n\n', 'data: half']).out).toEqual([]);
  });
});

describe('withFrom', () => {
  it('sets or replaces the from parameter, keeping the rest', () => {
    expect(withFrom('http://h/e', 'a:1')).toBe('http://h/e?from=a%3A1');
    expect(withFrom('http://h/e?x=1&from=old', 'a:2')).toBe('http://h/e?x=1&from=a%3A2');
    expect(withFrom('http://h/e?from=old', null)).toBe('http://h/e');
  });
});
