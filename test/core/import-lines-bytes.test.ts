// JSON Lines given as UTF-8 bytes are decoded a piece at a time (lines.ts,
// `segmentsOf`), so an input of any size reads as JSON Lines. These check that
// the pieces change nothing: the same records, line numbers, paths and
// diagnostics as decoding the whole input, wherever the pieces are cut.
import { Probe } from '../../src/core/import/probe.js';
import { readJsonLines } from '../../src/core/import/lines.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeUtf8 } from '../../src/core/import/json.js';
import { forEachJsonLine } from '../../src/core/import/lines.js';
import { ImportContext, importAny, readJsonLinesAsync } from '../../src/index.js';

const encoder = new TextEncoder();

/** Pieces a line may be built of: JSON, blanks, BOMs, CRs, multi-byte text, bad JSON and bad UTF-8. */
const piece = fc
  .oneof(
    fc.constantFrom(
      '{"type":"turn_started"}',
      '{"a":"é😀\\n"}',
      '[1,2]',
      '"ü"',
      '',
      '   ',
      '\r',
      '\uFEFF',
      '{"cut":',
      'not json',
      '\u2028',
    ),
    fc.string({ maxLength: 6 }),
    fc.json({ maxDepth: 2 }),
  )
  .map((s) => encoder.encode(s));

const badBytes = fc.constantFrom(
  Uint8Array.of(0xff),
  Uint8Array.of(0xe2, 0x82),
  Uint8Array.of(0xc3),
  Uint8Array.of(0xf0, 0x9f, 0x98),
  Uint8Array.of(0xef, 0xbb, 0xbf),
);

/** UTF-8-ish bytes: lines of pieces (some invalid), newline-separated, maybe ending in one. */
const jsonlBytes = fc
  .array(
    fc.array(fc.oneof({ weight: 5, arbitrary: piece }, { weight: 1, arbitrary: badBytes }), {
      maxLength: 4,
    }),
    {
      maxLength: 12,
    },
  )
  .chain((lines) =>
    fc.boolean().map((trailing) => {
      const parts: Uint8Array[] = [];
      lines.forEach((line, i) => {
        if (i > 0) parts.push(Uint8Array.of(10));
        parts.push(...line);
      });
      if (trailing) parts.push(Uint8Array.of(10));
      const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const p of parts) {
        out.set(p, at);
        at += p.length;
      }
      return out;
    }),
  );

function viaEach(input: string | Uint8Array, segment?: number) {
  const ctx = new ImportContext({});
  const records: [unknown, string][] = [];
  forEachJsonLine(input, ctx, (value, path) => records.push([value, path]), segment);
  return { records, diagnostics: ctx.finish() };
}

function viaGenerator(input: string | Uint8Array, segment?: number) {
  const ctx = new ImportContext({});
  const records = [...readJsonLines(input, ctx, segment)];
  return { records, diagnostics: ctx.finish() };
}

