// Longer than 600 lines: one writer per format (ten), each a handful of short
// record builders; split by format they would share every helper above them.
//
// The hostile shapes (hostile.ts) written in each format's own records. Each
// writer builds JSON *text*: values JSON.stringify cannot write (bare `NaN`,
// 10,000-deep nesting: Node's stringify overflows at about 4,000 levels) are
// spliced in as raw text through placeholders ({@link Doc}).
import type { FormatId } from '../import/format.js';
import type { Prng } from './prng.js';
import type { HostileExpect, HostileShape, HostileSizes } from './hostile.js';

/** What a writer is given. */
export interface WriterContext {
  readonly sizes: HostileSizes;
  readonly rng: Prng;
  readonly seed: number;
}

/** What a writer returns. */
export interface Written {
  readonly filename: string;
  readonly input: string | Uint8Array<ArrayBuffer>;
  readonly expect: HostileExpect;
  /** The same records as JSON Lines, for a format whose `input` is one document (OTLP). */
  readonly lines?: string;
}

type Writer = (shape: HostileShape, ctx: WriterContext) => Written | undefined;

// ---------------------------------------------------------------------------
// Raw JSON text
// ---------------------------------------------------------------------------

/** Raw JSON text spliced into records where a placeholder string stands. */
class Doc {
  readonly #raws: string[] = [];

  /** A placeholder for `text` (raw JSON) in a value given to {@link json}. */
  raw(text: string): string {
    this.#raws.push(text);
    return `\u0001R${this.#raws.length - 1}\u0001`;
  }

