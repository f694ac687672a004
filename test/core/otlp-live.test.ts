// The live OTLP importer maps each request's spans and log records once, as
// they come: whatever the requests (split, reordered, children before
// parents, retried), the events handed out end as the whole-file import's of
// the same records, without the whole-file import ever being run.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { otlpLiveImporter, type OtlpWholeImport } from '../../src/core/import/otlp/otlp-live.js';
import { importOtlp, type Event } from '../../src/index.js';

const kv = (key: string, value: string | number) => ({
  key,
  value: typeof value === 'number' ? { intValue: String(value) } : { stringValue: value },
});

interface GenSpan {
  span: Record<string, unknown>;
  logs: Record<string, unknown>[];
}

/**
 * A trace of agents, model calls naming tool calls, the tools that answer
 * them (some with a sub-agent), and plain spans; GenAI log records on some
 * model calls. Built from a list of choices (fast-check's), so shrinkable.
 */
function generateTrace(choices: number[], trace = 1): GenSpan[] {
  const traceId = trace.toString(16).padStart(32, '0');
  const t0 = 1780000000000000000n;
  const at = (ms: number) => String(t0 + BigInt(ms) * 1_000_000n);
  const out: GenSpan[] = [];
  let n = 0;
  const add = (
    parent: string | undefined,
    name: string,
    start: number,
    attrs: unknown[],
  ): string => {
    const spanId = (trace * 4096 + ++n).toString(16).padStart(16, '0');
    out.push({
      span: {
        traceId,
        spanId,
        ...(parent === undefined ? {} : { parentSpanId: parent }),
        name,
        kind: 1,
        startTimeUnixNano: at(start),
        endTimeUnixNano: at(start + 5),
        attributes: attrs,
      },
      logs: [],
    });
    return spanId;
  };
  const root = add(undefined, 'invoke_agent main', 0, [
    kv('gen_ai.operation.name', 'invoke_agent'),
    kv('gen_ai.agent.name', 'main'),
  ]);
  const parents = [root];
  let time = 1;
  for (const c of choices) {
    const parent = parents[c % parents.length]!;
    time += c % 3; // equal starts too: read order breaks the tie
    switch (c % 5) {
      case 0:
      case 1: {
        const call = `call_${trace}_${n}`;
        const chat = add(parent, 'chat gpt-4o', time, [
          kv('gen_ai.operation.name', 'chat'),
          kv('gen_ai.request.model', 'gpt-4o'),
          kv('gen_ai.usage.input_tokens', 10 + c),
          kv(
            'gen_ai.output.messages',
            JSON.stringify([
              {
                role: 'assistant',
                parts: [{ type: 'tool_call', id: call, name: 'lookup', arguments: { c } }],
              },
            ]),
          ),
        ]);
        if (c % 2 === 0)
          out.at(-1)!.logs.push({
            traceId,
            spanId: chat,
            timeUnixNano: at(time),
            eventName: 'gen_ai.user.message',
            attributes: [kv('gen_ai.system', 'openai')],
            body: { kvlistValue: { values: [kv('content', `question ${c}`)] } },
          });
        // The tool that answers it (name and arguments from the call).
        const tool = add(parent, 'execute_tool', time + 1, [
          kv('gen_ai.operation.name', 'execute_tool'),
          kv('gen_ai.tool.call.id', call),
          kv('gen_ai.tool.call.result', `result ${c}`),
        ]);
        if (c % 7 === 0) parents.push(tool);
        break;
      }
      case 2:
        parents.push(
          add(parent, 'invoke_agent helper', time, [
            kv('gen_ai.operation.name', 'invoke_agent'),
            kv('gen_ai.agent.name', `helper ${c}`),
          ]),
        );
        break;
      default:
        parents.push(add(parent, `step ${c}`, time, [kv('http.request.method', 'GET')]));
    }
  }
  return out;
}

function request(spans: GenSpan[]): Record<string, unknown> {
  return {
    resourceSpans: [
      {
        resource: { attributes: [kv('service.name', 'gen')] },
        scopeSpans: [{ scope: { name: 'gen' }, spans: spans.map((s) => s.span) }],
      },
    ],
  };
}

function logRequest(spans: GenSpan[]): Record<string, unknown> {
  return {
    resourceLogs: [
      {
        resource: { attributes: [kv('service.name', 'gen')] },
        scopeLogs: [{ scope: { name: 'gen' }, logRecords: spans.flatMap((s) => s.logs) }],
      },
    ],
  };
}

const byUuid = (events: readonly Event[]) => new Map(events.map((e) => [e.uuid, e]));

/** A live importer over `importOtlp` that counts the whole-input imports it runs. */
function counted() {
  const calls = { n: 0 };
  const whole: OtlpWholeImport = (input, options) => {
    calls.n++;
    return importOtlp(input as never, options);
  };
  return { imp: otlpLiveImporter(whole, {}), calls };
}

/** Every event `imp` hands out for `records`, one request each, flushed after each, then ended. */
function feedAll(imp: ReturnType<typeof counted>['imp'], records: readonly unknown[]): Event[] {
  const out: Event[] = [];
  for (const r of records) {
    imp.push(r, '');
    out.push(...imp.flush());
  }
  out.push(...imp.end());
  return out;
}

