// The OTLP run registry (src/core/otlp-runs): spans and log records from the
// OpenTelemetry JS SDK (its tracer, logger and OTLP/JSON serializer), grouped
// into runs, deduplicated, held while a parent is missing, ended, evicted
// and spilled.
import { SpanStatusCode } from '@opentelemetry/api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createOtlpRunRegistry,
  detectFormat,
  EventStream,
  importOtlp,
  type Event,
  type OtlpRunInfo,
  type OtlpRunRegistry,
} from '../../src/index.js';
import { logsRequest, otelSdk, traceRequest, under, idsOf } from '../helpers/otel-sdk.js';

const registries: OtlpRunRegistry[] = [];
afterEach(() => {
  for (const r of registries.splice(0)) r.close();
  vi.useRealTimers();
});

function registry(options: Parameters<typeof createOtlpRunRegistry>[0] = {}): OtlpRunRegistry {
  const r = createOtlpRunRegistry(options);
  registries.push(r);
  return r;
}

const latest = (events: readonly Event[]) => {
  const byUuid = new Map<string, Event>();
  for (const e of events) byUuid.set(e.uuid, e);
  return [...byUuid.values()];
};

/** An agent run: invoke_agent → chat (with a tool call) → execute_tool. */
function agentRun(sdk: ReturnType<typeof otelSdk>, attrs: Record<string, string> = {}) {
  const root = sdk.tracer.startSpan('invoke_agent support', {
    attributes: {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'support',
      ...attrs,
    },
  });
  const chat = sdk.tracer.startSpan(
    'chat gpt-4o',
    {
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.usage.input_tokens': 12,
        'gen_ai.usage.output_tokens': 3,
        'gen_ai.output.messages': JSON.stringify([
          {
            role: 'assistant',
            parts: [{ type: 'tool_call', id: 'call_1', name: 'lookup', arguments: { id: 7 } }],
          },
        ]),
      },
    },
    under(root),
  );
  chat.end();
  const tool = sdk.tracer.startSpan(
    'execute_tool lookup',
    {
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.call.id': 'call_1',
        'gen_ai.tool.call.result': 'found',
      },
    },
    under(root),
  );
  tool.end();
  return { root, chat, tool };
}