  /** `value` as JSON text with the placeholders replaced by their raw text. */
  json(value: unknown): string {
    const text = JSON.stringify(value);
    if (this.#raws.length === 0) return text;
    return text.replace(/"\\u0001R(\d+)\\u0001"/g, (_, n: string) => this.#raws[Number(n)]!);
  }
}

/** A marker that must survive import (the `contains` expectation). */
const MARK = 'HOSTILE-MARK';

const BASE_MS = Date.UTC(2026, 0, 2, 3, 4, 5);
const iso = (i: number) => new Date(BASE_MS + i).toISOString();
/** Nanoseconds since the epoch of {@link iso}(i), as OTLP writes them (a decimal string). */
const nanos = (i: number) => `${BASE_MS + i}000000`;

/** A `n`-character string, with the marker at its end. */
function hugeString(n: number): string {
  const unit = 'lorem ipsum dolor sit amet ';
  return unit.repeat(Math.max(0, Math.floor((n - MARK.length) / unit.length))) + MARK;
}

/** Raw JSON of a `keys`-key object. */
function hugeObject(keys: number): string {
  const parts = new Array<string>(keys);
  for (let i = 0; i < keys; i++) parts[i] = `"k${i}":${i}`;
  return `{${parts.join(',')},"${MARK}":true}`;
}

/** Raw JSON of a value nested `depth` levels, objects and arrays in turn. */
function deepValue(depth: number): string {
  const pairs = Math.floor(depth / 2);
  const odd = depth % 2 === 1;
  return `${'{"d":['.repeat(pairs)}${odd ? '[' : ''}"${MARK}"${odd ? ']' : ''}${']}'.repeat(pairs)}`;
}

/** Numbers past 2^53 (raw JSON: written out, never rounded by the writer). */
const BIG = ['9007199254740993', '18446744073709551616', '1e400', '123456789012345678901234567890'];
/** The tokens Python's `json.dumps` writes for non-finite floats (RFC 8259 forbids them). */
const NON_FINITE = ['NaN', 'Infinity', '-Infinity'];
/** JSON string text with lone surrogates, NUL and BOMs escaped, and a raw BOM. */
const BAD_TEXT = `"lone high \\ud800 lone low \\udfff NUL \\u0000 BOM \\ufeff raw BOM \ufeff ${MARK}"`;
/** Raw JSON of an object whose keys name prototype members. */
const PROTO_OBJECT = `{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"prototype":{"polluted":"yes"},"toString":"${MARK}","hasOwnProperty":1,"valueOf":null}`;
/** Ids that name prototype members. */
const PROTO_IDS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
];
/** Times out of range or malformed, for `bad-times`. */
const BAD_TIMES = [
  '+275760-09-13T00:00:00.001Z',
  '-271821-04-19T00:00:00.000Z',
  '2026-13-45T99:99:99Z',
  '0000-00-00T00:00:00Z',
  '',
];

/** UTF-8 bytes with a BOM in front: how some Windows tools write JSON. */
function withBom(text: string): Uint8Array<ArrayBuffer> {
  const body = new TextEncoder().encode(text);
  const out = new Uint8Array(body.length + 3);
  out.set([0xef, 0xbb, 0xbf]);
  out.set(body, 3);
  return out;
}

/** A line that is not JSON: a raw NUL byte (JSON strings must escape it). */
const NUL_LINE = '{"type": "broken\u0000line"}';

/**
 * The value shapes, which every format expresses the same way: a payload in a
 * tool result (and, for `deep-value`, in a message too).
 */
interface Payload {
  /** Raw JSON of the tool result (or output). */
  readonly result: string;
  /** Raw JSON of the tool's arguments (an object). */
  readonly args: string;
  /** Raw JSON of a message's text (a string) or value. */
  readonly message: string;
  /** True when `message` is a JSON string. */
  readonly messageIsText: boolean;
  readonly expect: Partial<HostileExpect>;
}

function payloadOf(shape: HostileShape, sizes: HostileSizes): Payload | undefined {
  switch (shape) {
    case 'huge-string': {
      const s = JSON.stringify(hugeString(sizes.stringBytes));
      return {
        result: s,
        args: '{"path":"big.txt"}',
        message: '"a huge result follows"',
        messageIsText: true,
        expect: { contains: MARK },
      };
    }
    case 'huge-object':
      return {
        result: hugeObject(sizes.keys),
        args: hugeObject(Math.min(sizes.keys, 1000)),
        message: '"a huge object follows"',
        messageIsText: true,
        expect: { contains: MARK },
      };
    case 'deep-value': {
      const v = deepValue(sizes.valueDepth);
      return {
        result: v,
        args: `{"deep":${v}}`,
        message: v,
        messageIsText: false,
        expect: { diagnostics: ['value_too_deep'] },
      };
    }
    case 'big-numbers':
      return {
        result: `[${BIG.join(',')}]`,
        args: `{"n":${BIG[1]},"m":${BIG[3]}}`,
        message: `"${MARK} ${BIG.join(' ')}"`,
        messageIsText: true,
        expect: {},
      };
    case 'non-finite':
      return {
        result: `{"score":NaN,"max":Infinity,"min":-Infinity,"list":[NaN,Infinity,-Infinity]}`,
        args: '{"threshold":NaN}',
        message: `"${MARK}"`,
        messageIsText: true,
        expect: {},
      };
    case 'bad-text':
      return {
        result: BAD_TEXT,
        args: `{"text":${BAD_TEXT}}`,
        message: BAD_TEXT,
        messageIsText: true,
        expect: {},
      };
    case 'proto-keys':
      return {
        result: PROTO_OBJECT,
        args: PROTO_OBJECT,
        message: `"${MARK}"`,
        messageIsText: true,
        expect: {},
      };
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------
// skein (canonical events as JSON Lines) and inspect (the same in a .json log)
// ---------------------------------------------------------------------------

/** Canonical events, one JSON text each. */
function canonicalRecords(
  shape: HostileShape,
  ctx: WriterContext,
): { records: string[]; expect: HostileExpect } | undefined {
  const { sizes, rng } = ctx;
  const doc = new Doc();
  const out: string[] = [];
  const ev = (e: Record<string, unknown>) => out.push(doc.json(e));
  let t = 0;
  const begin = (id: string, parent: string | null, type: string | null, name = id) =>
    ev({
      event: 'span_begin',
      uuid: `b:${id}:${out.length}`,
      timestamp: iso(t++),
      id,
      parent_id: parent,
      span_id: parent,
      type,
      name,
    });
  const end = (id: string, at = t++) =>
    ev({ event: 'span_end', uuid: `e:${id}:${out.length}`, timestamp: iso(at), id, span_id: id });
  const info = (span: string | null, data: unknown, uuid = `i${out.length}`) =>
    ev({ event: 'info', uuid, timestamp: iso(t++), span_id: span, data });
  const tool = (span: string | null, id: string, args: unknown, result: unknown, uuid?: string) =>
    ev({
      event: 'tool',
      uuid: uuid ?? `t${out.length}`,
      timestamp: iso(t++),
      completed: iso(t++),
      span_id: span,
      type: 'function',
      id,
      function: 'bash',
      arguments: args,
      result,
    });
  const types = ['agent', 'task', 'cell', null];
  const payload = payloadOf(shape, sizes);
  if (payload) {
    begin('run', null, 'agent');
    ev({
      event: 'message',
      uuid: 'm1',
      timestamp: iso(t++),
      span_id: 'run',
      role: 'assistant',
      message_id: 'm1',
      content: doc.raw(
        payload.messageIsText
          ? payload.message
          : `[{"type":"text","text":"${MARK}"},{"type":"data","data":${payload.message}}]`,
      ),
    });
    tool('run', 'call-1', doc.raw(payload.args), doc.raw(payload.result));
    if (shape === 'big-numbers' || shape === 'non-finite') {
      const v = shape === 'big-numbers' ? BIG : NON_FINITE;
      ev({
        event: 'model',
        uuid: 'model-1',
        timestamp: iso(t++),
        working_start: doc.raw(v[0]!),
        span_id: 'run',
        model: 'hostile/model',
        input: [],
        tools: [],
        tool_choice: 'auto',
        config: { temperature: doc.raw(v[1]!) },
        output: {
          model: 'hostile/model',
          choices: [],
          usage: {
            input_tokens: doc.raw(v[0]!),
            output_tokens: doc.raw(v[1]!),
            total_tokens: doc.raw(v[2]!),
          },
        },
        metadata: { id: doc.raw(v[1]!) },
      });
    }
    if (shape === 'proto-keys') {
      for (const id of PROTO_IDS) {
        begin(id, 'run', 'agent');
        info(id, doc.raw(PROTO_OBJECT), id === '__proto__' ? 'toString' : `u-${id}`);
        tool(id, id, doc.raw(PROTO_OBJECT), id, `tool-${id}`);
        end(id);
      }
    }
    end('run');
    return { records: out, expect: { events: 3, ...payload.expect } };
  }
  switch (shape) {
    case 'deep': {
      const d = sizes.depth;
      for (let i = 0; i < d; i++) {
        begin(`s${i}`, i ? `s${i - 1}` : null, types[i % 4]!);
        if (i % 97 === 0) info(`s${i}`, i);
      }
      info(`s${d - 1}`, MARK, 'deepest');
      for (let i = d - 1; i >= 0; i--) end(`s${i}`);
      return { records: out, expect: { events: 2 * d, depth: d, contains: MARK } };
    }
    case 'wide': {
      begin('run', null, 'agent');
      for (let i = 0; i < sizes.width; i++) {
        if (i % 2) info('run', i);
        else tool('run', `c${i}`, { i }, `r${i}`);
      }
      end('run');
      return { records: out, expect: { events: sizes.width } };
    }
    case 'cycle': {
      // Two spans naming each other, then a ring of up to 1,000, each holding an event.
      begin('a', 'b', 'agent');
      begin('b', 'a', 'agent');
      info('a', 'in a');
      info('b', 'in b');
      const ring = Math.min(1000, sizes.depth);
      for (let i = 0; i < ring; i++) begin(`r${i}`, `r${(i + 1) % ring}`, types[i % 4]!);
      for (let i = 0; i < ring; i++) info(`r${i}`, i);
      for (let i = ring - 1; i >= 0; i--) end(`r${i}`);
      end('b');
      end('a');
      return { records: out, expect: { events: 2 * ring + 4 } };
    }
    case 'self-parent': {
      for (let i = 0; i < 100; i++) {
        begin(`self${i}`, `self${i}`, 'agent');
        info(`self${i}`, i);
        end(`self${i}`);
      }
      return { records: out, expect: { events: 300 } };
    }
    case 'end-before-begin': {
      // Ends listed before their begins, and ends stamped before their begins.
      for (let i = 0; i < 100; i++) {
        end(`x${i}`, 1_000_000 - i);
        begin(`x${i}`, null, 'agent');
        info(`x${i}`, i);
      }
      for (let i = 0; i < 100; i++) {
        begin(`y${i}`, null, 'task');
        end(`y${i}`, 0);
      }
      return { records: out, expect: { events: 300 } };
    }
    case 'end-without-begin': {
      begin('run', null, 'agent');
      for (let i = 0; i < Math.min(sizes.width, 10_000); i++) end(`never${i}`);
      info('run', MARK);
      end('run');
      return { records: out, expect: { events: 3, contains: MARK } };
    }
    case 'duplicate-ids': {
      const k = sizes.duplicates;
      for (let i = 0; i < k; i++) begin('dup-span', i % 2 ? 'dup-span' : null, 'agent');
      for (let i = 0; i < k; i++) info('dup-span', i, 'dup-uuid');
      for (let i = 0; i < k; i++) tool('dup-span', 'dup-call', { i }, i, `dup-tool-${rng.int(10)}`);
      for (let i = 0; i < k; i++) end('dup-span');
      return { records: out, expect: { events: 1 } };
    }
    case 'bad-times': {
      begin('run', null, 'agent');
      // Reversed: each event earlier than the one before.
      for (let i = 0; i < 200; i++)
        ev({
          event: 'info',
          uuid: `rev${i}`,
          timestamp: iso(1_000_000 - i * 1000),
          span_id: 'run',
          data: i,
        });
      for (const [i, bad] of BAD_TIMES.entries())
        ev({ event: 'info', uuid: `bad${i}`, timestamp: bad, span_id: 'run', data: bad });
      ev({
        event: 'info',
        uuid: 'huge-ms',
        timestamp: '9999-12-31T23:59:59.999999999Z',
        span_id: 'run',
        data: 1,
      });
      end('run');
      return { records: out, expect: { events: 200 } };
    }
    case 'bad-text':
    default:
      return undefined;
  }
}

const skeinWriter: Writer = (shape, ctx) => {
  const made = canonicalRecords(shape, ctx);
  if (shape === 'bad-text') {
    const doc = new Doc();
    const lines = [
      doc.json({
        event: 'span_begin',
        uuid: 'b',
        timestamp: iso(0),
        id: 'run',
        name: doc.raw(BAD_TEXT),
      }),
      NUL_LINE,
      doc.json({
        event: 'message',
        uuid: doc.raw(BAD_TEXT),
        timestamp: iso(1),
        span_id: 'run',
        role: 'user',
        content: doc.raw(BAD_TEXT),
      }),
      doc.json({
        event: 'info',
        uuid: 'i\u0000d',
        timestamp: iso(2),
        span_id: 'run',
        data: doc.raw(BAD_TEXT),
      }),
      doc.json({ event: 'span_end', uuid: 'e', timestamp: iso(3), id: 'run', span_id: 'run' }),
    ];
    return {
      filename: 'hostile.jsonl',
      input: withBom(lines.join('\n')),
      expect: { events: 4, contains: MARK },
    };
  }
  if (!made) return undefined;
  return { filename: 'hostile.jsonl', input: made.records.join('\n'), expect: made.expect };
};

const inspectWriter: Writer = (shape, ctx) => {
  const written = skeinWriter(shape, ctx);
  if (!written) return undefined;
  const text =
    typeof written.input === 'string'
      ? written.input
      : new TextDecoder().decode(written.input.subarray(3));
  const events = text.split('\n').filter((l) => l !== NUL_LINE);
  const head =
    '{"version":2,"status":"success","eval":{"task":"hostile","model":"hostile/model","created":"2026-01-02T03:04:05Z"},' +
    '"samples":[{"id":1,"epoch":1,"input":"hostile","target":"none",' +
    // An attachment, referenced from an event: the resolver walks every value.
    `"attachments":{"a1":"${MARK}"},"events":[{"event":"info","uuid":"att","timestamp":"${iso(0)}","data":"attachment://a1"},`;
  const body = `${head}${events.join(',')}]}]}`;
  return {
    filename: 'hostile.json',
    input: shape === 'bad-text' ? withBom(body) : body,
    expect: { ...written.expect, events: Math.min(written.expect.events, events.length) },
  };
};

// ---------------------------------------------------------------------------
// OTLP/JSON traces
// ---------------------------------------------------------------------------

const TRACE = '5b8efff798038103d269b633813fc60c';
const hex16 = (n: number) => n.toString(16).padStart(16, '0');

const otlpWriter: Writer = (shape, ctx) => {
  const { sizes } = ctx;
  const doc = new Doc();
  const spans: string[] = [];
  const str = (v: string) => ({ stringValue: v });
  const span = (s: {
    id: string;
    parent?: string;
    name?: string;
    start?: string | null;
    end?: string | null;
    attrs?: { key: string; value: unknown }[];
  }) =>
    spans.push(
      doc.json({
        traceId: TRACE,
        spanId: s.id,
        ...(s.parent !== undefined ? { parentSpanId: s.parent } : {}),
        name: s.name ?? s.id,
        kind: 1,
        ...(s.start !== null ? { startTimeUnixNano: s.start ?? nanos(spans.length) } : {}),
        ...(s.end !== null ? { endTimeUnixNano: s.end ?? nanos(spans.length + 1) } : {}),
        attributes: s.attrs ?? [],
      }),
    );
  const wrap = () =>
    `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"hostile"}}]},"scopeSpans":[{"scope":{"name":"hostile"},"spans":[${spans.join(',')}]}]}]}`;
  // One export per span, in the same order: what a collector's file exporter writes.
  const lines = () =>
    spans.map((span) => `{"resourceSpans":[{"scopeSpans":[{"spans":[${span}]}]}]}`).join('\n');
  const toolAttrs = (id: string, args: string, result: string) => [
    { key: 'gen_ai.operation.name', value: str('execute_tool') },
    { key: 'gen_ai.tool.name', value: str('bash') },
    { key: 'gen_ai.tool.call.id', value: str(id) },
    { key: 'gen_ai.tool.call.arguments', value: str(args) },
    { key: 'gen_ai.tool.call.result', value: str(result) },
  ];
  let expect: HostileExpect;
  const payload = payloadOf(shape, sizes);
  if (payload) {
    span({
      id: hex16(1),
      name: 'agent',
      attrs: [{ key: 'gen_ai.operation.name', value: str('invoke_agent') }],
    });
    span({
      id: hex16(2),
      parent: hex16(1),
      name: 'chat',
      attrs: [
        { key: 'gen_ai.operation.name', value: str('chat') },
        {
          key: 'gen_ai.input.messages',
          value: str(
            `[{"role":"user","parts":[{"type":"text","content":${payload.messageIsText ? payload.message : JSON.stringify(payload.message)}}]}]`,
          ),
        },
      ],
    });
    span({
      id: hex16(3),
      parent: hex16(1),
      name: 'execute_tool bash',
      attrs: toolAttrs('call-1', payload.args, payload.result),
    });
    if (shape === 'deep-value') {
      // The same depth as an AnyValue (kvlistValue in arrayValue …), not a string.
      const pairs = Math.floor(sizes.valueDepth / 2);
      const nested = `${'{"kvlistValue":{"values":[{"key":"d","value":{"arrayValue":{"values":['.repeat(pairs)}{"stringValue":"${MARK}"}${']}}}]}}'.repeat(pairs)}`;
      span({
        id: hex16(4),
        parent: hex16(1),
        name: 'deep attribute',
        attrs: [{ key: 'deep', value: doc.raw(nested) }],
      });
    }
    if (shape === 'big-numbers' || shape === 'non-finite') {
      const v = shape === 'big-numbers' ? BIG : NON_FINITE;
      span({
        id: hex16(5),
        parent: hex16(1),
        name: 'numbers',
        start: doc.raw(shape === 'big-numbers' ? '17000000000000000000' : v[0]!),
        end: doc.raw(v[1]!),
        attrs: [
          { key: 'gen_ai.usage.input_tokens', value: { intValue: doc.raw(v[0]!) } },
          { key: 'gen_ai.usage.output_tokens', value: { intValue: doc.raw(`"${v[1]!}"`) } },
          { key: 'x.double', value: { doubleValue: doc.raw(v[2]!) } },
        ],
      });
      span({
        id: hex16(6),
        parent: hex16(1),
        name: 'string nanos',
        start: '99999999999999999999999999',
        end: '18446744073709551616',
      });
    }
    if (shape === 'proto-keys') {
      for (const id of PROTO_IDS) {
        span({
          id,
          parent: id === 'prototype' ? '__proto__' : hex16(1),
          name: id,
          attrs: [
            { key: id, value: str(id) },
            {
              key: '__proto__',
              value: { kvlistValue: { values: [{ key: 'polluted', value: str('yes') }] } },
            },
          ],
        });
      }
    }
    expect = { events: 3, ...payload.expect };
    return { filename: 'hostile.otlp.json', input: wrap(), expect, lines: lines() };
  }
  switch (shape) {
    case 'deep': {
      // Children first: the deepest span is listed first, its parent next…
      const d = sizes.depth;
      for (let i = d - 1; i >= 0; i--)
        span({
          id: hex16(i + 1),
          ...(i ? { parent: hex16(i) } : {}),
          name: i === d - 1 ? MARK : `span ${i}`,
          start: nanos(i),
          end: nanos(2 * d - i),
          attrs: i % 3 === 0 ? [{ key: 'gen_ai.operation.name', value: str('invoke_agent') }] : [],
        });
      expect = { events: d, depth: d - 1, contains: MARK };
      break;
    }
    case 'wide': {
      span({ id: hex16(1), name: 'root', start: nanos(0), end: nanos(sizes.width + 2) });
      for (let i = 0; i < sizes.width; i++)
        span({
          id: hex16(i + 2),
          parent: hex16(1),
          name: `child ${i}`,
          start: nanos(i + 1),
          end: nanos(i + 2),
        });
      expect = { events: sizes.width };
      break;
    }
    case 'cycle': {
      const ring = Math.min(1000, sizes.depth);
      for (let i = 0; i < ring; i++)
        span({ id: hex16(i + 1), parent: hex16(((i + 1) % ring) + 1) });
      span({ id: hex16(ring + 1), parent: hex16(1), name: MARK });
      expect = { events: ring + 1, diagnostics: ['otlp_parent_cycle'], contains: MARK };
      break;
    }
    case 'self-parent':
      for (let i = 0; i < 100; i++) span({ id: hex16(i + 1), parent: hex16(i + 1) });
      expect = { events: 100 };
      break;
    case 'end-before-begin':
      for (let i = 0; i < 100; i++)
        span({ id: hex16(i + 1), start: nanos(1000 + i), end: nanos(i) });
      expect = { events: 100 };
      break;
    case 'end-without-begin':
      for (let i = 0; i < 100; i++) span({ id: hex16(i + 1), start: null, end: nanos(i) });
      span({ id: hex16(500), name: MARK, start: null, end: null });
      expect = { events: 101, contains: MARK };
      break;
    case 'duplicate-ids':
      for (let i = 0; i < sizes.duplicates; i++)
        span({ id: hex16(7), parent: i % 2 ? hex16(7) : undefined, name: `dup ${i}` });
      expect = { events: 1, diagnostics: ['otlp_duplicate_span'] };
      break;
    case 'bad-times':
      for (let i = 0; i < 200; i++)
        span({ id: hex16(i + 1), start: nanos(100_000 - i * 100), end: nanos(100_050 - i * 100) });
      span({ id: hex16(300), start: '-5', end: 'yesterday' });
      span({ id: hex16(301), start: '99999999999999999999', end: '0' });
      expect = { events: 200 };
      break;
    case 'bad-text':
      span({
        id: hex16(1),
        name: doc.raw(BAD_TEXT),
        attrs: [{ key: doc.raw(BAD_TEXT), value: { stringValue: doc.raw(BAD_TEXT) } }],
      });
      span({ id: doc.raw(BAD_TEXT), parent: hex16(1), name: MARK });
      return {
        filename: 'hostile.otlp.json',
        input: withBom(wrap()),
        expect: { events: 2, contains: MARK },
      };
    default:
      return undefined;
  }
  return { filename: 'hostile.otlp.json', input: wrap(), expect, lines: lines() };
};

// ---------------------------------------------------------------------------
// JSON Lines formats: one shared skeleton, the records per format
// ---------------------------------------------------------------------------

/** The records a JSON Lines format writes for the shared shapes. */
interface LineFormat {
  readonly filename: string;
  /** The first records of a run. */
  prelude(doc: Doc, at: Clock): string[];
  /** A message carrying `content` (raw JSON; a string when `isText`). */
  message(doc: Doc, at: Clock, content: string, isText: boolean): string[];
  /** A tool call `id` with its arguments and result (raw JSON). */
  tool(doc: Doc, at: Clock, id: string, args: string, result: string): string[];
  /** The last records of a run. */
  finale(doc: Doc, at: Clock): string[];
  /** A record with numbers (raw JSON) where the format keeps ids and times. */
  numbers?(doc: Doc, at: Clock, values: readonly string[]): string[];
  /** The format's own shapes (nesting, cycles…): records and expectation. */
  own?(
    shape: HostileShape,
    doc: Doc,
    at: Clock,
    ctx: WriterContext,
  ): { records: string[]; expect: HostileExpect } | undefined;
  /** Ends without a begin: results, replies and closes of nothing. */
  orphans(doc: Doc, at: Clock, n: number): string[];
  /** Records sharing ids. */
  duplicates(doc: Doc, at: Clock, n: number): string[];
  /** Records with reversed and malformed times, when the format has times. */
  badTimes?(doc: Doc, at: Clock): string[];
  /** Records using prototype member names as ids. */
  protoIds(doc: Doc, at: Clock): string[];
  /** Wraps the lines (default: JSON Lines). */
  wrap?(lines: string[]): string;
}

/** A counter of records and times. */
class Clock {
  n = 0;
  next(): number {
    return this.n++;
  }
  iso(): string {
    return iso(this.n++);
  }
}

function lineWriter(format: LineFormat): Writer {
  return (shape, ctx) => {
    const doc = new Doc();
    const at = new Clock();
    const wrap = format.wrap ?? ((lines: string[]) => lines.join('\n'));
    const own = format.own?.(shape, doc, at, ctx);
    if (own) return { filename: format.filename, input: wrap(own.records), expect: own.expect };
    const lines = format.prelude(doc, at);
    let expect: HostileExpect = { events: 1 };
    const payload = payloadOf(shape, ctx.sizes);
    if (payload) {
      lines.push(...format.message(doc, at, payload.message, payload.messageIsText));
      lines.push(...format.tool(doc, at, 'call-1', payload.args, payload.result));
      if ((shape === 'big-numbers' || shape === 'non-finite') && format.numbers)
        lines.push(...format.numbers(doc, at, shape === 'big-numbers' ? BIG : NON_FINITE));
      if (shape === 'proto-keys') lines.push(...format.protoIds(doc, at));
      expect = { events: 2, ...payload.expect };
      if (shape === 'bad-text') lines.splice(1, 0, NUL_LINE);
    } else {
      switch (shape) {
        case 'wide':
          for (let i = 0; i < ctx.sizes.width; i++)
            lines.push(
              ...(i % 2
                ? format.message(doc, at, `"m${i}"`, true)
                : format.tool(doc, at, `c${i}`, `{"i":${i}}`, `"r${i}"`)),
            );
          expect = { events: ctx.sizes.width };
          break;
        case 'end-without-begin':
          lines.push(...format.orphans(doc, at, Math.min(ctx.sizes.width, 10_000)));
          lines.push(...format.message(doc, at, `"${MARK}"`, true));
          expect = { events: 1, contains: MARK };
          break;
        case 'duplicate-ids':
          // One push per line: spread as arguments, 100,000 records overflow the stack.
          for (const line of format.duplicates(doc, at, ctx.sizes.duplicates)) lines.push(line);
          break;
        case 'bad-times':
          if (!format.badTimes) return undefined;
          lines.push(...format.badTimes(doc, at));
          break;
        default:
          return undefined;
      }
    }
    lines.push(...format.finale(doc, at));
    const text = wrap(lines);
    return {
      filename: format.filename,
      input: shape === 'bad-text' ? withBom(text) : text,
      expect,
    };
  };
}

// --- Claude Code ------------------------------------------------------------

const claudeCode = (() => {
  let last: string | null = null;
  const rec = (doc: Doc, at: Clock, r: Record<string, unknown>, uuid = `u${at.n}`) => {
    const line = doc.json({
      parentUuid: last,
      isSidechain: false,
      sessionId: 'hostile-session',
      timestamp: at.iso(),
      uuid,
      ...r,
    });
    last = uuid;
    return line;
  };
  const assistant = (content: unknown[], id: string) => ({
    type: 'assistant',
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: 'claude-hostile',
      content,
      stop_reason: 'tool_use',
    },
  });
  const user = (content: unknown) => ({ type: 'user', message: { role: 'user', content } });
  const format: LineFormat = {
    filename: 'hostile-session.jsonl',
    prelude(doc, at) {
      last = null;
      return [rec(doc, at, user('hostile prompt'))];
    },
    message(doc, at, content, isText) {
      return [
        rec(
          doc,
          at,
          assistant(
            [{ type: 'text', text: doc.raw(isText ? content : `"${MARK}"`) }],
            `msg${at.n}`,
          ),
        ),
        ...(isText ? [] : [rec(doc, at, { ...user('value'), toolUseResult: doc.raw(content) })]),
      ];
    },
    tool(doc, at, id, args, result) {
      return [
        rec(
          doc,
          at,
          assistant([{ type: 'tool_use', id, name: 'Bash', input: doc.raw(args) }], `msg${at.n}`),
        ),
        rec(doc, at, {
          ...user([{ type: 'tool_result', tool_use_id: id, content: doc.raw(result) }]),
          toolUseResult: doc.raw(result),
        }),
      ];
    },
    finale: () => [],
    numbers(doc, at, v) {
      return [
        rec(
          doc,
          at,
          {
            ...user('numbers'),
            timestamp: doc.raw(v[0]!),
            toolUseResult: doc.raw(`[${v.join(',')}]`),
          },
          `n${at.n}`,
        ),
      ];
    },
    orphans(doc, at, n) {
      const out: string[] = [];
      for (let i = 0; i < n; i++)
        out.push(
          rec(doc, at, user([{ type: 'tool_result', tool_use_id: `never${i}`, content: 'x' }])),
        );
      return out;
    },
    duplicates(doc, at, n) {
      const out: string[] = [];
      for (let i = 0; i < n; i++)
        out.push(
          rec(doc, at, assistant([{ type: 'text', text: `dup ${i}` }], 'msg-dup'), 'dup-uuid'),
        );
      return out;
    },
    badTimes(doc, at) {
      const out: string[] = [];
      for (let i = 0; i < 200; i++)
        out.push(
          rec(doc, at, { ...user(`rev ${i}`), timestamp: iso(1_000_000 - i * 1000), isMeta: true }),
        );
      for (const t of BAD_TIMES)
        out.push(rec(doc, at, { ...user(`bad ${t}`), timestamp: t, isMeta: true }));
      return out;
    },
    protoIds(doc, at) {
      return PROTO_IDS.flatMap((id) => [
        rec(
          doc,
          at,
          {
            ...assistant(
              [{ type: 'tool_use', id, name: 'Task', input: { subagent_type: id } }],
              id,
            ),
            agentId: id,
          },
          id,
        ),
        rec(doc, at, {
          ...user([{ type: 'tool_result', tool_use_id: id, content: id }]),
          toolUseResult: { agentId: id },
        }),
      ]);
    },
    own(shape, doc, at, ctx) {
      switch (shape) {
        case 'deep': {
          // Each sub-agent's first record calls Task, whose sub-agent is the next.
          last = null;
          const d = ctx.sizes.depth;
          const out = [rec(doc, at, user('hostile prompt'))];
          for (let i = 0; i < d; i++)
            out.push(
              rec(doc, at, {
                ...assistant(
                  [
                    {
                      type: 'tool_use',
                      id: `task${i}`,
                      name: 'Task',
                      input: {
                        subagent_type: i === d - 1 ? MARK : `level ${i}`,
                        prompt: 'go deeper',
                      },
                    },
                  ],
                  `msg${i}`,
                ),
                isSidechain: i > 0,
                ...(i > 0 ? { agentId: `agent${i}` } : {}),
              }),
            );
          return { records: out, expect: { events: d, depth: d, contains: MARK } };
        }
        case 'cycle':
        case 'self-parent': {
          const out: string[] = [];
          const n = shape === 'cycle' ? Math.min(1000, ctx.sizes.depth) : 100;
          for (let i = 0; i < n; i++) {
            const parent = shape === 'cycle' ? `c${(i + 1) % n}` : `c${i}`;
            out.push(
              doc.json({
                parentUuid: parent,
                isSidechain: false,
                sessionId: 's',
                timestamp: iso(i),
                uuid: `c${i}`,
                ...user(i ? `cycle ${i}` : MARK),
              }),
            );
          }
          return { records: out, expect: { events: n, contains: MARK } };
        }
        case 'end-before-begin': {
          last = null;
          const out = [rec(doc, at, user('prompt'))];
          for (let i = 0; i < 100; i++) {
            out.push(
              rec(doc, at, {
                ...assistant([{ type: 'tool_use', id: `t${i}`, name: 'Bash', input: {} }], `m${i}`),
                timestamp: iso(10_000 + i),
              }),
            );
            out.push(
              rec(doc, at, {
                ...user([{ type: 'tool_result', tool_use_id: `t${i}`, content: 'done' }]),
                timestamp: iso(i),
              }),
            );
          }
          return { records: out, expect: { events: 100 } };
        }
        default:
          return undefined;
      }
    },
  };
  return format;
})();

// --- defect -------------------------------------------------------------------

const defect: LineFormat = {
  filename: 'hostile-defect.jsonl',
  prelude: (doc) => [
    doc.json({ type: 'turn_started' }),
    doc.json({
      type: 'user_prompt_committed',
      content: [{ type: 'text', text: 'hostile prompt' }],
    }),
  ],
  message: (doc, _at, content, isText) => [
    doc.json({
      type: 'assistant_text',
      content: isText
        ? { type: 'text', text: doc.raw(content) }
        : { type: 'hostile', data: doc.raw(content) },
    }),
  ],
  tool: (doc, _at, id, args, result) => [
    doc.json({
      type: 'tool_call_started',
      id,
      name: 'shell',
      fields: { kind: 'execute', title: 'run', rawInput: doc.raw(args) },
    }),
    doc.json({
      type: 'tool_call_finished',
      id,
      fields: { status: 'completed', rawOutput: doc.raw(result) },
    }),
  ],
  finale: (doc) => [doc.json({ type: 'turn_ended', stop_reason: 'end_turn' })],
  numbers: (doc, _at, v) => [
    doc.json({ type: 'llm_call_started', model: 'm', attempt: doc.raw(v[0]!) }),
    doc.json({
      type: 'llm_call_finished',
      model: 'm',
      attempt: doc.raw(v[0]!),
      usage: { input_tokens: doc.raw(v[1]!), output_tokens: doc.raw(v[2]!) },
      error: null,
    }),
  ],
  orphans(doc, _at, n) {
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      out.push(
        doc.json({ type: 'tool_call_finished', id: `never${i}`, fields: { status: 'completed' } }),
      );
      if (i % 10 === 0) out.push(doc.json({ type: 'turn_ended', stop_reason: 'end_turn' }));
      if (i % 10 === 0)
        out.push(
          doc.json({
            type: 'subagent',
            ancestor_path: [`never${i}`],
            agent_type: 'ghost',
            inner: { type: 'turn_ended' },
          }),
        );
    }
    return out;
  },
  duplicates(doc, _at, n) {
    const out: string[] = [];
    for (let i = 0; i < n; i++)
      out.push(
        doc.json({
          type: 'tool_call_started',
          id: 'dup',
          name: 'shell',
          fields: { rawInput: { i } },
        }),
      );
    return out;
  },
  protoIds: (doc) =>
    PROTO_IDS.flatMap((id) => [
      doc.json({ type: 'tool_call_started', id, name: id, fields: { rawInput: { [id]: id } } }),
      doc.json({
        type: 'subagent',
        ancestor_path: [id],
        agent_type: id,
        inner: { type: 'assistant_text', content: { type: 'text', text: id } },
      }),
      doc.json({ type: 'tool_call_finished', id, fields: { status: 'completed' } }),
    ]),
  own(shape, doc, _at, ctx) {
    if (shape !== 'deep' && shape !== 'cycle' && shape !== 'self-parent') return undefined;
    const out = [...defect.prelude(doc, new Clock())];
    const tool = (id: string) => ({
      type: 'tool_call_started',
      id,
      name: 'task',
      fields: { kind: 'other', rawInput: { prompt: 'deeper' } },
    });
    if (shape === 'deep') {
      // The sub-agent of call t(i) calls t(i+1): each record names one ancestor.
      const d = ctx.sizes.depth;
      out.push(doc.json(tool('t0')));
      for (let i = 0; i < d; i++)
        out.push(
          doc.json({
            type: 'subagent',
            ancestor_path: [`t${i}`],
            agent_type: i === d - 1 ? MARK : `level ${i}`,
            inner: tool(`t${i + 1}`),
          }),
        );
      out.push(...defect.finale(doc, new Clock()));
      return { records: out, expect: { events: d, depth: d, contains: MARK } };
    }
    // A sub-agent whose spawning call sits inside itself (self), or a ring of them.
    const n = shape === 'cycle' ? Math.min(1000, ctx.sizes.depth) : 100;
    for (let i = 0; i < n; i++) {
      const spawner = shape === 'cycle' ? `r${(i + 1) % n}` : `r${i}`;
      out.push(
        doc.json({
          type: 'subagent',
          ancestor_path: [spawner],
          agent_type: 'ring',
          inner: tool(`r${i}`),
        }),
      );
    }
    out.push(doc.json({ type: 'assistant_text', content: { type: 'text', text: MARK } }));
    out.push(...defect.finale(doc, new Clock()));
    return { records: out, expect: { events: n, contains: MARK } };
  },
};

// --- agex -------------------------------------------------------------------------

const agex = (() => {
  const base = (at: Clock, ns = 'main') => ({
    timestamp: `${at.iso().slice(0, -1)}000Z`,
    agent_name: ns.slice(ns.lastIndexOf('/') + 1),
    full_namespace: ns,
  });
  const format: LineFormat = {
    filename: 'hostile-agex.jsonl',
    prelude: (doc, at) => [
      doc.json({
        event_type: 'TaskStartEvent',
        ...base(at),
        task_name: 'hostile',
        inputs: {},
        message: 'hostile prompt',
      }),
    ],
    message: (doc, at, content) => [
      doc.json({ event_type: 'OutputEvent', ...base(at), parts: [doc.raw(content)] }),
    ],
    tool: (doc, at, _id, args, result) => [
      doc.json({
        event_type: 'ActionEvent',
        ...base(at),
        title: 'act',
        thinking: 'hm',
        code: 'run()',
        input_tokens: 1,
        output_tokens: 1,
      }),
      doc.json({
        event_type: 'TaskStartEvent',
        ...base(at),
        task_name: 'inner',
        inputs: doc.raw(args),
      }),
      doc.json({ event_type: 'SuccessEvent', ...base(at), result: doc.raw(result) }),
    ],
    finale: (doc, at) => [doc.json({ event_type: 'SuccessEvent', ...base(at), result: 'done' })],
    numbers: (doc, at, v) => [
      doc.json({
        event_type: 'ActionEvent',
        ...base(at),
        title: 'n',
        code: 'x',
        input_tokens: doc.raw(v[0]!),
        output_tokens: doc.raw(v[1]!),
        full_detail_tokens: doc.raw(v[2]!),
      }),
    ],
    orphans(doc, at, n) {
      const out: string[] = [];
      for (let i = 0; i < n; i++)
        out.push(
          doc.json({
            event_type: i % 2 ? 'FailEvent' : 'SuccessEvent',
            ...base(at, `ghost${i % 7}`),
            result: i,
          }),
        );
      return out;
    },
    duplicates(doc, at, n) {
      const out: string[] = [];
      for (let i = 0; i < n; i++)
        out.push(
          doc.json({ event_type: 'TaskStartEvent', ...base(at), task_name: 'dup', inputs: { i } }),
        );
      return out;
    },
    badTimes(doc, at) {
      const out: string[] = [];
      for (let i = 0; i < 200; i++)
        out.push(
          doc.json({
            event_type: 'OutputEvent',
            ...base(at),
            timestamp: iso(1_000_000 - i * 1000),
            parts: [`rev ${i}`],
          }),
        );
      for (const t of BAD_TIMES)
        out.push(doc.json({ event_type: 'OutputEvent', ...base(at), timestamp: t, parts: [t] }));
      return out;
    },
    protoIds: (doc, at) =>
      PROTO_IDS.flatMap((id) => [
        doc.json({
          event_type: 'TaskStartEvent',
          ...base(at, `main/${id}`),
          task_name: id,
          inputs: { [id]: id },
        }),
        doc.json({ event_type: 'SuccessEvent', ...base(at, `main/${id}`), result: id }),
      ]),
    own(shape, doc, at, ctx) {
      if (shape !== 'deep') return undefined;
      // Tasks nested in one agent, then a chain of sub-agents: a namespace
      // names every ancestor, so its records grow with depth (quadratic
      // bytes); the chain stops at 2,000.
      const d = ctx.sizes.depth;
      const out: string[] = [];
      for (let i = 0; i < d; i++)
        out.push(
          doc.json({
            event_type: 'TaskStartEvent',
            ...base(at),
            task_name: i === d - 1 ? MARK : `t${i}`,
            inputs: {},
          }),
        );
      let ns = 'main';
      const agents = Math.min(2000, d);
      for (let i = 0; i < agents; i++) {
        ns += `/a${i}`;
        out.push(
          doc.json({
            event_type: 'TaskStartEvent',
            ...base(at, ns),
            task_name: `sub ${i}`,
            inputs: {},
          }),
        );
      }
      for (let i = 0; i < d; i++)
        out.push(doc.json({ event_type: 'SuccessEvent', ...base(at), result: i }));
      return { records: out, expect: { events: d, depth: d, contains: MARK } };
    },
  };
  return format;
})();

// --- OpenHands (V0 trajectories as JSON Lines) --------------------------------------

const openHands = (() => {
  const rec = (doc: Doc, at: Clock, r: Record<string, unknown>) =>
    doc.json({ id: at.n, timestamp: at.iso().slice(0, -1), ...r });
  const format: LineFormat = {
    filename: 'hostile-trajectory.jsonl',
    prelude: (doc, at) => [
      rec(doc, at, {
        source: 'agent',
        message: 'system',
        action: 'system',
        args: { content: 'You are OpenHands agent.' },
      }),
      rec(doc, at, {
        source: 'user',
        message: 'hostile prompt',
        action: 'message',
        args: { content: 'hostile prompt', image_urls: null, wait_for_response: false },
      }),
    ],
    message: (doc, at, content, isText) => [
      rec(doc, at, {
        source: 'agent',
        message: 'm',
        action: 'message',
        args: isText
          ? { content: doc.raw(content), wait_for_response: false }
          : { content: MARK, value: doc.raw(content) },
      }),
    ],
    tool(doc, at, id, args, result) {
      const action = at.n;
      return [
        rec(doc, at, {
          source: 'agent',
          message: 'run',
          action: 'run',
          args: { command: 'ls', thought: '', payload: doc.raw(args) },
          tool_call_metadata: { tool_call_id: id, function_name: 'execute_bash' },
        }),
        rec(doc, at, {
          source: 'environment',
          message: 'ran',
          observation: 'run',
          content: 'output',
          cause: action,
          extras: { payload: doc.raw(result) },
        }),
      ];
    },
    finale: () => [],
    numbers: (doc, at, v) => [
      doc.json({
        id: doc.raw(v[1]!),
        timestamp: iso(at.next()),
        source: 'agent',
        action: 'message',
        args: { content: 'n' },
        llm_metrics: {
          accumulated_cost: doc.raw(v[0]!),
          accumulated_token_usage: { prompt_tokens: doc.raw(v[2]!) },
        },
      }),
      doc.json({
        id: at.next(),
        timestamp: iso(at.next()),
        source: 'environment',
        observation: 'run',
        content: 'x',
        cause: doc.raw(v[1]!),
      }),
    ],
    orphans(doc, at, n) {
      const out: string[] = [];
      for (let i = 0; i < n; i++)
        out.push(
          rec(doc, at, {
            source: 'environment',
            observation: i % 2 ? 'delegate' : 'run',
            content: 'x',
            cause: 1_000_000 + i,
          }),
        );
      return out;
    },
    duplicates(doc, at, n) {
      const out: string[] = [];
      for (let i = 0; i < n; i++)
        out.push(
          doc.json({
            id: 7,
            timestamp: iso(at.next()),
            source: 'agent',
            action: 'message',
            args: { content: `dup ${i}` },
          }),
        );
      return out;
    },
    badTimes(doc, at) {
      const out: string[] = [];
      for (let i = 0; i < 200; i++)
        out.push(
          doc.json({
            id: at.next(),
            timestamp: iso(1_000_000 - i * 1000),
            source: 'agent',
            action: 'message',
            args: { content: `rev ${i}` },
          }),
        );
      for (const t of BAD_TIMES)
        out.push(
          doc.json({
            id: at.next(),
            timestamp: t,
            source: 'agent',
            action: 'message',
            args: { content: t },
          }),
        );
      return out;
    },
    protoIds: (doc, at) =>
      PROTO_IDS.map((id) =>
        rec(doc, at, {
          source: 'agent',
          action: id,
          args: { [id]: id },
          tool_call_metadata: { tool_call_id: id, function_name: id },
        }),
      ),
    own(shape, doc, at, ctx) {
      if (shape !== 'deep' && shape !== 'end-before-begin') return undefined;
      const out = format.prelude(doc, at);
      if (shape === 'end-before-begin') {
        for (let i = 0; i < 100; i++) {
          const action = at.n;
          out.push(
            doc.json({
              id: action,
              timestamp: iso(10_000 + i).slice(0, -1),
              source: 'agent',
              action: 'run',
              args: { command: 'ls' },
            }),
          );
          out.push(
            doc.json({
              id: at.next() + 1,
              timestamp: iso(i).slice(0, -1),
              source: 'environment',
              observation: 'run',
              content: 'x',
              cause: action,
            }),
          );
          at.next();
        }
        return { records: out, expect: { events: 100 } };
      }
      // Delegates inside delegates, answered innermost first.
      const d = ctx.sizes.depth;
      const ids: number[] = [];
      for (let i = 0; i < d; i++) {
        ids.push(at.n);
        out.push(
          rec(doc, at, {
            source: 'agent',
            message: 'delegate',
            action: 'delegate',
            args: {
              agent: i === d - 1 ? MARK : `level ${i}`,
              inputs: { task: 'deeper' },
              thought: '',
            },
          }),
        );
      }
      for (let i = d - 1; i >= 0; i--)
        out.push(
          rec(doc, at, {
            source: 'environment',
            message: 'done',
            observation: 'delegate',
            content: 'done',
            cause: ids[i],
            extras: { outputs: {} },
          }),
        );
      return { records: out, expect: { events: d, depth: d, contains: MARK } };
    },
  };
  return format;
})();

// --- ACP (JSON-RPC 2.0 lines) --------------------------------------------------------

const acp = (() => {
  const update = (doc: Doc, u: Record<string, unknown>) =>
    doc.json({
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 'sess_h', update: u },
    });
  const format: LineFormat = {
    filename: 'hostile-acp.jsonl',
    prelude: (doc) => [
      doc.json({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1 } }),
      doc.json({ jsonrpc: '2.0', id: 0, result: { protocolVersion: 1 } }),
      doc.json({
        jsonrpc: '2.0',
        id: 1,
        method: 'session/new',
        params: { cwd: '/', mcpServers: [] },
      }),
      doc.json({ jsonrpc: '2.0', id: 1, result: { sessionId: 'sess_h' } }),
      doc.json({
        jsonrpc: '2.0',
        id: 2,
        method: 'session/prompt',
        params: { sessionId: 'sess_h', prompt: [{ type: 'text', text: 'hostile prompt' }] },
      }),
    ],
    message: (doc, at, content, isText) => [
      update(doc, {
        sessionUpdate: 'agent_message_chunk',
        messageId: `m${at.next()}`,
        content: isText
          ? { type: 'text', text: doc.raw(content) }
          : { type: 'resource', resource: doc.raw(content) },
      }),
    ],
    tool: (doc, _at, id, args, result) => [
      update(doc, {
        sessionUpdate: 'tool_call',
        toolCallId: id,
        title: 'run',
        kind: 'execute',
        status: 'pending',
        rawInput: doc.raw(args),
      }),
      update(doc, {
        sessionUpdate: 'tool_call_update',
        toolCallId: id,
        status: 'completed',
        rawOutput: doc.raw(result),
      }),
    ],
    finale: (doc) => [doc.json({ jsonrpc: '2.0', id: 2, result: { stopReason: 'end_turn' } })],
    numbers: (doc, _at, v) => [
      doc.json({
        jsonrpc: '2.0',
        id: doc.raw(v[0]!),
        method: 'fs/read_text_file',
        params: { sessionId: 'sess_h', path: '/x', line: doc.raw(v[1]!) },
      }),
      doc.json({ jsonrpc: '2.0', id: doc.raw(v[0]!), result: { content: 'x' } }),
      update(doc, { sessionUpdate: 'usage_update', used: doc.raw(v[2]!), size: doc.raw(v[1]!) }),
    ],
    orphans(doc, _at, n) {
      const out: string[] = [];
      for (let i = 0; i < n; i++) {
        out.push(doc.json({ jsonrpc: '2.0', id: 1000 + i, result: { stopReason: 'end_turn' } }));
        if (i % 10 === 0)
          out.push(
            update(doc, {
              sessionUpdate: 'tool_call_update',
              toolCallId: `never${i}`,
              status: 'completed',
            }),
          );
      }
      return out;
    },
    duplicates(doc, _at, n) {
      const out: string[] = [];
      for (let i = 0; i < n; i++) {
        out.push(
          update(doc, {
            sessionUpdate: 'tool_call',
            toolCallId: 'dup',
            title: `dup ${i}`,
            status: 'pending',
          }),
        );
        out.push(
          doc.json({
            jsonrpc: '2.0',
            id: 2,
            method: 'session/prompt',
            params: { sessionId: 'sess_h', prompt: [] },
          }),
        );
      }
      return out;
    },
    protoIds: (doc) =>
      PROTO_IDS.flatMap((id) => [
        update(doc, { sessionUpdate: 'tool_call', toolCallId: id, title: id, status: 'pending' }),
        doc.json({ jsonrpc: '2.0', id, method: id, params: { [id]: id } }),
        update(doc, { sessionUpdate: id, messageId: id }),
      ]),
  };
  return format;
})();

