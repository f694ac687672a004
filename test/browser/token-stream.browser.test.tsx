// A message streamed token by token into <Transcript>, in real Chromium:
// 10,000 tokens, arriving as a socket delivers them (a few per task), into
// useAgUiStream. The tokens must update one row, coalesced per frame, and
// never re-derive the rest of the run: no other row renders or is described
// again, and every tree snapshot keeps what came before the message.
// (The agent here hands events straight to its subscribers: `@ag-ui/client`
// itself costs about a millisecond per event in Chromium, which would make
// this test ten seconds of the client's work; the real HttpAgent with the
// same hook is tested in test/react/live-sources.test.tsx.)
import { cleanup, render, waitFor } from '@testing-library/react';
import { useMemo } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createDescriberRegistry,
  createEventTreeFeed,
  type AgUiEventInput,
  type EventTreeFeed,
  type EventStream,
} from '../../src/index.js';
import { Transcript, useAgUiStream, type AgUiAgentLike } from '../../src/react.js';
import '../../src/styles.css';

afterEach(() => cleanup());

const TOKENS = 10_000;
// Tokens per task: a burst, as a socket hands over whatever arrived since the
// last read (each burst is drawn once, at the next frame).
const PER_TASK = 400;

/** An agent (the shape useAgUiStream reads) that streams a run when `run()` is called. */
function streamingAgent(): AgUiAgentLike & { run(): Promise<void> } {
  const subscribers: { onEvent?(p: { event: AgUiEventInput }): unknown }[] = [];
  const send = (event: AgUiEventInput) => {
    for (const s of subscribers) s.onEvent?.({ event });
  };
  return {
    subscribe(s) {
      subscribers.push(s);
      return { unsubscribe: () => void subscribers.splice(subscribers.indexOf(s), 1) };
    },
    async run() {
      send({ type: 'RUN_STARTED', threadId: 't', runId: 'story' });
      send({ type: 'TEXT_MESSAGE_START', messageId: 'question', role: 'user' });
      send({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'question', delta: 'Tell me a long story.' });
      send({ type: 'TEXT_MESSAGE_END', messageId: 'question' });
      send({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'lookup' });
      send({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"topic":"stories"}' });
      send({ type: 'TOOL_CALL_END', toolCallId: 'c1' });
      send({ type: 'TOOL_CALL_RESULT', messageId: 'r1', toolCallId: 'c1', content: 'found 3' });
      send({ type: 'TEXT_MESSAGE_START', messageId: 'answer', role: 'assistant' });
      for (let k = 0; k < TOKENS; k += PER_TASK) {
        await new Promise((r) => setTimeout(r, 4));
        for (let j = k; j < k + PER_TASK; j++)
          send({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'answer', delta: `w${j} ` });
      }
      send({ type: 'TEXT_MESSAGE_END', messageId: 'answer' });
      send({ type: 'RUN_FINISHED', threadId: 't', runId: 'story' });
    },
  };
}

describe('a 10,000-token message streamed into <Transcript>', () => {
  it('updates one row, once per frame at most, and never re-derives the rest', async () => {
    const agent = streamingAgent();
    const described = new Map<string, number>();
    const rendered = new Map<string, number>();
    const bump = (m: Map<string, number>, uuid: string) => m.set(uuid, (m.get(uuid) ?? 0) + 1);
    const describers = createDescriberRegistry();
    for (const kind of describers.kinds()) {
      const own = describers.get(kind);
      describers.register(kind, (event, ctx) => {
        bump(described, event.uuid);
        return own(event, ctx);
      });
    }
    const renderRowBody = ({ event }: { event: { uuid: string } }) => {
      bump(rendered, event.uuid);
      return undefined;
    };
    let stream!: EventStream;
    let feed!: EventTreeFeed;
    function View() {
      stream = useAgUiStream(agent);
      feed = useMemo(() => createEventTreeFeed(stream), []);
      return (
        <div style={{ height: 600, display: 'flex' }}>
          <Transcript feed={feed} describers={describers} renderRowBody={renderRowBody} />
        </div>
      );
    }
    render(<View />);

    // Frames while the run streams, and what each tree snapshot kept.
    let frames = 0;
    let streaming = true;
    const tick = () => {
      frames++;
      if (streaming) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    const changes: { from: number; updated: readonly number[]; length: number; answer: number }[] =
      [];
    let before: { described: Map<string, number>; rendered: Map<string, number> } | undefined;
    let answerUuid: string | undefined;
    const unsubscribe = feed.subscribe(() => {
      const tree = feed.getSnapshot().tree;
      const answer = tree.events.findIndex(
        (e) => (e as { message_id?: string }).message_id === 'answer',
      );
      if (answer < 0) return;
      answerUuid ??= tree.events[answer]!.uuid;
      if (before === undefined)
        before = { described: new Map(described), rendered: new Map(rendered) };
      else if (tree.change !== undefined)
        changes.push({
          from: tree.change.from,
          // Besides the answer, only the spans holding it (their summaries
          // cover it) may have a new version.
          updated: tree.change.updated.filter((n) => {
            for (let a = tree.parentIndex[answer]!; a >= 0; a = tree.parentIndex[a]!)
              if (a === n) return false;
            return true;
          }),
          length: tree.length,
          answer,
        });
      else changes.push({ from: -1, updated: [], length: tree.length, answer });
    });

    await agent.run();
    await waitFor(() =>
      expect(stream.latest().find((e) => e.uuid === answerUuid)?.pending).toBeUndefined(),
    );
    streaming = false;
    unsubscribe();

    const answer = stream.latest().find((e) => e.uuid === answerUuid)!;
    expect((answer as { content?: string }).content!.split(' ')).toHaveLength(TOKENS + 1);
    // Coalesced: the answer's versions in the log, and its renders, are bounded by frames.
    const versions = stream.toArray().filter((e) => e.uuid === answerUuid).length;
    expect(versions).toBeLessThanOrEqual(frames + 2);
    expect(versions).toBeLessThan(TOKENS / 10);
    // A few more than its versions: the row also draws when it is measured
    // and placed; never per token.
    expect(rendered.get(answerUuid!) ?? 0).toBeLessThanOrEqual(versions + 5);
    // Nothing else was described or rendered again while the answer grew.
    for (const [uuid, n] of before!.described)
      if (uuid !== answerUuid) expect(described.get(uuid), `describe ${uuid}`).toBe(n);
    for (const [uuid, n] of before!.rendered)
      if (uuid !== answerUuid) expect(rendered.get(uuid), `render ${uuid}`).toBe(n);
    // Every snapshot while it grew resumed at the answer: nothing before it
    // re-derived. (At most one may be whole: a live tree switches to
    // deduplicating uuids once, at the first re-sent one.)
    expect(changes.length).toBeGreaterThan(2);
    expect(changes.filter((c) => c.from < 0).length).toBeLessThanOrEqual(1);
    for (const c of changes.filter((c) => c.from >= 0)) {
      expect(c.from, 'a snapshot re-derived the tree').toBeGreaterThanOrEqual(c.answer);
      expect(
        c.updated.filter((n) => n !== c.answer),
        'other nodes updated',
      ).toEqual([]);
    }
  }, 60_000);
});
