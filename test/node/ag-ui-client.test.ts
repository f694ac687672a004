// AG-UI end to end with the packages apps run: a local server encodes runs
// with `@ag-ui/encoder` (every event validated by `@ag-ui/core`), the real
// `@ag-ui/client` `HttpAgent` reads them, and what `fromAgUi` built from the
// client's events equals `importAgUi` of the bytes the server sent.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import { HttpAgent } from '@ag-ui/client';
import type { BaseEvent, RunAgentInput } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromAgUi, importAgUi, type AgUiEvent, type Event } from '../../src/index.js';
import { agUiRun } from '../core/helpers/ag-ui-runs.js';

// The client says so on the console when it expands chunks; the tests know.
process.env['SUPPRESS_TRANSFORMATION_WARNINGS'] = 'true';

const T0 = 1767225600000;

/** What the server sends for a run input, and every byte it wrote. */
let script: (input: RunAgentInput) => BaseEvent[] = () => [];
let capture = '';
let server: http.Server;
let url = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const input = JSON.parse(body) as RunAgentInput;
      const encoder = new EventEncoder({ accept: req.headers.accept });
      res.writeHead(200, { 'content-type': encoder.getContentType() });
      for (const event of script(input)) {
        const text = encoder.encode(event);
        capture += text;
        res.write(text);
      }
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Runs `runs` through a real HttpAgent into fromAgUi; returns the live events and the capture. */
async function viaClient(runs: ((input: RunAgentInput) => BaseEvent[])[]) {
  capture = '';
  const agent = new HttpAgent({
    url,
    threadId: 'thread-1',
    initialMessages: [{ id: 'hello', role: 'user', content: 'Hello' }],
  });
  const live = fromAgUi({ now: () => T0 });
  agent.subscribe({ onEvent: ({ event }) => live.push(event as AgUiEvent) });
  for (const [i, run] of runs.entries()) {
    script = run;
    await agent.runAgent({ runId: `run-${i + 1}` });
  }
  live.end();
  return { live: live.stream.latest(), capture, agent };
}

/** Echoes the input, as a producer that dates its events and sends `agUiRun`. */
const echo =
  (options: Parameters<typeof agUiRun>[0] = {}) =>
  (input: RunAgentInput): BaseEvent[] =>
    agUiRun({ ...options, threadId: input.threadId, runId: input.runId, history: input.messages });

describe('AG-UI through @ag-ui/encoder and @ag-ui/client', () => {
  it('what fromAgUi builds from HttpAgent equals importAgUi of the bytes sent', async () => {
    const {
      live,
      capture: sent,
      agent,
    } = await viaClient([
      echo({ start: T0, tokens: 40, tools: 2 }),
      echo({ start: T0 + 10_000, tokens: 3, outcome: 'interrupt' }),
    ]);
    const recorded = importAgUi(sent);
    expect(recorded.diagnostics.filter((d) => d.severity === 'warning')).toEqual([]);
    expect(live).toEqual(recorded.events);
    // Both runs, the client's own history once, everything closed.
    const runs = live.filter((e) => e.event === 'span_begin' && e.metadata?.['ag_ui']);
    expect(runs.map((r) => (r.metadata!['ag_ui'] as { outcome: string }).outcome)).toEqual([
      'success',
      'interrupt',
    ]);
    const hello = live.filter(
      (e) => e.event === 'message' && (e as { message_id?: string }).message_id === 'hello',
    );
    expect(hello).toHaveLength(1);
    expect(live.some((e) => e.pending === true)).toBe(false);
    // The client agrees on the conversation it keeps.
    expect(agent.messages.map((m) => m.id)).toEqual(
      expect.arrayContaining(['hello', 'run-1-answer', 'run-2-summary']),
    );
  });

  it('dated chunks: the client drops their times, so only those items differ (documented)', async () => {
    const { live, capture: sent } = await viaClient([echo({ start: T0, dateChunks: true })]);
    const recorded = importAgUi(sent).events;
    const differ = (a: readonly Event[], b: readonly Event[]) =>
      a.filter((e, i) => !isDeepStrictEqual(e, b[i])).map((e) => e.uuid);
    const changed = differ(live, recorded);
    const byUuid = new Map(live.map((e) => [e.uuid, e]));
    // The chunked message and tool call: their times, nothing else.
    expect(
      changed.map(
        (u) =>
          (byUuid.get(u) as { message_id?: string; id?: string }).message_id ??
          (byUuid.get(u) as { id?: string }).id,
      ),
    ).toEqual(['run-1-summary', 'run-1-notify']);
    const strip = (e: Event) => ({ ...e, timestamp: '', metadata: undefined });
    expect(live.map(strip)).toEqual(recorded.map(strip));
  });
});