describe('createOtlpRunRegistry', () => {
  it('makes a run of each trace, newest first, each a stream of the importer’s events', () => {
    const sdk = otelSdk();
    const reg = registry();
    const a = agentRun(sdk);
    a.root.end();
    const first = sdk.spans();
    expect(reg.ingestTraces(traceRequest(first))).toEqual({
      accepted: 3,
      rejected: 0,
      duplicates: 0,
    });
    const b = agentRun(sdk);
    b.root.end();
    reg.ingestTraces(traceRequest(sdk.spans()));
    reg.flush();
    const runs = reg.getSnapshot().runs;
    expect(runs.map((r) => r.id)).toEqual([
      `trace:${idsOf(b.root as never).traceId}`,
      `trace:${idsOf(a.root as never).traceId}`,
    ]);
    expect(runs[1]).toMatchObject({
      kind: 'trace',
      name: 'invoke_agent support',
      spans: 3,
      status: 'live',
    });
    // The run's events are the whole-file import's (the end waits for the run to end).
    const stream = reg.get(runs[1]!.id)!.stream;
    const whole = importOtlp(traceRequest(first)).events;
    reg.end(runs[1]!.id);
    expect(latest(stream.toArray())).toEqual(whole);
    const tool = whole.find((e) => e.event === 'tool') as Extract<Event, { event: 'tool' }>;
    expect(tool).toMatchObject({
      id: 'call_1',
      function: 'lookup',
      arguments: { id: 7 },
      result: 'found',
    });
  });

  it('groups the traces of one conversation, and merges a trace that names it late', () => {
    const sdk = otelSdk();
    const reg = registry();
    const conv = { 'gen_ai.conversation.id': 'conv-42' };
    const one = agentRun(sdk, conv);
    one.root.end();
    reg.ingestTraces(traceRequest(sdk.spans()));
    // Another trace: its children come first, without the conversation id…
    const two = agentRun(sdk);
    reg.ingestTraces(traceRequest(sdk.spans()));
    const alone = `trace:${idsOf(two.chat as never).traceId}`;
    expect(
      reg
        .getSnapshot()
        .runs.map((r) => r.id)
        .sort(),
    ).toEqual(['conversation:conv-42', alone].sort());
    const aloneStream = reg.get(alone)!.stream;
    // …then its root, which names the conversation.
    two.root.setAttribute('gen_ai.conversation.id', 'conv-42');
    two.root.end();
    reg.ingestTraces(traceRequest(sdk.spans()));
    reg.flush();
    const runs = reg.getSnapshot().runs;
    expect(runs.map((r) => r.id)).toEqual(['conversation:conv-42']);
    expect(runs[0]).toMatchObject({ kind: 'conversation', spans: 6 });
    expect(reg.get(alone)?.info).toMatchObject({
      status: 'merged',
      mergedInto: 'conversation:conv-42',
    });
    expect(aloneStream.complete).toBe(true);
    reg.end('conversation:conv-42');
    const agents = reg
      .get('conversation:conv-42')!
      .stream.latest()
      .filter((e) => e.event === 'span_begin');
    expect(agents).toHaveLength(2);
  });

  it('drops a span sent twice (an exporter retry) and counts it', () => {
    const sdk = otelSdk();
    const reg = registry();
    agentRun(sdk).root.end();
    const request = traceRequest(sdk.spans());
    reg.ingestTraces(request);
    expect(reg.ingestTraces(request)).toEqual({ accepted: 0, rejected: 0, duplicates: 3 });
    reg.flush();
    const [run] = reg.getSnapshot().runs;
    expect(run).toMatchObject({ spans: 3, duplicates: 3 });
    expect(
      reg
        .get(run!.id)!
        .stream.latest()
        .filter((e) => e.event === 'model'),
    ).toHaveLength(1);
  });

  it('keys spans by trace and span id: another trace may reuse a span id, and a retry of either is dropped, across a merge', () => {
    const sdk = otelSdk();
    const reg = registry();
    const one = agentRun(sdk, { 'gen_ai.conversation.id': 'conv-7' });
    one.root.end();
    const first = traceRequest(sdk.spans());
    reg.ingestTraces(first);
    // Another trace, children first (no conversation named yet), whose model
    // call reuses the first trace's span id: span ids are unique per trace only.
    const two = agentRun(sdk);
    const children = traceRequest(sdk.spans());
    const chatId = idsOf(two.chat as never).spanId;
    const reused = idsOf(one.chat as never).spanId;
    const spans = (children['resourceSpans'] as { scopeSpans: { spans: { spanId: string }[] }[] }[])
      .flatMap((r) => r.scopeSpans)
      .flatMap((sc) => sc.spans);
    for (const s of spans) if (s.spanId === chatId) s.spanId = reused;
    expect(spans.map((s) => s.spanId)).toContain(reused);
    expect(reg.ingestTraces(children)).toEqual({ accepted: 2, rejected: 0, duplicates: 0 });
    // Its root names the conversation: the trace's run is merged into it.
    two.root.setAttribute('gen_ai.conversation.id', 'conv-7');
    two.root.end();
    reg.ingestTraces(traceRequest(sdk.spans()));
    expect(reg.ingestTraces(first)).toEqual({ accepted: 0, rejected: 0, duplicates: 3 });
    expect(reg.ingestTraces(children)).toEqual({ accepted: 0, rejected: 0, duplicates: 2 });
    reg.flush();
    expect(reg.getSnapshot().runs).toMatchObject([
      { id: 'conversation:conv-7', spans: 6, duplicates: 5 },
    ]);
    const models = reg
      .get('conversation:conv-7')!
      .stream.latest()
      .filter((e) => e.event === 'model');
    expect(models).toHaveLength(2);
  });

  it('rejects spans without ids, saying how many', () => {
    const sdk = otelSdk();
    const reg = registry();
    agentRun(sdk).root.end();
    const request = traceRequest(sdk.spans()) as {
      resourceSpans: { scopeSpans: { spans: Record<string, unknown>[] }[] }[];
    };
    delete request.resourceSpans[0]!.scopeSpans[0]!.spans[0]!['spanId'];
    const result = reg.ingestTraces(request);
    expect(result).toMatchObject({ accepted: 2, rejected: 1 });
    expect(result.errorMessage).toMatch(/1 spans without a trace id or a span id/);
  });

  it('puts off importing a trace that waits for its root: nothing is read until the root comes, then the same events', async () => {
    const sdk = otelSdk();
    const reg = registry({ maxHeld: 3 });
    const { root } = agentRun(sdk); // children end (and are exported) first
    const children = sdk.spans();
    reg.ingestTraces(traceRequest(children));
    const id = `trace:${idsOf(root as never).traceId}`;
    // The timer's import turn: the run is put off, its spans counted as held.
    await vi.waitFor(() => expect(reg.get(id)!.info).toMatchObject({ held: 2, events: 0 }));
    await new Promise((r) => setTimeout(r, 20));
    const importer = (reg.get(id) as unknown as { importer: { held: number } }).importer;
    expect(importer.held).toBe(0); // read nothing: what it holds is not read yet
    expect(reg.busy).toBe(false);
    root.end();
    const last = sdk.spans();
    reg.ingestTraces(traceRequest(last));
    await vi.waitFor(() => expect(reg.get(id)!.info).toMatchObject({ held: 0, spans: 3 }));
    reg.end(id);
    const whole = importOtlp(traceRequest([...children, ...last])).events;
    expect(latest(reg.get(id)!.stream.toArray())).toEqual(whole);
  });

  it('still releases a trace waiting for its root past maxHeld spans, at the import turn', async () => {
    const sdk = otelSdk();
    const reg = registry({ maxHeld: 3 });
    const root = sdk.tracer.startSpan('invoke_agent never ends');
    for (let i = 0; i < 5; i++) sdk.tracer.startSpan(`step ${i}`, {}, under(root)).end();
    reg.ingestTraces(traceRequest(sdk.spans()));
    const id = `trace:${idsOf(root as never).traceId}`;
    // Five spans waiting, over maxHeld: released at the root with a diagnostic
    // each by the timer's import turn (no flush, no end).
    const run = reg.get(id)!;
    await vi.waitFor(() =>
      expect(run.diagnostics().filter((d) => d.code === 'otlp_orphan_span')).toHaveLength(5),
    );
    expect(run.info).toMatchObject({ held: 0, spans: 5, status: 'live' });
    expect(run.stream.latest().filter((e) => e.event === 'span_begin')).toHaveLength(5);
  });

  it('holds spans whose parent has not come, and releases them with a diagnostic when the run ends', () => {
    const sdk = otelSdk();
    const reg = registry();
    const { root } = agentRun(sdk); // the root never ends: it is never exported
    reg.ingestTraces(traceRequest(sdk.spans()));
    reg.flush();
    const id = `trace:${idsOf(root as never).traceId}`;
    expect(reg.get(id)!.info).toMatchObject({ held: 2, events: 0, status: 'live' });
    reg.end(id);
    const run = reg.get(id)!;
    expect(run.info).toMatchObject({ held: 0, status: 'ended' });
    expect(
      run.stream
        .latest()
        .map((e) => e.event)
        .sort(),
    ).toEqual(['model', 'tool']);
    expect(run.diagnostics().filter((d) => d.code === 'otlp_orphan_span')).toHaveLength(2);
    // The parent comes after all: the children move under it.
    root.end();
    reg.ingestTraces(traceRequest(sdk.spans()));
    reg.flush();
    expect(reg.get(id)!.info.status).toBe('live');
    const begin = run.stream.latest().find((e) => e.event === 'span_begin')!;
    expect(run.stream.latest().find((e) => e.event === 'model')!.span_id).toBe(
      (begin as { id: string }).id,
    );
  });

  it('bounds what one run holds: past maxHeld the waiting spans are released', () => {
    const sdk = otelSdk();
    const reg = registry({ maxHeld: 5 });
    const root = sdk.tracer.startSpan('root');
    for (let i = 0; i < 6; i++) sdk.tracer.startSpan(`child ${i}`, {}, under(root)).end();
    reg.ingestTraces(traceRequest(sdk.spans()));
    reg.flush();
    const [run] = reg.getSnapshot().runs;
    expect(run).toMatchObject({ held: 0, spans: 6 });
    expect(
      reg
        .get(run!.id)!
        .stream.latest()
        .filter((e) => e.event === 'span_begin'),
    ).toHaveLength(6);
  });

  it('keeps a child nested under its parent across clock skew between processes', () => {
    const agentSdk = otelSdk('agent');
    const toolSdk = otelSdk('tool-service');
    const reg = registry();
    const now = Date.now();
    const root = agentSdk.tracer.startSpan('invoke_agent a', { startTime: now });
    // The tool service's clock runs 2 s behind: its span starts "before" its parent.
    toolSdk.tracer.startSpan('remote work', { startTime: now - 2000 }, under(root)).end(now - 1500);
    root.end(now + 1000);
    reg.ingestTraces(traceRequest(toolSdk.spans()));
    reg.ingestTraces(traceRequest(agentSdk.spans()));
    reg.flush();
    const [info] = reg.getSnapshot().runs;
    reg.end(info!.id);
    const events = reg.get(info!.id)!.stream.latest();
    const begins = events.filter((e) => e.event === 'span_begin') as {
      id: string;
      name: string;
      parent_id?: string | null;
    }[];
    const child = begins.find((b) => b.name === 'remote work')!;
    expect(child.parent_id).toBe(begins.find((b) => b.name === 'invoke_agent a')!.id);
  });

  it('notifies when a run starts, grows and ends', () => {
    vi.useFakeTimers();
    let now = 1_000_000;
    const sdk = otelSdk();
    const reg = registry({ idleMs: 5000, now: () => now });
    const seen: OtlpRunInfo['status'][][] = [];
    reg.subscribe(() => seen.push(reg.getSnapshot().runs.map((r) => r.status)));
    const { root } = agentRun(sdk);
    reg.ingestTraces(traceRequest(sdk.spans()));
    vi.advanceTimersByTime(10); // the import
    const [started] = reg.getSnapshot().runs;
    expect(started).toMatchObject({ status: 'live', spans: 2 });
    root.end();
    reg.ingestTraces(traceRequest(sdk.spans()));
    vi.advanceTimersByTime(10);
    expect(reg.getSnapshot().runs[0]).toMatchObject({ status: 'live', spans: 3 });
    expect(reg.getSnapshot().runs[0]!.events).toBeGreaterThan(started!.events);
    now += 6000;
    vi.advanceTimersByTime(2000); // the idle sweep
    expect(reg.getSnapshot().runs[0]!.status).toBe('ended');
    return Promise.resolve().then(() => {
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.at(-1)).toEqual(['ended']);
    });
  });

  it('evicts the oldest ended run first past maxRuns, and the spill has everything it received', () => {
    const sdk = otelSdk();
    const spilled = new Map<string, object[]>();
    const evicted: string[] = [];
    const reg = registry({
      maxRuns: 2,
      spill: {
        record: (run, record) =>
          void (spilled.get(run.id) ?? spilled.set(run.id, []).get(run.id)!).push(record),
        evicted: (run) => void evicted.push(run.id),
      },
    });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { root } = agentRun(sdk);
      root.end();
      reg.ingestTraces(traceRequest(sdk.spans()));
      ids.push(`trace:${idsOf(root as never).traceId}`);
      if (i === 0) reg.end(ids[0]!);
    }
    // The ended one left first, though it is not the least recent.
    expect(evicted).toEqual([ids[0]]);
    expect(
      reg
        .getSnapshot()
        .runs.map((r) => r.id)
        .sort(),
    ).toEqual([ids[1], ids[2]].sort());
    // Re-importing the spilled records gives the run back.
    const back = importOtlp(spilled.get(ids[0]!)!).events;
    expect(back.filter((e) => e.event === 'model')).toHaveLength(1);
    expect(back.filter((e) => e.event === 'tool')).toHaveLength(1);
  });

  it('evicts by bytes: the received bodies of all runs stay under maxBytes', () => {
    const sdk = otelSdk();
    const reg = registry({ maxBytes: 5000 });
    for (let i = 0; i < 5; i++) {
      agentRun(sdk).root.end();
      const request = traceRequest(sdk.spans());
      reg.ingestTraces(request, JSON.stringify(request).length);
    }
    const snap = reg.getSnapshot();
    expect(snap.bytes).toBeLessThanOrEqual(5000);
    expect(snap.runs.length).toBeLessThan(5);
    expect(snap.runs.length).toBeGreaterThan(0);
  });

  it('joins log records to their span (GenAI events) and to their session (Claude Code events)', async () => {
    const sdk = otelSdk('claude-code');
    const reg = registry();
    const chat = sdk.tracer.startSpan('chat gpt', {
      attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt' },
    });
    sdk.logger.emit({
      eventName: 'gen_ai.user.message',
      body: { content: 'hello' },
      context: under(chat),
    });
    sdk.logger.emit({
      eventName: 'gen_ai.choice',
      body: { index: 0, finish_reason: 'stop', message: { content: 'hi there' } },
      context: under(chat),
    });
    sdk.logger.emit({
      body: 'claude_code.user_prompt',
      attributes: {
        'event.name': 'user_prompt',
        'session.id': 's-1',
        prompt: 'fix it',
        prompt_length: '6',
      },
    });
    sdk.logger.emit({
      body: 'claude_code.tool_result',
      attributes: {
        'event.name': 'tool_result',
        'session.id': 's-1',
        tool_name: 'Bash',
        success: 'false',
        error: 'exit 1',
        duration_ms: '40',
        tool_parameters: '{"command":"make"}',
      },
    });
    // The logs first: the GenAI ones wait for their span.
    reg.ingestLogs(logsRequest(await sdk.logs()));
    reg.flush();
    const trace = `trace:${idsOf(chat as never).traceId}`;
    expect(reg.get(trace)!.info).toMatchObject({ logs: 2, held: 2, events: 0 });
    chat.end();
    reg.ingestTraces(traceRequest(sdk.spans()));
    reg.flush();
    reg.end(trace);
    const model = reg
      .get(trace)!
      .stream.latest()
      .find((e) => e.event === 'model') as Extract<Event, { event: 'model' }>;
    expect(model.input).toEqual([{ role: 'user', content: 'hello' }]);
    expect(model.output.choices[0]!.message.content).toBe('hi there');
    const session = reg.get('session:s-1')!;
    expect(session.info).toMatchObject({ kind: 'session', logs: 2 });
    const events = session.stream.latest();
    expect(events[0]).toMatchObject({ event: 'message', role: 'user', content: 'fix it' });
    expect(events[1]).toMatchObject({
      event: 'tool',
      function: 'Bash',
      arguments: { command: 'make' },
      failed: true,
      error: { message: 'exit 1' },
    });
  });

  it('puts everything into one stream when given one', () => {
    const sdk = otelSdk();
    const stream = new EventStream();
    const reg = registry({ stream });
    agentRun(sdk).root.end();
    agentRun(sdk).root.end();
    reg.ingestTraces(traceRequest(sdk.spans()));
    reg.flush();
    expect(reg.getSnapshot().runs.map((r) => r.id)).toEqual(['all']);
    expect(stream.latest().filter((e) => e.event === 'model')).toHaveLength(2);
    reg.close();
    expect(stream.complete).toBe(true);
  });

  it('marks failed spans: the run counts its errors and the model event carries it', () => {
    const sdk = otelSdk();
    const reg = registry();
    const chat = sdk.tracer.startSpan('chat gpt', {
      attributes: { 'gen_ai.operation.name': 'chat' },
    });
    chat.setStatus({ code: SpanStatusCode.ERROR, message: 'rate limited' });
    chat.end();
    reg.ingestTraces(traceRequest(sdk.spans()));
    reg.flush();
    const [run] = reg.getSnapshot().runs;
    expect(run!.errors).toBe(1);
    expect(reg.get(run!.id)!.stream.latest()[0]).toMatchObject({
      event: 'model',
      error: 'rate limited',
    });
  });

  it('refuses everything once closed', () => {
    const sdk = otelSdk();
    const reg = registry();
    reg.close();
    agentRun(sdk).root.end();
    expect(reg.ingestTraces(traceRequest(sdk.spans()))).toMatchObject({ accepted: 0, rejected: 3 });
    expect(reg.closed).toBe(true);
  });
});

