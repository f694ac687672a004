// Inputs past the largest string V8 makes (2^29 − 24 code units, ~512 MiB):
// JSON Lines still read line by line, a line that long is one diagnostic, and
// a single document that long is a typed error, never the engine's own
// "Cannot create a string longer than …". One 537 MB buffer, filled natively.
import { describe, expect, it } from 'vitest';
import { ImportContext, ImportError, importAny, readJsonLinesAsync } from '../../src/index.js';

const MAX_STRING = 0x1fffffe8;
const encoder = new TextEncoder();

describe('inputs larger than a string can hold', () => {
  const head = encoder.encode('{"type":"turn_started"}\n{"pad":"');
  const tail = encoder.encode('"}\n{"type":"turn_ended","reason":"end_turn"}\n');
  const fill = MAX_STRING + 16;
  const bytes = new Uint8Array(head.length + fill + tail.length);
  bytes.set(head, 0);
  bytes.fill(0x78, head.length, head.length + fill); // 'x'
  bytes.set(tail, head.length + fill);

  it('reads JSON Lines around a line too long to decode, which is reported at its line', async () => {
    const result = await importAny(bytes);
    expect(result.format).toBe('defect');
    expect(result.events.map((e) => e.event)).toEqual(['span_begin', 'span_end']);
    const tooLong = result.diagnostics.filter((d) => d.code === 'line_too_long');
    expect(tooLong).toHaveLength(1);
    expect(tooLong[0]).toMatchObject({ path: '$[1]' });
    expect(tooLong[0]!.message).toMatch(/^Line 2 is 536\.9 MB/);
  });

  it('rejects one JSON document too long to decode with a typed error', async () => {
    const doc = bytes.subarray(head.indexOf(10) + 1, head.length + fill + 2); // {"pad":"xx…x"}
    const error = await importAny(doc).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect(error).toMatchObject({ code: 'input_too_large', path: '$' });
    expect((error as ImportError).message).toContain(
      'JSON Lines of any size are read line by line',
    );
  });

  it('streams JSON Lines around a line too long to join, which is reported at its line', async () => {
    async function* chunks() {
      for (let at = 0; at < bytes.length; at += 8 << 20) yield bytes.subarray(at, at + (8 << 20));
    }
    const ctx = new ImportContext({});
    const values = [];
    for await (const l of readJsonLinesAsync(chunks(), ctx)) values.push(l.value);
    expect(values).toEqual([{ type: 'turn_started' }, { type: 'turn_ended', reason: 'end_turn' }]);
    expect(ctx.finish()).toMatchObject([{ code: 'line_too_long', path: '$[1]' }]);
  });
});
