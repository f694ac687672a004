// Longer than 600 lines: one writer per format (thirteen, and a second form of one), each a handful of short
// record builders; split by format they would share every helper above them.
//
// The hostile shapes (hostile.ts) written in each format's own records. Each
// writer builds JSON *text*: values JSON.stringify cannot write (bare `NaN`,
// 10,000-deep nesting: Node's stringify overflows at about 4,000 levels) are
// spliced in as raw text through placeholders ({@link Doc}).
import type { Prng } from './prng.js';
import type { HostileExpect, HostileFormat, HostileShape, HostileSizes } from './hostile.js';

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
  /** With `wrap`: the records as JSON Lines too (`Written.lines`, for streaming). */
  readonly lines?: boolean;
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
    const asLines = (records: string[]) => (format.lines ? { lines: records.join('\n') } : {});
    const own = format.own?.(shape, doc, at, ctx);
    if (own)
      return {
        filename: format.filename,
        input: wrap(own.records),
        expect: own.expect,
        ...asLines(own.records),
      };
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
      ...asLines(lines),
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

// --- OpenAI Agents SDK (exported traces as JSON Lines) --------------------------------------

const openAiAgents = (() => {
  const TRACE_ID = 'trace_5b8efff798038103d269b633813fc60c';
  /** A span record as the exporter writes it (when the span ends: children first). */
  const span = (
    doc: Doc,
    at: Clock,
    id: string,
    parent: string | null,
    data: Record<string, unknown>,
    r: Record<string, unknown> = {},
  ) =>
    doc.json({
      object: 'trace.span',
      id,
      trace_id: TRACE_ID,
      parent_id: parent,
      started_at: iso(at.next()),
      ended_at: iso(at.next()),
      span_data: data,
      error: null,
      ...r,
    });
  const ROOT = 'span_root';
  const format: LineFormat = {
    filename: 'hostile-agents-trace.jsonl',
    prelude: (doc) => [
      doc.json({
        object: 'trace',
        id: TRACE_ID,
        workflow_name: 'hostile',
        group_id: null,
        metadata: {},
      }),
    ],
    message: (doc, at, content, isText) => [
      span(doc, at, `span_m${at.n}`, ROOT, {
        type: 'generation',
        model: 'gpt-hostile',
        input: [{ role: 'user', content: 'hostile prompt' }],
        output: [
          isText
            ? { role: 'assistant', content: doc.raw(content) }
            : { role: 'assistant', content: MARK, value: doc.raw(content) },
        ],
        usage: { input_tokens: 1, output_tokens: 1 },
      }),
    ],
    tool: (doc, at, id, args, result) => [
      span(doc, at, `span_${id}`, ROOT, {
        type: 'function',
        name: 'bash',
        // The SDK writes a function's input as text (the model's JSON); the
        // output raw, as a Python exporter may.
        input: args,
        output: doc.raw(result),
      }),
    ],
    finale: (doc, at) => [
      span(
        doc,
        at,
        ROOT,
        null,
        { type: 'agent', name: 'Hostile', tools: ['bash'], handoffs: [] },
        {
          started_at: iso(0),
        },
      ),
    ],
    numbers: (doc, at, v) => [
      span(
        doc,
        at,
        'span_numbers',
        ROOT,
        {
          type: 'generation',
          model: 'm',
          usage: { input_tokens: doc.raw(v[0]!), output_tokens: doc.raw(v[1]!) },
          model_config: { temperature: doc.raw(v[2]!) },
        },
        { started_at: doc.raw(v[0]!), ended_at: doc.raw(v[1]!) },
      ),
      span(doc, at, doc.raw(v[1]!), ROOT, {
        type: 'custom',
        name: 'n',
        data: { n: doc.raw(v[2]!) },
      }),
    ],
    orphans(doc, at, n) {
      // Spans that end without a start, under parents and in traces never written.
      const out: string[] = [];
      for (let i = 0; i < n; i++)
        out.push(
          span(
            doc,
            at,
            `span_never${i}`,
            i % 2 ? `span_missing${i}` : ROOT,
            i % 3
              ? { type: 'function', name: 'bash', output: 'x' }
              : { type: 'handoff', from_agent: 'a', to_agent: `ghost${i}` },
            { started_at: null, ...(i % 5 === 0 ? { trace_id: `trace_missing${i}` } : {}) },
          ),
        );
      return out;
    },
    duplicates(doc, at, n) {
      const out: string[] = [];
      for (let i = 0; i < n; i++)
        out.push(
          span(
            doc,
            at,
            'span_dup',
            i % 2 ? 'span_dup' : ROOT,
            i % 3 ? { type: 'custom', name: 'dup', data: { i } } : { type: 'agent', name: 'dup' },
          ),
        );
      return out;
    },
    badTimes(doc, at) {
      const out: string[] = [];
      for (let i = 0; i < 200; i++)
        out.push(
          span(
            doc,
            at,
            `span_rev${i}`,
            ROOT,
            { type: 'custom', name: `rev ${i}`, data: {} },
            {
              started_at: iso(1_000_000 - i * 1000),
              ended_at: iso(1_000_000 - i * 1000 - 500),
            },
          ),
        );
      for (const [i, t] of BAD_TIMES.entries())
        out.push(
          span(
            doc,
            at,
            `span_bad${i}`,
            ROOT,
            { type: 'custom', name: t, data: {} },
            {
              started_at: t,
              ended_at: BAD_TIMES[(i + 1) % BAD_TIMES.length],
            },
          ),
        );
      return out;
    },
    protoIds: (doc, at) =>
      PROTO_IDS.flatMap((id) => [
        span(doc, at, id, id === 'prototype' ? '__proto__' : ROOT, {
          type: 'function',
          name: id,
          input: PROTO_OBJECT,
          output: doc.raw(PROTO_OBJECT),
        }),
        span(
          doc,
          at,
          `${id}-agent`,
          id,
          { type: id, name: id, [id]: doc.raw(PROTO_OBJECT) },
          { trace_id: id },
        ),
        span(doc, at, `${id}-handoff`, ROOT, { type: 'handoff', from_agent: id, to_agent: id }),
        doc.json({ object: 'trace', id, workflow_name: id, metadata: doc.raw(PROTO_OBJECT) }),
      ]),
    own(shape, doc, at, ctx) {
      const out = format.prelude(doc, at);
      switch (shape) {
        case 'deep': {
          // An agent used as a tool by an agent used as a tool…: agent,
          // custom and function spans in turn, each the parent of the next,
          // written deepest first (as the exporter writes spans: as they
          // end); the deepest is a handoff to the marker agent.
          const d = ctx.sizes.depth;
          const kinds = [
            (i: number) => ({ type: 'agent', name: `level ${i}`, tools: ['deeper'], handoffs: [] }),
            (i: number) => ({ type: 'custom', name: `custom ${i}`, data: { i } }),
            () => ({ type: 'function', name: 'deeper', input: '{}', output: 'ok' }),
          ];
          for (let i = d - 1; i >= 0; i--)
            out.push(
              span(
                doc,
                at,
                `span_${i}`,
                i ? `span_${i - 1}` : null,
                i === d - 1
                  ? { type: 'handoff', from_agent: 'deep', to_agent: MARK }
                  : kinds[i % 3]!(i),
                { started_at: iso(i), ended_at: iso(2 * d - i) },
              ),
            );
          return {
            records: out,
            expect: { events: d, depth: Math.floor((2 * d) / 3) - 1, contains: MARK },
          };
        }
        case 'cycle':
        case 'self-parent': {
          const n = shape === 'cycle' ? Math.min(1000, ctx.sizes.depth) : 100;
          for (let i = 0; i < n; i++)
            out.push(
              span(
                doc,
                at,
                `span_c${i}`,
                `span_c${shape === 'cycle' ? (i + 1) % n : i}`,
                i % 2
                  ? { type: 'agent', name: `ring ${i}` }
                  : { type: 'function', name: 'bash', output: `${i}` },
              ),
            );
          out.push(span(doc, at, 'span_mark', 'span_c0', { type: 'custom', name: MARK, data: {} }));
          return { records: out, expect: { events: n / 2, contains: MARK } };
        }
        case 'end-before-begin': {
          // Ends stamped before starts, parents written before their children.
          out.push(
            span(
              doc,
              at,
              ROOT,
              null,
              { type: 'agent', name: 'Hostile' },
              {
                started_at: iso(100_000),
                ended_at: iso(0),
              },
            ),
          );
          for (let i = 0; i < 100; i++)
            out.push(
              span(
                doc,
                at,
                `span_x${i}`,
                ROOT,
                i % 2
                  ? { type: 'function', name: 'bash', output: `${i}` }
                  : { type: 'agent', name: `x${i}` },
                {
                  started_at: iso(10_000 + i),
                  ended_at: iso(i),
                },
              ),
            );
          return { records: out, expect: { events: 100 } };
        }
        default:
          return undefined;
      }
    },
  };
  return format;
})();