describe('OTLP logs files', () => {
  it('are detected and imported: Claude Code events become messages, model calls and tools', async () => {
    const sdk = otelSdk('claude-code');
    sdk.logger.emit({
      body: 'claude_code.user_prompt',
      attributes: { 'event.name': 'user_prompt', 'session.id': 's', prompt_length: '12' },
    });
    sdk.logger.emit({
      body: 'claude_code.api_request',
      attributes: {
        'event.name': 'api_request',
        'session.id': 's',
        model: 'claude-sonnet-4',
        input_tokens: '1200',
        output_tokens: '80',
        cache_read_tokens: '300',
        cost_usd: '0.012',
        duration_ms: '2500',
      },
    });
    sdk.logger.emit({
      body: 'claude_code.api_error',
      attributes: {
        'event.name': 'api_error',
        model: 'claude-sonnet-4',
        error: 'overloaded',
        status_code: '529',
      },
    });
    const text = JSON.stringify(logsRequest(await sdk.logs()));
    expect(detectFormat(text)?.format).toBe('otlp');
    const { events } = importOtlp(text);
    expect(events.map((e) => e.event)).toEqual(['message', 'model', 'model']);
    expect(events[0]).toMatchObject({
      role: 'user',
      content: expect.stringMatching(/12 characters/),
    });
    const call = events[1] as Extract<Event, { event: 'model' }>;
    expect(call).toMatchObject({ model: 'claude-sonnet-4', working_time: 2.5 });
    expect(call.output.usage).toMatchObject({
      input_tokens: 1200,
      output_tokens: 80,
      input_tokens_cache_read: 300,
      total_cost: 0.012,
    });
    // A request logged when it ended started its duration earlier.
    expect(Date.parse(call.completed!) - Date.parse(call.timestamp)).toBe(2500);
    expect(events[2]).toMatchObject({ event: 'model', error: 'overloaded' });
  });
});
