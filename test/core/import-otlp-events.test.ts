// GenAI content on span events in the pre-1.36 conventions (issue 20, "GenAI
// conventions old and new"): one event per message (`gen_ai.system.message`,
// `gen_ai.user.message`, `gen_ai.assistant.message`, `gen_ai.tool.message`)
// and one per choice (`gen_ai.choice`), as opentelemetry-python-contrib's
// openai-v2 instrumentation wrote them before `gen_ai.input.messages`.
import { describe, expect, it } from 'vitest';
import { importOtlp, type Event, type ModelEvent } from '../../src/index.js';

const s = (v: string) => ({ stringValue: v });
const kv = (o: Record<string, unknown>) => ({
  kvlistValue: { values: Object.entries(o).map(([key, value]) => ({ key, value })) },
});

function chatSpan(events: unknown[]) {
  return {
    resourceSpans: [
      {
        scopeSpans: [
          {
            spans: [
              {
                traceId: '0af7651916cd43dd8448eb211c80319c',
                spanId: 'b7ad6b7169203331',
                name: 'chat gpt-4o',
                kind: 3,
                startTimeUnixNano: '1780000000000000000',
                endTimeUnixNano: '1780000001000000000',
                attributes: [
                  { key: 'gen_ai.operation.name', value: s('chat') },
                  { key: 'gen_ai.system', value: s('openai') },
                  { key: 'gen_ai.request.model', value: s('gpt-4o') },
                ],
                events,
              },
            ],
          },
        ],
      },
    ],
  };
}

const event = (name: string, attrs: Record<string, unknown>) => ({
  name,
  timeUnixNano: '1780000000500000000',
  attributes: Object.entries(attrs).map(([key, value]) => ({ key, value })),
});

const models = (events: Event[]) => events.filter((e): e is ModelEvent => e.event === 'model');

describe('otlp: GenAI messages as span events (pre-1.36)', () => {
  it('reads the input from message events and the output, tool calls and finish reason from gen_ai.choice', () => {
    const { events, diagnostics } = importOtlp(
      chatSpan([
        event('gen_ai.system.message', { 'gen_ai.system': s('openai'), content: s('Be brief.') }),
        event('gen_ai.user.message', { 'gen_ai.system': s('openai'), content: s('Weather?') }),
        event('gen_ai.choice', {
          'gen_ai.system': s('openai'),
          index: { intValue: '0' },
          finish_reason: s('tool_calls'),
          message: kv({
            role: s('assistant'),
            tool_calls: {
              arrayValue: {
                values: [
                  kv({
                    id: s('call_1'),
                    type: s('function'),
                    function: kv({ name: s('get_weather'), arguments: s('{"city":"Oslo"}') }),
                  }),
                ],
              },
            },
          }),
        }),
      ]),
    );
    expect(diagnostics.filter((d) => d.severity === 'warning')).toEqual([]);
    const [m, ...more] = models(events);
    expect(more).toEqual([]);
    expect(m!.model).toBe('gpt-4o');
    expect(m!.input.map((msg) => [msg.role, msg.content])).toEqual([
      ['system', 'Be brief.'],
      ['user', 'Weather?'],
    ]);
    const choice = m!.output.choices[0]!;
    expect(choice.stop_reason).toBe('tool_calls');
    expect(choice.message.tool_calls?.map((t) => [t.id, t.function, t.arguments])).toEqual([
      ['call_1', 'get_weather', { city: 'Oslo' }],
    ]);
    // The message events were read into the model event, not repeated as info events.
    expect(events.filter((e) => e.event === 'info')).toEqual([]);
  });

  it('reads an assistant text choice and a tool result message', () => {
    const { events } = importOtlp(
      chatSpan([
        event('gen_ai.user.message', { content: s('Weather?') }),
        event('gen_ai.assistant.message', {
          tool_calls: {
            arrayValue: {
              values: [
                kv({
                  id: s('call_1'),
                  type: s('function'),
                  function: kv({ name: s('get_weather'), arguments: s('{}') }),
                }),
              ],
            },
          },
        }),
        event('gen_ai.tool.message', { id: s('call_1'), content: s('Sunny') }),
        event('gen_ai.choice', {
          finish_reason: s('stop'),
          message: kv({ role: s('assistant'), content: s('It is sunny.') }),
        }),
      ]),
    );
    const m = models(events)[0]!;
    expect(m.input.map((msg) => msg.role)).toEqual(['user', 'assistant', 'tool']);
    const tool = m.input[2]!;
    expect(tool.content).toBe('Sunny');
    expect((tool as { tool_call_id?: string }).tool_call_id).toBe('call_1');
    expect(m.output.choices[0]!.message.content).toBe('It is sunny.');
    expect(m.output.choices[0]!.stop_reason).toBe('stop');
  });
});