// --- AG-UI (events as JSON Lines) ---------------------------------------------------------

const agUi = (() => {
  /** An AG-UI event; `timestamp` is epoch ms (optional in the protocol). */
  const ev = (doc: Doc, at: Clock, type: string, r: Record<string, unknown> = {}) =>
    doc.json({ type, timestamp: BASE_MS + at.next(), ...r });
  const text = (
    doc: Doc,
    at: Clock,
    id: string,
    delta: string,
    r: Record<string, unknown> = {},
  ) => [
    ev(doc, at, 'TEXT_MESSAGE_START', { messageId: id, role: 'assistant', ...r }),
    ev(doc, at, 'TEXT_MESSAGE_CONTENT', { messageId: id, delta: doc.raw(delta) }),
    ev(doc, at, 'TEXT_MESSAGE_END', { messageId: id }),
  ];
  const run = (doc: Doc, at: Clock, runId: string, r: Record<string, unknown> = {}) =>
    ev(doc, at, 'RUN_STARTED', { threadId: 'hostile-thread', runId, ...r });
  const finish = (doc: Doc, at: Clock, runId: string, r: Record<string, unknown> = {}) =>
    ev(doc, at, 'RUN_FINISHED', { threadId: 'hostile-thread', runId, ...r });
  const format: LineFormat = {
    filename: 'hostile-ag-ui.jsonl',
    prelude: (doc, at) => [run(doc, at, 'run-1')],
    message: (doc, at, content, isText) =>
      isText
        ? text(doc, at, `m${at.n}`, content)
        : [
            // Deltas are text: the value rides in the message's metadata (kept
            // in `metadata.ag_ui`) and in the shared state (diffed by state.ts).
            ...text(doc, at, `m${at.n}`, `"${MARK}"`, { metadata: { value: doc.raw(content) } }),
            ev(doc, at, 'STATE_SNAPSHOT', { snapshot: { value: doc.raw(content) } }),
          ],
    tool: (doc, at, id, args, result) => [
      ev(doc, at, 'TOOL_CALL_START', { toolCallId: id, toolCallName: 'bash' }),
      // The arguments stream as text (JSON the importer parses at the end).
      ev(doc, at, 'TOOL_CALL_ARGS', { toolCallId: id, delta: args }),
      ev(doc, at, 'TOOL_CALL_END', { toolCallId: id }),
      ev(doc, at, 'TOOL_CALL_RESULT', {
        messageId: `r-${id}`,
        toolCallId: id,
        role: 'tool',
        content: doc.raw(result),
      }),
    ],
    finale: (doc, at) => [finish(doc, at, 'run-1')],
    numbers: (doc, at, v) => [
      doc.json({ type: 'STEP_STARTED', stepName: 'numbers', timestamp: doc.raw(v[0]!) }),
      doc.json({
        type: 'CUSTOM',
        name: 'numbers',
        value: doc.raw(`[${v.join(',')}]`),
        timestamp: doc.raw(v[1]!),
      }),
      doc.json({ type: 'TEXT_MESSAGE_START', messageId: doc.raw(v[1]!), role: 'assistant' }),
      doc.json({ type: 'STEP_FINISHED', stepName: 'numbers', timestamp: doc.raw(v[2]!) }),
      doc.json({
        type: 'RUN_FINISHED',
        threadId: 'hostile-thread',
        runId: 'run-1',
        usage: { inputTokens: doc.raw(v[0]!), outputTokens: doc.raw(v[1]!) },
        timestamp: doc.raw(v[0]!),
      }),
    ],
    orphans(doc, at, n) {
      const out: string[] = [];
      const kinds = [
        () => ev(doc, at, 'TEXT_MESSAGE_END', { messageId: `never${at.n}` }),
        () => ev(doc, at, 'TOOL_CALL_RESULT', { toolCallId: `never${at.n}`, content: 'x' }),
        () => ev(doc, at, 'TOOL_CALL_END', { toolCallId: `never${at.n}` }),
        () => ev(doc, at, 'STEP_FINISHED', { stepName: `never${at.n}` }),
        () => ev(doc, at, 'SUBAGENT_FINISHED', { subagentRunId: `never${at.n}` }),
        () => ev(doc, at, 'REASONING_MESSAGE_END', { messageId: `never${at.n}` }),
      ];
      for (let i = 0; i < n; i++) out.push(kinds[i % kinds.length]!());
      // The end of a run never started (the open run is still `run-1`).
      out.push(finish(doc, at, 'never-run'));
      return out;
    },
    duplicates(doc, at, n) {
      const out: string[] = [];
      for (let i = 0; i < n; i++) {
        switch (i % 5) {
          case 0:
            out.push(ev(doc, at, 'TEXT_MESSAGE_START', { messageId: 'dup', role: 'assistant' }));
            break;
          case 1:
            out.push(ev(doc, at, 'TEXT_MESSAGE_CONTENT', { messageId: 'dup', delta: `${i} ` }));
            break;
          case 2:
            out.push(ev(doc, at, 'TOOL_CALL_START', { toolCallId: 'dup', toolCallName: 'bash' }));
            break;
          case 3:
            out.push(ev(doc, at, 'STEP_STARTED', { stepName: 'dup' }));
            break;
          default:
            out.push(run(doc, at, 'run-1'));
        }
      }
      return out;
    },
    badTimes(doc) {
      const out: string[] = [];
      for (let i = 0; i < 200; i++)
        out.push(
          doc.json({
            type: 'CUSTOM',
            name: `rev ${i}`,
            value: i,
            timestamp: BASE_MS + 1_000_000 - i * 1000,
          }),
        );
      // Epoch ms: negative, past the Date range, fractional, as text, and ISO
      // text (other formats' times).
      for (const t of [-1, 8.64e15 + 1, 1e300, 0.5, '1700000000000', ...BAD_TIMES])
        out.push(doc.json({ type: 'CUSTOM', name: `bad ${t}`, value: t, timestamp: t }));
      out.push(
        doc.json({ type: 'STEP_STARTED', stepName: 'late', timestamp: BASE_MS + 5000 }),
        doc.json({ type: 'STEP_FINISHED', stepName: 'late', timestamp: BASE_MS }),
      );
      return out;
    },
    protoIds: (doc, at) => [
      ...PROTO_IDS.flatMap((id) => [
        ev(doc, at, 'STEP_STARTED', { stepName: id }),
        ev(doc, at, 'SUBAGENT_STARTED', { subagentRunId: id, name: id, parentToolCallId: id }),
        ev(doc, at, 'TOOL_CALL_START', { toolCallId: id, toolCallName: id, subagentRunId: id }),
        ev(doc, at, 'TOOL_CALL_ARGS', { toolCallId: id, delta: PROTO_OBJECT }),
        ev(doc, at, 'TOOL_CALL_RESULT', { toolCallId: id, messageId: id, content: id }),
        ...text(doc, at, id, `"${id}"`, { metadata: doc.raw(PROTO_OBJECT) }),
        ev(doc, at, 'ACTIVITY_SNAPSHOT', {
          messageId: id,
          activityType: id,
          content: doc.raw(PROTO_OBJECT),
        }),
        ev(doc, at, 'SUBAGENT_FINISHED', { subagentRunId: id }),
        ev(doc, at, 'STEP_FINISHED', { stepName: id }),
      ]),
      ev(doc, at, 'STATE_SNAPSHOT', { snapshot: doc.raw(PROTO_OBJECT) }),
      // JSON Patch paths through prototype members (RFC 6902 applied by state.ts).
      ev(doc, at, 'STATE_DELTA', {
        delta: [
          { op: 'add', path: '/__proto__/polluted', value: 'yes' },
          { op: 'add', path: '/constructor/prototype/polluted', value: 'yes' },
          { op: 'replace', path: '/toString', value: 'yes' },
        ],
      }),
      ev(doc, at, 'CUSTOM', { name: '__proto__', value: doc.raw(PROTO_OBJECT) }),
    ],
    own(shape, doc, at, ctx) {
      const out: string[] = [];
      switch (shape) {
        case 'deep': {
          // Half the levels are runs, each the child of the one before by
          // `parentRunId` (a run spawned by a run: an `agent` span in it),
          // run and finished one after another as AG-UI runs are; the other
          // half steps nested in the last run, the deepest holding the marker.
          const d = ctx.sizes.depth;
          const runs = Math.floor(d / 2);
          for (let i = 0; i < runs; i++) {
            out.push(run(doc, at, `r${i}`, i ? { parentRunId: `r${i - 1}` } : {}));
            if (i < runs - 1) out.push(finish(doc, at, `r${i}`));
          }
          for (let i = runs; i < d; i++)
            out.push(ev(doc, at, 'STEP_STARTED', { stepName: `s${i}` }));
          out.push(...text(doc, at, 'deepest', `"${MARK}"`));
          for (let i = d - 1; i >= runs; i--)
            out.push(ev(doc, at, 'STEP_FINISHED', { stepName: `s${i}` }));
          out.push(finish(doc, at, `r${runs - 1}`));
          return { records: out, expect: { events: d, depth: d - 1, contains: MARK } };
        }
        case 'cycle':
        case 'self-parent': {
          // Runs naming each other (or themselves) as parent run, and
          // subagents naming each other as parent subagent.
          const n = shape === 'cycle' ? Math.min(1000, ctx.sizes.depth) : 100;
          const parent = (i: number) => (shape === 'cycle' ? (i + 1) % n : i);
          for (let i = 0; i < n; i++) {
            out.push(run(doc, at, `c${i}`, { parentRunId: `c${parent(i)}` }));
            out.push(...text(doc, at, `m${i}`, i ? `"run ${i}"` : `"${MARK}"`));
            out.push(finish(doc, at, `c${i}`));
          }
          out.push(run(doc, at, 'agents'));
          for (let i = 0; i < n; i++)
            out.push(
              ev(doc, at, 'SUBAGENT_STARTED', {
                subagentRunId: `a${i}`,
                parentSubagentRunId: `a${parent(i)}`,
              }),
              ...text(doc, at, `am${i}`, `"agent ${i}"`, { subagentRunId: `a${i}` }),
            );
          for (let i = 0; i < n; i++)
            out.push(ev(doc, at, 'SUBAGENT_FINISHED', { subagentRunId: `a${i}` }));
          out.push(finish(doc, at, 'agents'));
          return { records: out, expect: { events: 2 * n, contains: MARK } };
        }
        case 'end-before-begin': {
          // Each end listed before its begin, and stamped before it.
          for (let i = 0; i < 100; i++) {
            const late = { timestamp: BASE_MS + 10_000 + at.next() };
            const early = { timestamp: BASE_MS + i };
            out.push(
              doc.json({ type: 'RUN_FINISHED', threadId: 't', runId: `x${i}`, ...early }),
              doc.json({ type: 'RUN_STARTED', threadId: 't', runId: `x${i}`, ...late }),
              doc.json({ type: 'STEP_FINISHED', stepName: `s${i}`, ...early }),
              doc.json({ type: 'STEP_STARTED', stepName: `s${i}`, ...late }),
              doc.json({
                type: 'TOOL_CALL_RESULT',
                toolCallId: `t${i}`,
                content: 'done',
                ...early,
              }),
              doc.json({ type: 'TOOL_CALL_END', toolCallId: `t${i}`, ...early }),
              doc.json({
                type: 'TOOL_CALL_START',
                toolCallId: `t${i}`,
                toolCallName: 'bash',
                ...late,
              }),
              doc.json({ type: 'TEXT_MESSAGE_END', messageId: `m${i}`, ...early }),
              doc.json({
                type: 'TEXT_MESSAGE_START',
                messageId: `m${i}`,
                role: 'assistant',
                ...late,
              }),
              doc.json({
                type: 'TEXT_MESSAGE_CONTENT',
                messageId: `m${i}`,
                delta: 'late',
                ...late,
              }),
              doc.json({ type: 'STEP_FINISHED', stepName: `s${i}`, ...early }),
              doc.json({ type: 'RUN_FINISHED', threadId: 't', runId: `x${i}`, ...early }),
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

// --- Vercel AI SDK: the UI message stream (chunks as JSON Lines) --------------------------
//
// The stream and the stored messages carry no times and no parents: a
// message holds steps, a step holds parts, and nothing nests deeper (`deep`,
// `cycle`, `self-parent` and `bad-times` cannot be written; a tool's output
// nested deep is `deep-value`).

const vercelAi = (() => {
  const chunk = (doc: Doc, type: string, r: Record<string, unknown> = {}) =>
    doc.json({ type, ...r });
  const text = (doc: Doc, id: string, delta: string) => [
    chunk(doc, 'text-start', { id }),
    chunk(doc, 'text-delta', { id, delta: doc.raw(delta) }),
    chunk(doc, 'text-end', { id }),
  ];
  const format: LineFormat = {
    filename: 'hostile-ui-stream.jsonl',
    prelude: (doc) => [chunk(doc, 'start', { messageId: 'msg-1' }), chunk(doc, 'start-step')],
    message: (doc, at, content, isText) =>
      isText
        ? text(doc, `t${at.next()}`, content)
        : [
            // Deltas are text: the value rides in a data part and in the message's metadata.
            ...text(doc, `t${at.next()}`, `"${MARK}"`),
            chunk(doc, 'data-value', { data: doc.raw(content) }),
            chunk(doc, 'message-metadata', { messageMetadata: { value: doc.raw(content) } }),
          ],
    tool: (doc, _at, id, args, result) => [
      chunk(doc, 'tool-input-start', { toolCallId: id, toolName: 'bash' }),
      chunk(doc, 'tool-input-available', {
        toolCallId: id,
        toolName: 'bash',
        input: doc.raw(args),
      }),
      chunk(doc, 'tool-output-available', { toolCallId: id, output: doc.raw(result) }),
    ],
    finale: (doc) => [chunk(doc, 'finish-step'), chunk(doc, 'finish', { finishReason: 'stop' })],
    numbers: (doc, _at, v) => [
      chunk(doc, 'message-metadata', {
        messageMetadata: {
          createdAt: doc.raw(v[0]!),
          usage: { inputTokens: doc.raw(v[1]!), totalTokens: doc.raw(v[2]!) },
        },
      }),
      // Ids where numbers do not belong.
      chunk(doc, 'tool-input-start', { toolCallId: doc.raw(v[1]!), toolName: 'bash' }),
      chunk(doc, 'text-start', { id: doc.raw(v[0]!) }),
      chunk(doc, 'data-n', { id: doc.raw(v[2]!), data: doc.raw(`[${v.join(',')}]`) }),
    ],
    orphans(doc, _at, n) {
      const out: string[] = [];
      const kinds = [
        (i: number) => chunk(doc, 'text-end', { id: `never${i}` }),
        (i: number) => chunk(doc, 'text-delta', { id: `never${i}`, delta: 'x' }),
        (i: number) => chunk(doc, 'tool-output-available', { toolCallId: `never${i}`, output: i }),
        (i: number) => chunk(doc, 'tool-output-error', { toolCallId: `never${i}`, errorText: 'x' }),
        (i: number) =>
          chunk(doc, 'tool-approval-response', { toolCallId: `never${i}`, approved: true }),
        () => chunk(doc, 'finish-step'),
        (i: number) => chunk(doc, 'reasoning-end', { id: `never${i}` }),
      ];
      for (let i = 0; i < n; i++) out.push(kinds[i % kinds.length]!(i));
      return out;
    },
    duplicates(doc, _at, n) {
      const out: string[] = [];
      for (let i = 0; i < n; i++) {
        switch (i % 4) {
          case 0:
            out.push(
              chunk(doc, 'text-start', { id: 'dup' }),
              chunk(doc, 'text-delta', { id: 'dup', delta: `${i} ` }),
            );
            break;
          case 1:
            out.push(
              chunk(doc, 'tool-input-available', {
                toolCallId: 'dup',
                toolName: 'bash',
                input: { i },
              }),
            );
            break;
          case 2:
            out.push(chunk(doc, 'data-dup', { id: 'dup', data: { i } }));
            break;
          default:
            // A `start` of the open message continues it.
            out.push(chunk(doc, 'start', { messageId: 'msg-1' }));
        }
      }
      return out;
    },
    protoIds: (doc) =>
      PROTO_IDS.flatMap((id) => [
        chunk(doc, 'text-start', { id }),
        chunk(doc, 'text-delta', { id, delta: id }),
        chunk(doc, 'tool-input-start', { toolCallId: id, toolName: id }),
        chunk(doc, 'tool-input-available', {
          toolCallId: id,
          toolName: id,
          input: doc.raw(PROTO_OBJECT),
        }),
        chunk(doc, 'tool-approval-request', { toolCallId: id, approvalId: id }),
        chunk(doc, `data-${id}`, { id, data: doc.raw(PROTO_OBJECT) }),
        chunk(doc, id, { id }),
        chunk(doc, 'message-metadata', { messageMetadata: doc.raw(PROTO_OBJECT) }),
      ]),
    own(shape, doc) {
      if (shape !== 'end-before-begin') return undefined;
      // Every end before its start: parts, tool calls, steps and the message.
      const out = [chunk(doc, 'finish', { finishReason: 'stop' })];
      for (let i = 0; i < 100; i++)
        out.push(
          chunk(doc, 'finish-step'),
          chunk(doc, 'text-end', { id: `t${i}` }),
          chunk(doc, 'text-start', { id: `t${i}` }),
          chunk(doc, 'text-delta', { id: `t${i}`, delta: i ? `late ${i}` : MARK }),
          chunk(doc, 'tool-output-available', { toolCallId: `c${i}`, output: 'done' }),
          chunk(doc, 'tool-input-available', { toolCallId: `c${i}`, toolName: 'bash', input: {} }),
          chunk(doc, 'tool-input-start', { toolCallId: `c${i}`, toolName: 'bash' }),
          chunk(doc, 'start-step'),
        );
      out.push(chunk(doc, 'start', { messageId: 'msg-late' }));
      return { records: out, expect: { events: 100, contains: MARK } };
    },
  };
  return format;
})();

// --- Vercel AI SDK: stored UI messages (`UIMessage[]`, one message a line) ---------------

const vercelAiMessages = (() => {
  const message = (doc: Doc, id: string, parts: unknown[], r: Record<string, unknown> = {}) =>
    doc.json({ id, role: 'assistant', ...r, parts });
  const toolPart = (id: string, r: Record<string, unknown>) => ({
    type: 'tool-bash',
    toolCallId: id,
    ...r,
  });
  const format: LineFormat = {
    filename: 'hostile-messages.json',
    prelude: (doc) => [
      doc.json({ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hostile prompt' }] }),
    ],
    message: (doc, at, content, isText) => [
      message(
        doc,
        `m${at.next()}`,
        isText
          ? [{ type: 'text', text: doc.raw(content), state: 'done' }]
          : [
              { type: 'text', text: MARK, state: 'done' },
              { type: 'data-value', data: doc.raw(content) },
            ],
        isText ? {} : { metadata: { value: doc.raw(content) } },
      ),
    ],
    tool: (doc, at, id, args, result) => [
      message(doc, `m${at.next()}`, [
        { type: 'step-start' },
        toolPart(id, { state: 'output-available', input: doc.raw(args), output: doc.raw(result) }),
      ]),
    ],
    finale: () => [],
    numbers: (doc, at, v) => [
      message(
        doc,
        `m${at.next()}`,
        [
          toolPart(doc.raw(v[1]!), { state: 'output-available', input: {}, output: 1 }),
          { type: 'data-n', id: doc.raw(v[2]!), data: doc.raw(`[${v.join(',')}]`) },
        ],
        { metadata: { createdAt: doc.raw(v[0]!), totalTokens: doc.raw(v[1]!) } },
      ),
      doc.json({ id: doc.raw(v[0]!), role: 'assistant', parts: [] }),
    ],
    orphans(doc, _at, n) {
      // Outputs, errors, denials and approvals of calls never made, in one message.
      const parts: unknown[] = [];
      const states = ['output-available', 'output-error', 'output-denied', 'approval-responded'];
      for (let i = 0; i < n; i++)
        parts.push(
          toolPart(`never${i}`, {
            state: states[i % states.length],
            output: i,
            errorText: 'x',
            approval: { id: `a${i}`, approved: true },
          }),
        );
      return [message(doc, 'orphans', parts)];
    },
    duplicates(doc, _at, n) {
      // One id, many versions of the message: each a new tool call and a
      // new text; and user messages sharing an id.
      const out: string[] = [];
      for (let i = 0; i < n; i++)
        out.push(
          i % 2
            ? doc.json({ id: 'dup-user', role: 'user', parts: [{ type: 'text', text: `${i}` }] })
            : message(doc, 'dup', [
                { type: 'text', text: `dup ${i}`, state: 'done' },
                toolPart(`call${i}`, { state: 'output-available', input: { i }, output: i }),
              ]),
        );
      return out;
    },
    protoIds: (doc) =>
      PROTO_IDS.map((id) =>
        doc.json({
          id,
          role: id === 'constructor' ? 'user' : 'assistant',
          metadata: doc.raw(PROTO_OBJECT),
          parts: [
            { type: 'text', text: id },
            {
              type: `tool-${id}`,
              toolCallId: id,
              state: 'output-available',
              input: doc.raw(PROTO_OBJECT),
              output: id,
            },
            { type: 'dynamic-tool', toolName: id, toolCallId: `${id}-2`, state: id },
            { type: `data-${id}`, id, data: doc.raw(PROTO_OBJECT) },
            { type: id, [id]: id },
          ],
        }),
      ),
    own(shape, doc, at, ctx) {
      switch (shape) {
        case 'wide': {
          // One message's parts are its siblings: `width` of them, text and tool parts in turn.
          const parts: unknown[] = [{ type: 'step-start' }];
          for (let i = 0; i < ctx.sizes.width; i++)
            parts.push(
              i % 2
                ? { type: 'text', text: `m${i}`, state: 'done' }
                : toolPart(`c${i}`, { state: 'output-available', input: { i }, output: `r${i}` }),
            );
          return {
            records: [...format.prelude(doc, at), message(doc, 'wide', parts)],
            expect: { events: ctx.sizes.width },
          };
        }
        case 'end-before-begin': {
          // Each call's output in one message, its start (input still
          // streaming) in the next: a stored history going backwards.
          const out = format.prelude(doc, at);
          for (let i = 0; i < 100; i++) {
            out.push(
              message(doc, `done${i}`, [
                toolPart(`c${i}`, { state: 'output-available', input: {}, output: 'done' }),
              ]),
              message(doc, `start${i}`, [
                { type: 'step-start' },
                toolPart(`c${i}`, { state: 'input-streaming' }),
                { type: 'text', text: i ? `late ${i}` : MARK, state: 'streaming' },
              ]),
            );
          }
          return { records: out, expect: { events: 100, contains: MARK } };
        }
        default:
          return undefined;
      }
    },
    // A JSON array, one message a line (the records as JSON Lines too, for streaming).
    wrap: (records) => `[\n${records.filter((r) => r !== NUL_LINE).join(',\n')}\n]`,
    lines: true,
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
export const FORMAT_WRITERS: Partial<Record<HostileFormat, Writer>> = {
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
  'openai-agents': lineWriter(openAiAgents),
  'ag-ui': lineWriter(agUi),
  'vercel-ai': lineWriter(vercelAi),
  'vercel-ai-messages': lineWriter(vercelAiMessages),
};
