import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { createOtlpRunRegistry, type OtlpRunRegistry } from '../src/index.js';
// The real OTLP receiver of `skein/server` in its Fetch form, run in the
// page (it imports no Node built-ins): the story's agents "export" to it.
import { createOtlpFetchHandler } from '../src/node/otlp/fetch-handler.js';
import { SkeinTheme, SpanTree, Transcript } from '../src/react.js';

const meta = {
  title: 'Views/OTLP receiver',
  parameters: { layout: 'fullscreen' },
} satisfies Meta;

export default meta;
type Story = StoryObj<typeof meta>;

/**
 * An agent instrumented with the OpenTelemetry JS SDK: every `everyMs` it
 * runs a task (invoke_agent → chat with a tool call → execute_tool → chat),
 * and each span is exported as it ends — children before their parent, as
 * a real exporter sends them — as OTLP/JSON through the SDK's serializer,
 * to the receiver's `POST /v1/traces`.
 */
function useAgent(post: (body: Uint8Array) => Promise<unknown>, everyMs: number) {
  useEffect(() => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'support-agent' }),
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const tracer = provider.getTracer('story-agent');
    let task = 0;
    let stopped = false;
    const flush = () => {
      const spans = exporter.getFinishedSpans();
      exporter.reset();
      if (spans.length) void post(JsonTraceSerializer.serializeRequest(spans)!);
    };
    const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const runTask = async () => {
      const n = ++task;
      const root = tracer.startSpan(`invoke_agent support #${n}`, {
        attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'support' },
      });
      const ctx = trace.setSpan(ROOT_CONTEXT, root);
      const chat = (content: unknown[], tokens: number) => {
        const span = tracer.startSpan(
          'chat gpt-4o',
          {
            attributes: {
              'gen_ai.operation.name': 'chat',
              'gen_ai.request.model': 'gpt-4o',
              'gen_ai.usage.input_tokens': tokens,
              'gen_ai.usage.output_tokens': 20,
              'gen_ai.input.messages': JSON.stringify([
                { role: 'user', parts: [{ type: 'text', content: `Where is order A-${n}?` }] },
              ]),
              'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: content }]),
            },
          },
          ctx,
        );
        return span;
      };
      const first = chat(
        [{ type: 'tool_call', id: `call_${n}`, name: 'lookup_order', arguments: { id: `A-${n}` } }],
        300,
      );
      await wait(300);
      first.end();
      flush();
      const tool = tracer.startSpan(
        'execute_tool lookup_order',
        {
          attributes: {
            'gen_ai.operation.name': 'execute_tool',
            'gen_ai.tool.call.id': `call_${n}`,
            'gen_ai.tool.call.result': JSON.stringify({ status: 'in transit' }),
          },
        },
        ctx,
      );
      await wait(300);
      tool.end();
      flush();
      const last = chat([{ type: 'text', content: `Order A-${n} is in transit.` }], 340);
      await wait(300);
      last.end();
      root.end();
      flush();
    };
    void (async () => {
      while (!stopped) {
        await runTask();
        await wait(everyMs);
      }
    })();
    return () => {
      stopped = true;
      void provider.shutdown();
    };
  }, [post, everyMs]);
}

function useRuns(registry: OtlpRunRegistry) {
  return useSyncExternalStore(registry.subscribe, registry.getSnapshot).runs;
}

function Receiver() {
  const registry = useMemo(() => createOtlpRunRegistry({ idleMs: 2000 }), []);
  const handler = useMemo(() => createOtlpFetchHandler(registry), [registry]);
  const post = useMemo(
    () => (body: Uint8Array) =>
      handler(
        new Request('http://localhost:4318/v1/traces', {
          method: 'POST',
          body: body as BodyInit,
          headers: { 'Content-Type': 'application/json' },
        }),
      ),
    [handler],
  );
  useAgent(post, 1500);
  useEffect(() => () => handler.close(), [handler]);
  const runs = useRuns(registry);
  const [openId, setOpenId] = useState<string | null>(null);
  const open = openId === null ? undefined : registry.get(openId);
  return (
    <div className="otlp-story">
      <style>{LAYOUT}</style>
      <nav aria-label="Runs received">
        <h2 style={{ fontSize: 14, margin: '0 0 4px' }}>Runs ({runs.length})</h2>
        <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {runs.map((r) => (
            <li key={r.id}>
              <button
                type="button"
                aria-current={r.id === openId ? 'true' : undefined}
                onClick={() => setOpenId(r.id)}
                style={{ textAlign: 'start', width: '100%' }}
              >
                {r.name} · {r.status} · {r.spans} spans · {r.events} events
              </button>
            </li>
          ))}
        </ul>
      </nav>
      {open ? (
        <>
          <SpanTree key={`t${open.info.id}`} stream={open.stream} aria-label="Spans of the run" />
          <Transcript
            key={`x${open.info.id}`}
            stream={open.stream}
            aria-label="Transcript of the run"
          />
        </>
      ) : (
        <p className="otlp-story__empty">
          Choose a run: they appear as the agent exports its spans.
        </p>
      )}
    </div>
  );
}

/**
 * Three columns on a wide screen; on a tablet the runs above the tree and
 * the transcript; on a phone all three stacked (the page scrolls down, never
 * sideways).
 */
const LAYOUT = `
.otlp-story {
  display: grid;
  gap: 8px;
  padding: 8px;
  grid-template-columns: 16rem minmax(0, 1fr) minmax(0, 1.4fr);
  height: 560px;
}
.otlp-story__empty { grid-column: span 2; }
@media (max-width: 900px) {
  .otlp-story {
    grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
    grid-template-rows: auto 30rem;
    height: auto;
  }
  .otlp-story > nav { grid-column: 1 / -1; }
}
@media (max-width: 560px) {
  .otlp-story { grid-template-columns: minmax(0, 1fr); grid-template-rows: auto 20rem 30rem; }
  .otlp-story__empty { grid-column: auto; }
}
`;

/**
 * `skein view --otlp`, in the page: an agent instrumented with the
 * OpenTelemetry JS SDK exports each span as it ends to skein's OTLP
 * receiver (its Fetch form); the run registry lists the runs as they arrive
 * (a run per trace, newest first, live counts and status — a run quiet for
 * 2 s has ended), and the open one grows live in the span tree and the
 * transcript.
 */
export const LiveRuns: Story = {
  render: () => (
    <SkeinTheme theme="auto">
      <Receiver />
    </SkeinTheme>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const first = await canvas.findByRole(
      'button',
      { name: /invoke_agent support #1/ },
      { timeout: 8000 },
    );
    await userEvent.click(first);
    const feed = await canvas.findByRole('feed', { name: 'Transcript of the run' });
    await waitFor(
      () => expect(within(feed).getAllByText(/lookup_order/).length).toBeGreaterThan(0),
      {
        timeout: 8000,
      },
    );
    // Later runs arrive while the first is open, above it: newest first.
    await waitFor(
      () => {
        const numbers = within(canvas.getByRole('navigation', { name: 'Runs received' }))
          .getAllByRole('button')
          .map((b) => Number(/#(\d+)/.exec(b.textContent ?? '')?.[1]));
        expect(numbers[0]).toBeGreaterThan(1);
        expect(numbers).toEqual([...numbers].sort((x, y) => y - x));
      },
      { timeout: 8000 },
    );
  },
};
