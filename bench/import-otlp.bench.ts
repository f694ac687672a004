import { importOtlp } from '../src/core/import/otlp/otlp.js';
import { defineFormatBench } from './import-format.js';

const kv = (key: string, value: unknown) => ({
  key,
  value:
    typeof value === 'number'
      ? Number.isInteger(value)
        ? { intValue: String(value) }
        : { doubleValue: value }
      : { stringValue: String(value) },
});

/**
 * A generated OTLP/JSON export of about `n` spans: agent runs of ten spans
 * each (invoke_agent → chat with a tool call → execute_tool → an HTTP span
 * under the tool → …), GenAI content as JSON strings, as the openai-v2
 * instrumentation writes it; one resource, scopes of 1,000 spans, spans
 * listed children first.
 */
export function makeOtlp(n: number): string {
  const t0 = 1780000000000000000n;
  const hex = (i: number, width: number) => i.toString(16).padStart(width, '0');
  const spans: unknown[] = [];
  let id = 1;
  for (let run = 0; spans.length < n; run++) {
    const traceId = hex(run + 1, 32);
    const agentId = hex(id++, 16);
    const base = t0 + BigInt(run) * 10_000_000_000n;
    const at = (ms: number) => String(base + BigInt(ms) * 1_000_000n);
    const span = (
      spanId: string,
      parent: string | undefined,
      name: string,
      start: number,
      end: number,
      attributes: unknown[],
    ) => ({
      traceId,
      spanId,
      ...(parent ? { parentSpanId: parent } : {}),
      name,
      kind: 1,
      startTimeUnixNano: at(start),
      endTimeUnixNano: at(end),
      attributes,
      status: {},
    });
    const children: unknown[] = [];
    for (let step = 0; step < 3; step++) {
      const call = `call_${run}_${step}`;
      const t = step * 2000;
      children.push(
        span(hex(id++, 16), agentId, 'chat gpt-4o-mini', t + 10, t + 900, [
          kv('gen_ai.operation.name', 'chat'),
          kv('gen_ai.provider.name', 'openai'),
          kv('gen_ai.request.model', 'gpt-4o-mini'),
          kv('gen_ai.response.model', 'gpt-4o-mini-2024-07-18'),
          kv('gen_ai.request.temperature', 0.7),
          kv('gen_ai.usage.input_tokens', 400 + step),
          kv('gen_ai.usage.output_tokens', 27),
          kv(
            'gen_ai.input.messages',
            JSON.stringify([
              {
                role: 'user',
                parts: [{ type: 'text', content: `Where is order A-${run}-${step}?` }],
              },
            ]),
          ),
          kv(
            'gen_ai.output.messages',
            JSON.stringify([
              {
                role: 'assistant',
                parts: [
                  {
                    type: 'tool_call',
                    id: call,
                    name: 'lookup_order',
                    arguments: { order_id: `A-${run}` },
                  },
                ],
                finish_reason: 'tool_call',
              },
            ]),
          ),
        ]),
      );
      const toolId = hex(id++, 16);
      children.push(
        span(hex(id++, 16), toolId, 'GET /orders', t + 1000, t + 1400, [
          kv('http.request.method', 'GET'),
          kv('url.full', `https://orders.example.com/orders/A-${run}`),
          kv('http.response.status_code', 200),
        ]),
        span(toolId, agentId, 'execute_tool lookup_order', t + 950, t + 1500, [
          kv('gen_ai.operation.name', 'execute_tool'),
          kv('gen_ai.tool.name', 'lookup_order'),
          kv('gen_ai.tool.call.id', call),
          kv(
            'gen_ai.tool.call.result',
            JSON.stringify({ status: 'in_transit', eta: '2026-06-15' }),
          ),
        ]),
      );
    }
    spans.push(
      ...children,
      span(agentId, undefined, 'invoke_agent support_agent', 0, 6000, [
        kv('gen_ai.operation.name', 'invoke_agent'),
        kv('gen_ai.agent.name', 'support_agent'),
      ]),
    );
  }
  spans.length = n;
  const scopeSpans: unknown[] = [];
  for (let i = 0; i < spans.length; i += 1000)
    scopeSpans.push({ scope: { name: 'bench' }, spans: spans.slice(i, i + 1000) });
  return JSON.stringify({
    resourceSpans: [{ resource: { attributes: [kv('service.name', 'bench')] }, scopeSpans }],
  });
}

/**
 * `core.import.otlp.<n>-spans`: an OTLP/JSON export of n spans (GenAI
 * agent runs), as a ratio to one JSON.parse of the same bytes.
 */
export default defineFormatBench({
  name: 'core.import.otlp',
  unit: 'spans',
  encoding: 'json',
  make: makeOtlp,
  // The floor's records are the spans (resourceSpans[].scopeSpans[].spans[]).
  records: (doc) =>
    (doc as { resourceSpans: { scopeSpans: { spans: unknown[] }[] }[] }).resourceSpans.flatMap(
      (r) => r.scopeSpans.flatMap((s) => s.spans),
    ),
  run: (text) => importOtlp(text).events.length,
});