// --- cantus ---------------------------------------------------------------------------

const cantus: LineFormat = {
  filename: 'hostile-cantus.jsonl',
  prelude: (doc) => [
    doc.json({
      type: 'CallSkillAction',
      thought: 'start',
      skill_name: 'search',
      args: { q: 'hostile' },
    }),
    doc.json({ type: 'SkillObservation', skill_name: 'search', result: 'ok' }),
  ],
  message: (doc, _at, content, isText) => [
    doc.json({
      type: 'FinalAnswerAction',
      thought: 'answer',
      answer: doc.raw(isText ? content : `"${MARK}"`),
      ...(isText ? {} : { value: doc.raw(content) }),
    }),
  ],
  tool: (doc, _at, _id, args, result) => [
    doc.json({ type: 'CallSkillAction', thought: 'call', skill_name: 'run', args: doc.raw(args) }),
    doc.json({ type: 'SkillObservation', skill_name: 'run', result: doc.raw(result) }),
  ],
  finale: () => [],
  numbers: (doc, _at, v) => [
    doc.json({
      type: 'MaxIterationsObservation',
      iterations: doc.raw(v[0]!),
      last_action_summary: doc.raw(v[1]!),
    }),
  ],
  orphans(doc, _at, n) {
    const out: string[] = [];
    for (let i = 0; i < n; i++)
      out.push(
        doc.json({
          type: i % 2 ? 'ToolErrorObservation' : 'SkillObservation',
          skill_name: 'x',
          result: i,
          error: 'e',
        }),
      );
    return out;
  },
  duplicates(doc, _at, n) {
    const out: string[] = [];
    for (let i = 0; i < n; i++)
      out.push(
        doc.json({ type: 'CallSkillAction', thought: 'again', skill_name: 'dup', args: { i } }),
      );
    return out;
  },
  protoIds: (doc) => PROTO_IDS.map((id) => doc.json({ type: id, [id]: id, skill_name: id })),
  own(shape, doc, _at, ctx) {
    if (shape !== 'deep') return undefined;
    // A run stopped at its limit keeps its state as nested copies of itself.
    const d = ctx.sizes.depth;
    const state = `${'{"events":[{"MaxIterationsObservation":{"iterations":1,"partial_state":'.repeat(d)}"${MARK}"${'}}]}'.repeat(d)}`;
    return {
      records: [
        ...cantus.prelude(doc, new Clock()),
        doc.json({
          type: 'MaxIterationsObservation',
          iterations: d,
          last_action_summary: 'deep',
          partial_state: doc.raw(state),
        }),
      ],
      expect: { events: 2, diagnostics: ['value_too_deep'] },
    };
  },
};