describe('JSON Lines from bytes, a piece at a time', () => {
  it('reads what one decode of the whole input reads, wherever the pieces are cut', () => {
    fc.assert(
      fc.property(jsonlBytes, fc.integer({ min: 1, max: 40 }), (bytes, segment) => {
        const whole = decodeUtf8(bytes);
        expect(viaEach(bytes, segment)).toEqual(viaEach(whole));
        expect(viaGenerator(bytes, segment)).toEqual(viaGenerator(whole));
      }),
      { numRuns: 500, seed: 1127 },
    );
  });

  it('numbers lines across pieces: a bad line deep in the input is reported at its own line', () => {
    const lines = Array.from({ length: 50 }, (_, i) =>
      JSON.stringify({ i, pad: 'ü'.repeat(i % 7) }),
    );
    lines[37] = '{"broken":';
    const bytes = encoder.encode(lines.join('\n'));
    const { records, diagnostics } = viaEach(bytes, 16);
    expect(records).toHaveLength(49);
    expect(records[48]).toEqual([{ i: 49, pad: 'ü'.repeat(0) }, '$[49]']);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: 'invalid_json_line', path: '$[37]' });
  });

  it('reads a line longer than a piece whole', () => {
    const long = JSON.stringify({ text: 'x'.repeat(1000) });
    const bytes = encoder.encode(`{"a":1}\n${long}\n{"b":2}`);
    expect(viaEach(bytes, 64).records.map(([, path]) => path)).toEqual(['$[0]', '$[1]', '$[2]']);
    expect(viaEach(bytes, 64).records[1]![0]).toEqual(JSON.parse(long));
  });

  it('imports a multi-piece file given as bytes as the same text imports', async () => {
    // 9 MiB of defect records: two pieces at the default 8 MiB. Long texts
    // rather than many records (30,000, not 150,000: the same two pieces
    // for a fifth of the importing and comparing).
    const records: string[] = [];
    for (let turn = 0; records.length < 30_000; turn++) {
      records.push('{"type":"turn_started"}');
      records.push(
        `{"type":"assistant_text","content":{"type":"text","text":"turn ${turn} — ✓ ${'·'.repeat(400)}"}}`,
      );
      records.push('{"type":"turn_ended","reason":"end_turn"}');
    }
    const text = records.join('\n');
    const bytes = encoder.encode(text);
    expect(bytes.length).toBeGreaterThan(8 * 1024 * 1024);
    const fromBytes = await importAny(bytes, { filename: 'session.jsonl' });
    const fromText = await importAny(text, { filename: 'session.jsonl' });
    expect(fromBytes.format).toBe('defect');
    expect(fromBytes.events).toHaveLength(fromText.events.length);
    expect(JSON.stringify(fromBytes)).toBe(JSON.stringify(fromText));
  });

  it('sniffs JSON Lines bytes from their first lines, and a document from its text', () => {
    const lines = new Probe(encoder.encode('{"a":1}\n{"b":2}\n'));
    expect(lines.json()).toBeUndefined();
    expect(lines.isJsonLines()).toBe(true);
    expect(lines.records(5)).toEqual([{ a: 1 }, { b: 2 }]);
    const doc = new Probe(encoder.encode('{"a":\n1}\n'));
    expect(doc.json()).toEqual({ a: 1 });
    expect(doc.isJsonLines()).toBe(false);
  });

  it('finds head records past a first line longer than the first look', () => {
    const first = JSON.stringify({ type: 'turn_started', pad: 'p'.repeat(200_000) });
    const probe = new Probe(encoder.encode(`${first}\n{"type":"turn_ended"}\n`));
    expect(probe.records(2)).toEqual([JSON.parse(first), { type: 'turn_ended' }]);
  });

  it('streams the same lines as the whole input, however the chunks are cut', async () => {
    await fc.assert(
      fc.asyncProperty(
        jsonlBytes,
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        async (bytes, sizes, asText) => {
          const whole = decodeUtf8(bytes);
          async function* chunks() {
            // As bytes (split anywhere, even inside a character) or as text.
            const source: string | Uint8Array = asText ? whole : bytes;
            for (let at = 0, k = 0; at < source.length; k++) {
              const size = sizes[k % sizes.length]!;
              yield source.slice(at, at + size);
              at += size;
            }
          }
          const ctx = new ImportContext({});
          const streamed = [];
          for await (const l of readJsonLinesAsync(chunks(), ctx)) streamed.push(l);
          const expected = viaGenerator(whole);
          expect({ records: streamed, diagnostics: ctx.finish() }).toEqual(expected);
        },
      ),
      { numRuns: 300, seed: 2711 },
    );
  });

  it('streams a line that spans thousands of chunks whole', async () => {
    const long = JSON.stringify({ text: 'ü'.repeat(1_000_000) }); // 2 MB of UTF-8
    const bytes = encoder.encode(`{"a":1}\n${long}\n{"b":2}`);
    async function* chunks() {
      for (let at = 0; at < bytes.length; at += 256) yield bytes.subarray(at, at + 256);
    }
    const lines = [];
    for await (const l of readJsonLinesAsync(chunks(), new ImportContext({}))) lines.push(l);
    expect(lines.map((l) => l.path)).toEqual(['$[0]', '$[1]', '$[2]']);
    expect(lines[1]!.value).toEqual(JSON.parse(long));
  });
});
