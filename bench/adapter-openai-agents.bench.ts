import { EventStream } from '../src/core/stream/event-stream.js';
import { skeinTracingProcessor } from '../src/core/import/openai-agents/processor.js';
import type { OpenAiAgentsSpan } from '../src/core/import/openai-agents/types.js';
import { defineBench } from './node.js';

// Spans shaped as the SDK hands them to a processor (a turn holding a
// generation and a function tool), mutated between start and end as the SDK
// does. Each span is two source events (start, end).
function makeSpans(n: number): { span: OpenAiAgentsSpan; data: Record<string, unknown> }[] {
  const out: { span: OpenAiAgentsSpan; data: Record<string, unknown> }[] = [];
  const at = new Date(Date.UTC(2026, 0, 1)).toISOString();
  for (let i = 0; out.length < n; i++) {
    const turn = `span_turn_${i}`;
    const mk = (id: string, parent: string | null, data: Record<string, unknown>) => ({
      span: {
        spanId: id,
        traceId: 'trace_bench',
        parentId: parent,
        startedAt: at,
        endedAt: null as string | null,
        error: null,
        spanData: data as { type: string },
      },
      data,
    });
    out.push(mk(turn, null, { type: 'turn', turn: i, agent_name: 'A' }));
    out.push(
      mk(`span_gen_${i}`, turn, {
        type: 'generation',
        model: 'gpt-bench',
        input: [{ role: 'user', content: `q${i}` }],
      }),
    );
    out.push(mk(`span_fn_${i}`, turn, { type: 'function', name: 'lookup', input: `{"q":${i}}` }));
  }
  return out.slice(0, n);
}

/**
 * `core.adapter.openai-agents.<n>`: source events (span starts and ends) per
 * second through `skeinTracingProcessor` into an `EventStream`, flushed once
 * per 100 source events (as a microtask would flush a burst).
 */
export default defineBench({
  name: 'core.adapter.openai-agents',
  async run(ctx) {
    const n = ctx.size(30_000, 6_000);
    const timing = await ctx.time(
      () => {
        const stream = new EventStream();
        const flushes: (() => void)[] = [];
        const p = skeinTracingProcessor(stream, { schedule: (f) => flushes.push(f) });
        const spans = makeSpans(n);
        void p.onTraceStart({ traceId: 'trace_bench', name: 'bench' });
        let k = 0;
        const tick = () => {
          if (++k % 100 === 0) flushes.splice(0).forEach((f) => f());
        };
        for (let i = 0; i < spans.length; i += 3) {
          const group = spans.slice(i, i + 3);
          for (const { span } of group) {
            void p.onSpanStart(span);
            tick();
          }
          for (const { span, data } of group.reverse()) {
            if (data['type'] === 'generation')
              data['output'] = [{ role: 'assistant', content: 'a', tool_calls: [] }];
            if (data['type'] === 'function') data['output'] = 'ok';
            (span as { endedAt: string | null }).endedAt = span.startedAt;
            void p.onSpanEnd(span);
            tick();
          }
        }
        void p.onTraceEnd({ traceId: 'trace_bench', name: 'bench' });
        return stream.length;
      },
      { repeat: ctx.quick ? 3 : 5, warmup: 1 },
    );
    ctx.record({
      name: `core.adapter.openai-agents.${ctx.label(n * 2)}`,
      value: Math.round((n * 2) / (timing.median / 1000)),
      unit: 'events/s',
      n: n * 2,
      target: '≥ 100,000 source events/s',
    });
  },
});