// --- Jupyter notebooks ----------------------------------------------------------------------

const jupyter = (() => {
  const cell = (
    doc: Doc,
    at: Clock,
    source: string,
    outputs: unknown[],
    id = `c${at.n}`,
    meta: Record<string, unknown> = {},
  ) => {
    const i = at.next();
    return doc.json({
      cell_type: 'code',
      id,
      execution_count: i,
      metadata: {
        execution: { 'iopub.execute_input': iso(i), 'shell.execute_reply': iso(i + 1) },
        ...meta,
      },
      source,
      outputs,
    });
  };
  const result = (doc: Doc, value: string, isText = false) => ({
    output_type: 'execute_result',
    execution_count: 1,
    metadata: {},
    data: isText
      ? { 'text/plain': doc.raw(value) }
      : { 'text/plain': MARK, 'application/json': doc.raw(value) },
  });
  const format: LineFormat = {
    filename: 'hostile.ipynb',
    prelude: (doc, at) => [
      cell(doc, at, 'print("hostile")', [
        { output_type: 'stream', name: 'stdout', text: 'hostile\n' },
      ]),
    ],
    message: (doc, _at, content, isText) => [
      doc.json({
        cell_type: 'markdown',
        id: 'md',
        metadata: {},
        source: isText ? doc.raw(content) : MARK,
        ...(isText ? {} : { attachments: doc.raw(`{"x.json":{"application/json":${content}}}`) }),
      }),
    ],
    // One cell per call (a notebook has no tool calls: the arguments ride in
    // the cell's metadata), so that `width` siblings are `width` cells.
    tool: (doc, at, id, args, res) => [
      cell(doc, at, 'run()', [result(doc, res)], id, { args: doc.raw(args) }),
    ],
    finale: () => [],
    numbers: (doc, _at, v) => [
      doc.json({
        cell_type: 'code',
        id: 'n',
        execution_count: doc.raw(v[1]!),
        metadata: { execution: { 'iopub.execute_input': doc.raw(v[0]!) } },
        source: 'x',
        outputs: [
          {
            output_type: 'execute_result',
            execution_count: doc.raw(v[2]!),
            data: { 'text/plain': 'n' },
            metadata: {},
          },
        ],
      }),
    ],
    orphans(doc, _at, n) {
      const out: string[] = [];
      for (let i = 0; i < Math.min(n, 1000); i++)
        out.push(
          doc.json({
            cell_type: 'code',
            id: `o${i}`,
            source: 'x',
            metadata: {},
            outputs: [
              {
                output_type: 'update_display_data',
                data: { 'text/plain': 'x' },
                metadata: {},
                transient: { display_id: `never${i}` },
              },
            ],
          }),
        );
      return out;
    },
    duplicates(doc, at, n) {
      const out: string[] = [];
      for (let i = 0; i < n; i++) out.push(cell(doc, at, `dup ${i}`, [], 'dup'));
      return out;
    },
    badTimes(doc) {
      const out: string[] = [];
      for (let i = 0; i < 200; i++)
        out.push(
          doc.json({
            cell_type: 'code',
            id: `rev${i}`,
            source: 'x',
            outputs: [],
            metadata: {
              execution: {
                'iopub.execute_input': iso(1_000_000 - i * 1000),
                'shell.execute_reply': iso(1_000_000 - i * 1000 - 5),
              },
            },
          }),
        );
      for (const t of BAD_TIMES)
        out.push(
          doc.json({
            cell_type: 'code',
            id: `bad${t}`,
            source: t,
            outputs: [],
            metadata: { execution: { 'iopub.execute_input': t, 'shell.execute_reply': t } },
          }),
        );
      return out;
    },
    protoIds: (doc, at) =>
      PROTO_IDS.map((id) => cell(doc, at, id, [{ output_type: id, [id]: id }], id)),
    own(shape, doc, at, ctx) {
      if (shape === 'wide') {
        // `width` cells, each a sibling at the top: markdown, and code cells
        // with a result and no source. Three events a cell (begin, content,
        // end), the fewest a cell with content maps to: at a million cells a
        // code cell's source as well would not fit a 4 GB heap downstream.
        const out = format.prelude(doc, at);
        for (let i = 0; i < ctx.sizes.width; i++)
          out.push(
            ...(i % 2
              ? format.message(doc, at, `"m${i}"`, true)
              : [cell(doc, at, '', [result(doc, `"r${i}"`, true)], `c${i}`)]),
          );
        return { records: out, expect: { events: ctx.sizes.width } };
      }
      if (shape !== 'end-before-begin') return undefined;
      const out: string[] = [];
      for (let i = 0; i < 100; i++)
        out.push(
          doc.json({
            cell_type: 'code',
            id: `e${i}`,
            source: 'x',
            outputs: [],
            metadata: {
              execution: {
                'iopub.execute_input': iso(10_000 + at.next()),
                'shell.execute_reply': iso(i),
              },
            },
          }),
        );
      return { records: out, expect: { events: 100 } };
    },
    wrap: (cells) =>
      `{"nbformat":4,"nbformat_minor":5,"metadata":{"kernelspec":{"name":"python3","display_name":"Python 3","language":"python"}},"cells":[${cells.filter((c) => c !== NUL_LINE).join(',')}]}`,
  };
  return format;
})();

/**
 * The writer of each format.
 * @internal
 * @example
 * import { FORMAT_WRITERS } from 'src/core/generate/hostile-formats.js';
 * typeof FORMAT_WRITERS.otlp; // 'function'
 */
export const FORMAT_WRITERS: Partial<Record<FormatId, Writer>> = {
  skein: skeinWriter,
  inspect: inspectWriter,
  otlp: otlpWriter,
  'claude-code': lineWriter(claudeCode),
  defect: lineWriter(defect),
  agex: lineWriter(agex),
  openhands: lineWriter(openHands),
  acp: lineWriter(acp),
  cantus: lineWriter(cantus),
  jupyter: lineWriter(jupyter),
};
