// Inputs past the largest string V8 makes (2^29 − 24 code units, ~512 MiB):
// JSON Lines still read line by line, a line that long is one diagnostic, and
// a single document that long is a typed error, never the engine's own
// "Cannot create a string longer than …". One 537 MB buffer, filled natively:
// a first line, the giant line, a last line; each test writes its own first
// and last records into their slots (padded with spaces, which JSON allows).
import { describe, expect, it } from 'vitest';
import {
  ImportContext,
  ImportError,
  importAny,
  importOtlp,
  readJsonLinesAsync,
} from '../../src/index.js';

const MAX_STRING = 0x1fffffe8;
const SLOT = 1024;
const encoder = new TextEncoder();

describe('inputs larger than a string can hold', () => {
  const open = encoder.encode('{"pad":"');
  const fill = MAX_STRING + 16;
  const giantStart = SLOT + 1;
  const giantEnd = giantStart + open.length + fill + 2; // {"pad":"xx…x"}
  const bytes = new Uint8Array(giantEnd + 1 + SLOT + 1);
  bytes.set(open, giantStart);
  bytes.fill(0x78, giantStart + open.length, giantEnd - 2); // 'x'
  bytes.set(encoder.encode('"}\n'), giantEnd - 2);
  bytes[SLOT] = 10;
  bytes[bytes.length - 1] = 10;

  /** The buffer with `first` and `last` (JSON text) as its first and last lines. */
  function around(first: string, last: string): Uint8Array {
    for (const [record, at] of [
      [first, 0],
      [last, giantEnd + 1],
    ] as const) {
      const text = encoder.encode(record);
      if (text.length > SLOT) throw new Error('record too long for its slot');
      bytes.fill(0x20, at, at + SLOT);
      bytes.set(text, at);
    }
    return bytes;
  }

  it('reads JSON Lines around a line too long to decode, which is reported at its line', async () => {
    const input = around('{"type":"turn_started"}', '{"type":"turn_ended","reason":"end_turn"}');
    const result = await importAny(input);
    expect(result.format).toBe('defect');
    expect(result.events.map((e) => e.event)).toEqual(['span_begin', 'span_end']);
    const tooLong = result.diagnostics.filter((d) => d.code === 'line_too_long');
    expect(tooLong).toHaveLength(1);
    expect(tooLong[0]).toMatchObject({ path: '$[1]' });
    expect(tooLong[0]!.message).toMatch(/^Line 2 is 537 MB/);
  });

  it('reads OTLP JSON Lines that large a line at a time, 64-bit times exact', () => {
    // One export per line, its nanosecond times bare 19-digit numbers (more
    // digits than a double keeps: exact only if quoted before parsing).
    const exportLine = (spanId: string, name: string, start: string, end: string) =>
      `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"5b8aa5a2d2c872e8321cf37308d69df2",` +
      `"spanId":"${spanId}","name":"${name}","startTimeUnixNano":${start},"endTimeUnixNano":${end}}]}]}]}`;
    const input = around(
      exportLine('051581bf3cb55c13', 'first', '1700000000123456789', '1700000000987654321'),
      exportLine('1d2a3b4c5d6e7f80', 'last', '1700000001123456789', '1700000001987654321'),
    );
    const result = importOtlp(input);
    const begins = result.events.filter((e) => e.event === 'span_begin');
    expect(begins.map((e) => (e as { name: string }).name)).toEqual(['first', 'last']);
    expect(JSON.stringify(begins[0]!.metadata)).toContain('1700000000123456789');
    expect(JSON.stringify(begins[1]!.metadata)).toContain('1700000001987654321');
    expect(result.diagnostics.filter((d) => d.code === 'line_too_long')).toMatchObject([
      { path: '$[1]' },
    ]);
  });

  it('rejects one JSON document too long to decode with a typed error', async () => {
    const doc = bytes.subarray(giantStart, giantEnd); // {"pad":"xx…x"}
    const error = await importAny(doc).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect(error).toMatchObject({ code: 'input_too_large', path: '$' });
    expect((error as ImportError).message).toContain(
      'JSON Lines of any size are read line by line',
    );
  });

  it('streams JSON Lines around a line too long to join, which is reported at its line', async () => {
    const input = around('{"type":"turn_started"}', '{"type":"turn_ended","reason":"end_turn"}');
    async function* chunks() {
      for (let at = 0; at < input.length; at += 8 << 20) yield input.subarray(at, at + (8 << 20));
    }
    const ctx = new ImportContext({});
    const values = [];
    for await (const l of readJsonLinesAsync(chunks(), ctx)) values.push(l.value);
    expect(values).toEqual([{ type: 'turn_started' }, { type: 'turn_ended', reason: 'end_turn' }]);
    expect(ctx.finish()).toMatchObject([{ code: 'line_too_long', path: '$[1]' }]);
  });
});