describe('OTLP live import, a request at a time', () => {
  it('all spans in one request: the whole-file import, in its order, with no re-import', () => {
    const spans = generateTrace([0, 2, 3, 1, 5, 7, 14, 9, 4, 10, 21]);
    const records = [request(spans), logRequest(spans)];
    const { imp, calls } = counted();
    const out = feedAll(imp, records);
    const whole = importOtlp(records, {});
    expect([...byUuid(out).values()]).toEqual(whole.events);
    expect(whole.events.some((e) => e.event === 'tool' && e.function === 'lookup')).toBe(true);
    expect(imp.diagnostics()).toEqual(whole.diagnostics);
    expect(calls.n).toBe(0);
  });

  it('any split into requests, in any order, retried: the same events (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(40), { minLength: 1, maxLength: 24 }),
        fc.array(fc.nat(1000), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        (choices, cuts, seed) => {
          const spans = generateTrace(choices);
          // Shuffled (children often before parents), cut into requests, some sent twice.
          let s = seed;
          const rand = (k: number) => ((s = (s * 48271) % 2147483647) % k) | 0;
          const shuffled = [...spans];
          for (let i = shuffled.length - 1; i > 0; i--) {
            const j = rand(i + 1);
            [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
          }
          const records: Record<string, unknown>[] = [];
          let at = 0;
          for (const cut of cuts) {
            if (at >= shuffled.length) break;
            const part = shuffled.slice(at, (at += 1 + (cut % 4)));
            records.push(request(part));
            if (part.some((p) => p.logs.length > 0)) records.push(logRequest(part));
            if (cut % 5 === 0) records.push(request(part)); // a retry
          }
          if (at < shuffled.length) records.push(request(shuffled.slice(at)));
          const { imp, calls } = counted();
          const out: Event[] = [];
          for (const [i, r] of records.entries()) {
            imp.push(r, '');
            if (rand(3) > 0 || i === records.length - 1) out.push(...imp.flush());
          }
          expect(imp.held).toBe(0);
          out.push(...imp.end());
          const whole = importOtlp(records, {});
          expect(byUuid(out)).toEqual(byUuid(whole.events));
          // Handed out again only when it changed (a tool paired once its model call came).
          const seen = new Map<string, Event>();
          for (const e of out) {
            const before = seen.get(e.uuid);
            if (before) expect(e).not.toEqual(before);
            seen.set(e.uuid, e);
          }
          expect(calls.n).toBe(0);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a parent that comes after its children were released takes them back', () => {
    const spans = generateTrace([3, 0, 8, 2]);
    const [root, ...rest] = spans;
    const { imp, calls } = counted();
    const out: Event[] = [];
    imp.push(request(rest), '');
    expect(imp.flush()).toEqual([]);
    expect(imp.held).toBeGreaterThan(0);
    out.push(...imp.release());
    expect(imp.held).toBe(0);
    expect(imp.diagnostics().filter((d) => d.code === 'otlp_orphan_span').length).toBeGreaterThan(
      0,
    );
    imp.push(request([root!]), '');
    out.push(...imp.flush(), ...imp.end());
    const whole = importOtlp([request(rest), request([root!])], {});
    expect(byUuid(out)).toEqual(byUuid(whole.events));
    expect(imp.diagnostics()).toEqual(whole.diagnostics);
    expect(calls.n).toBe(0);
  });

  it('a tool span without a call id: the whole import, made only when a span was placed', () => {
    // Its call is the first unanswered one of its name, wherever that is: the
    // run is imported whole, as the file streaming importer does.
    const spans = generateTrace([0, 3, 8]);
    const tool = spans.find((s) => s.span['name'] === 'execute_tool')!;
    tool.span['attributes'] = [
      ...(tool.span['attributes'] as { key: string }[]).filter(
        (a) => a.key !== 'gen_ai.tool.call.id',
      ),
      kv('gen_ai.tool.name', 'lookup'),
    ];
    const [root, ...rest] = spans;
    const { imp, calls } = counted();
    const out: Event[] = [];
    for (const part of [rest.slice(0, 2), rest.slice(2), [root!]]) {
      imp.push(request(part), '');
      out.push(...imp.flush());
    }
    const records = [request(rest.slice(0, 2)), request(rest.slice(2)), request([root!])];
    // Nothing placed before the root came: one import then.
    expect(calls.n).toBe(1);
    expect(imp.held).toBe(0);
    out.push(...imp.end());
    const whole = importOtlp(records, {});
    expect(byUuid(out)).toEqual(byUuid(whole.events));
    expect(imp.diagnostics()).toEqual(whole.diagnostics);
    const t = whole.events.find((e) => e.event === 'tool')!;
    expect(t).toMatchObject({ function: 'lookup', id: expect.stringMatching(/^call_/) });
  });

  it('a parent chain 100,000 deep, sent children first over several requests', () => {
    const depth = 100_000;
    const traceId = 'a'.repeat(32);
    const id = (i: number) => i.toString(16).padStart(16, '0');
    const chain = Array.from({ length: depth }, (_, i) => ({
      span: {
        traceId,
        spanId: id(i + 1),
        ...(i === 0 ? {} : { parentSpanId: id(i) }),
        name: `s${i}`,
        startTimeUnixNano: String(1780000000000000000n + BigInt(i)),
        endTimeUnixNano: String(1780000001000000000n - BigInt(i)),
      },
      logs: [],
    }));
    const records = [3, 2, 1, 0].map((q) =>
      request(chain.slice((q * depth) / 4, ((q + 1) * depth) / 4)),
    );
    const { imp, calls } = counted();
    const out = feedAll(imp, records);
    expect(calls.n).toBe(0);
    // Each span under the one before it (compared field by field: the whole
    // import of this chain, and a deep equality of 200,000 events, are slow).
    const begins = out.filter(
      (e): e is Extract<Event, { event: 'span_begin' }> => e.event === 'span_begin',
    );
    expect(out).toHaveLength(2 * depth);
    expect(begins).toHaveLength(depth);
    const misplaced = begins.filter((e, i) => e.parent_id !== (i === 0 ? null : id(i)));
    expect(misplaced).toEqual([]);
    expect(imp.diagnostics()).toEqual([]);
  });
});
