// The React hooks over the packages apps use: useAgUiStream on a real
// `@ag-ui/client` HttpAgent (a local server encoding with `@ag-ui/encoder`),
// useUIMessagesStream on `@ai-sdk/react`'s real useChat (its transport
// streaming what `ai`'s streamText makes on the mock model).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpAgent } from '@ag-ui/client';
import type { BaseEvent, RunAgentInput } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import { useChat } from '@ai-sdk/react';
import { act, render, screen, waitFor } from '@testing-library/react';
import { simulateReadableStream, type ChatTransport, type UIMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { importAgUi, importUIMessages, type Event, type EventStream } from '../../src/index.js';
import {
  useAgUiStream,
  useStoreSelector,
  useUIMessagesStream,
  type AgUiAgentLike,
} from '../../src/react.js';
import { agUiRun } from '../core/helpers/ag-ui-runs.js';
import { uiRun } from '../core/helpers/vercel-ai-runs.js';

process.env['SUPPRESS_TRANSFORMATION_WARNINGS'] = 'true';

/** Events without what differs between live and recorded: times and invented flags. */
const shape = (events: readonly Event[]) =>
  events.map((e) => {
    const {
      timestamp: _t,
      completed: _c,
      metadata,
      ...rest
    } = e as Event & { completed?: unknown };
    const { skein_invented: _i, ...kept } = metadata ?? {};
    return { ...rest, metadata: kept };
  });

let echo = true;
let capture = '';
let server: http.Server;
let url = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const input = JSON.parse(body) as RunAgentInput;
      const encoder = new EventEncoder();
      res.writeHead(200, { 'content-type': encoder.getContentType() });
      const events = agUiRun({ threadId: input.threadId, runId: input.runId, tokens: 20 }).map(
        (e): BaseEvent =>
          e.type === 'RUN_STARTED' ? { ...e, input: echo ? input : undefined } : e,
      );
      for (const e of events) {
        const text = encoder.encode(e);
        capture += text;
        res.write(text);
      }
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function Latest({ stream, onStream }: { stream: EventStream; onStream: (s: EventStream) => void }) {
  onStream(stream);
  const count = useStoreSelector(stream, (s) => s.latest.length);
  return <p role="status">{count}</p>;
}

function AgUi({ agent, onStream }: { agent: HttpAgent; onStream: (s: EventStream) => void }) {
  return <Latest stream={useAgUiStream(agent)} onStream={onStream} />;
}

describe('useAgUiStream', () => {
  it('an HttpAgent’s thread and run: what the hook shows is the import of what was sent', async () => {
    expectTypeOf<HttpAgent>().toExtend<AgUiAgentLike>();
    echo = true;
    capture = '';
    const hello = { id: 'hello', role: 'user' as const, content: 'Hello' };
    const agent = new HttpAgent({ url, threadId: 'thread-1', initialMessages: [hello] });
    let stream: EventStream | undefined;
    render(<AgUi agent={agent} onStream={(s) => (stream = s)} />);
    await act(() => agent.runAgent({ runId: 'run-1' }));
    // The thread the agent held when the hook subscribed, then the run.
    const history = new EventEncoder().encode({
      type: 'MESSAGES_SNAPSHOT',
      messages: [hello],
    } as BaseEvent);
    const expected = importAgUi(history + capture).events;
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(String(expected.length)),
    );
    expect(shape(stream!.latest())).toEqual(shape(expected));
  });

  it('a run that does not echo its input still shows the prompt the client sent', async () => {
    echo = false;
    const agent = new HttpAgent({ url, threadId: 'thread-2' });
    let stream: EventStream | undefined;
    render(<AgUi agent={agent} onStream={(s) => (stream = s)} />);
    agent.addMessage({ id: 'ask', role: 'user', content: 'Weather in Oslo?' });
    await act(() => agent.runAgent({ runId: 'run-9' }));
    await waitFor(() =>
      expect(
        stream!.latest().find((e) => (e as { message_id?: string }).message_id === 'ask')?.span_id,
      ).toBe('run:run-9'),
    );
  });
});

describe('useUIMessagesStream', () => {
  it('useChat’s messages, streamed: the stream ends as the import of the messages, in far fewer versions than chunks', async () => {
    const chunks = await uiRun({ tokens: 60 });
    const transport: ChatTransport<UIMessage> = {
      sendMessages: async () => simulateReadableStream({ chunks, chunkDelayInMs: 0 }),
      reconnectToStream: async () => null,
    };
    let stream: EventStream | undefined;
    let chat: ReturnType<typeof useChat> | undefined;
    function Chat() {
      chat = useChat({ transport });
      return (
        <Latest
          stream={useUIMessagesStream(chat.messages, { status: chat.status })}
          onStream={(s) => (stream = s)}
        />
      );
    }
    render(<Chat />);
    await act(() => chat!.sendMessage({ text: 'How is the weather in Oslo?' }));
    await waitFor(() => expect(chat!.status).toBe('ready'));
    const expected = importUIMessages(chat!.messages).events;
    await waitFor(() => expect(shape(stream!.latest())).toEqual(shape(expected)));
    expect(stream!.latest().every((e) => e.pending !== true)).toBe(true);
    // Tokens are coalesced per frame: fewer versions than chunks.
    expect(stream!.length).toBeLessThan(chunks.length);
  });
});
