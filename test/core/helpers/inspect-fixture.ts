// The project's own small inspect_ai logs, built in code: a condensed sample
// exercising every indirection (research/inspect_ai.md §1.5) and helpers that
// lay it out as `.json`, monolith `.eval` and chunked `.eval`. Shared by
// test/core/inspect-log.test.ts and test/fixtures/inspect/generate.ts.
import type { ZipMember } from './zip-builder.js';

/** Long strings (> 100 chars), as inspect would move into attachments. */
export const LONG = {
  system: `You are a careful assistant. ${'Think step by step. '.repeat(6)}`,
  user: `Please list the files in the working directory and explain each. ${'Be brief. '.repeat(6)}`,
  args: `ls -la /workspace && find /workspace -maxdepth 2 -type f | head -n 50 ${'# pad '.repeat(10)}`,
  info: `Nested info payload that is long enough to be an attachment in a real log. ${'x'.repeat(40)}`,
  tool: `You are a tool-using agent; call bash to inspect files. ${'Use tools wisely. '.repeat(4)}`,
};

/** Attachment hashes (32 hex chars, like murmur3) for {@link LONG}. */
export const HASH = {
  system: '0123456789abcdef0123456789abcdef',
  user: 'fedcba9876543210fedcba9876543210',
  args: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  info: 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
  tool: 'cccccccccccccccccccccccccccccccc',
};

export const ref = (k: keyof typeof HASH) => `attachment://${HASH[k]}`;

const ts = (s: number) => `2026-01-02T03:04:${String(s).padStart(2, '0')}.000001+00:00`;

/** Message pool: 4 messages; entry 0 and 1 hold attachment refs themselves. */
export function messagePool() {
  return [
    { id: 'm0', role: 'system', content: ref('system') },
    { id: 'm1', role: 'user', content: [{ type: 'text', text: ref('user') }] },
    {
      id: 'm2',
      role: 'assistant',
      content: 'Listing files.',
      tool_calls: [
        { id: 'c1', function: 'bash', arguments: { cmd: ref('args') }, type: 'function' },
      ],
    },
    { id: 'm3', role: 'tool', content: 'a.txt b.txt', tool_call_id: 'c1', function: 'bash' },
  ];
}

/** Call pool: provider wire messages, the first holding an attachment ref. */
export function callPool() {
  return [
    { role: 'system', content: ref('system') },
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: 'Listing files.' },
    { role: 'tool', content: 'a.txt b.txt' },
  ];
}

/** A condensed sample's events (attachments as hash refs, inputs pooled). */
export function condensedEvents(sampleTag: string) {
  return [
    {
      uuid: `${sampleTag}-e0`,
      span_id: 's1',
      timestamp: ts(0),
      working_start: 0,
      event: 'span_begin',
      id: 's1',
      name: 'solvers',
      type: 'solvers',
    },
    {
      uuid: `${sampleTag}-e1`,
      span_id: 's1',
      timestamp: ts(1),
      working_start: 1,
      event: 'sample_init',
      sample: { input: ref('user'), target: 'ok', id: sampleTag },
      state: { messages: [{ id: 'm1', role: 'user', content: ref('user') }] },
    },
    {
      uuid: `${sampleTag}-e2`,
      span_id: 's1',
      timestamp: ts(2),
      working_start: 2,
      event: 'model',
      model: 'mock/model',
      input: [],
      input_refs: [[0, 2]],
      tools: [
        {
          name: 'bash',
          description: ref('tool'),
          parameters: { type: 'object', properties: {}, required: [] },
        },
      ],
      tool_choice: 'auto',
      config: {},
      output: {
        model: 'mock/model',
        choices: [{ message: messagePool()[2], stop_reason: 'tool_calls' }],
        completion: 'Listing files.',
      },
      call: {
        request: { model: 'mock', temperature: 0 },
        response: { id: 'r1' },
        call_refs: [[0, 2]],
        call_key: 'messages',
      },
      completed: ts(3),
    },
    {
      uuid: `${sampleTag}-e3`,
      span_id: 's1',
      timestamp: ts(3),
      working_start: 3,
      event: 'tool',
      type: 'function',
      id: 'c1',
      function: 'bash',
      arguments: { cmd: ref('args') },
      result: 'a.txt b.txt',
      events: [],
      completed: ts(4),
    },
    {
      uuid: `${sampleTag}-e4`,
      span_id: 's1',
      timestamp: ts(4),
      working_start: 4,
      event: 'info',
      source: 'test',
      data: { deep: [{ text: ref('info') }] },
    },
    {
      uuid: `${sampleTag}-e5`,
      span_id: 's1',
      timestamp: ts(5),
      working_start: 5,
      event: 'model',
      model: 'mock/model',
      // Non-contiguous ranges, as inspect's _compress_refs writes them.
      input: [],
      input_refs: [
        [0, 1],
        [2, 4],
      ],
      tools: [],
      tool_choice: 'none',
      config: {},
      output: {
        model: 'mock/model',
        choices: [{ message: { role: 'assistant', content: 'Done.' }, stop_reason: 'stop' }],
        completion: 'Done.',
      },
      // No call_key: inspect's reader defaults to "messages".
      call: {
        request: { model: 'mock' },
        call_refs: [
          [0, 1],
          [3, 4],
        ],
      },
    },
    {
      uuid: `${sampleTag}-e6`,
      span_id: 's1',
      timestamp: ts(6),
      working_start: 6,
      event: 'span_end',
      id: 's1',
    },
  ];
}

/** A monolith `EvalSample` (as in `.json` samples and `.eval` `samples/{id}_epoch_{e}.json`). */
export function monolithSample(id: string | number, epoch: number) {
  const tag = `${id}-${epoch}`;
  return {
    id,
    epoch,
    input: LONG.user,
    target: 'ok',
    messages: messagePool(),
    scores: { match: { value: 'C' } },
    events: condensedEvents(tag),
    attachments: Object.fromEntries(
      Object.entries(HASH).map(([k, h]) => [h, LONG[k as keyof typeof LONG]]),
    ),
    events_data: { messages: messagePool(), calls: callPool() },
  };
}

/** Sets the value at a property path. */
function put(root: unknown, path: (string | number)[], value: unknown): void {
  const parent = path
    .slice(0, -1)
    .reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], root);
  (parent as Record<string | number, unknown>)[path.at(-1)!] = value;
}

/** The events of {@link monolithSample} with every indirection resolved by hand. */
export function resolvedEvents(id: string | number, epoch: number): Record<string, unknown>[] {
  const tag = `${id}-${epoch}`;
  const msgs = messagePool();
  put(msgs, [0, 'content'], LONG.system);
  put(msgs, [1, 'content', 0, 'text'], LONG.user);
  put(msgs, [2, 'tool_calls', 0, 'arguments', 'cmd'], LONG.args);
  const calls = callPool();
  put(calls, [0, 'content'], LONG.system);
  const ev: Record<string, unknown>[] = condensedEvents(tag);
  put(ev, [1, 'sample', 'input'], LONG.user);
  put(ev, [1, 'state', 'messages', 0, 'content'], LONG.user);
  put(ev, [2, 'input'], [msgs[0], msgs[1]]);
  delete ev[2]!.input_refs;
  put(ev, [2, 'tools', 0, 'description'], LONG.tool);
  put(ev, [2, 'output', 'choices', 0, 'message'], msgs[2]);
  put(ev, [2, 'call'], {
    request: { model: 'mock', temperature: 0, messages: [calls[0], calls[1]] },
    response: { id: 'r1' },
  });
  put(ev, [3, 'arguments', 'cmd'], LONG.args);
  put(ev, [4, 'data', 'deep', 0, 'text'], LONG.info);
  put(ev, [5, 'input'], [msgs[0], msgs[2], msgs[3]]);
  delete ev[5]!.input_refs;
  put(ev, [5, 'call'], { request: { model: 'mock', messages: [calls[0], calls[3]] } });
  return ev;
}

export function header(extra: Record<string, unknown> = {}) {
  return {
    version: 2,
    status: 'success',
    eval: {
      task: 'unit',
      model: 'mock/model',
      created: '2026-01-02T03:04:00+00:00',
      run_id: 'run1',
      task_id: 'task1',
    },
    plan: { name: 'plan', steps: [] },
    results: { total_samples: 2, completed_samples: 2, scores: [] },
    stats: { started_at: '2026-01-02T03:04:00+00:00', completed_at: '2026-01-02T03:05:00+00:00' },
    ...extra,
  };
}

export const summary = (id: string | number, epoch: number) => ({
  id,
  epoch,
  input: LONG.user,
  target: 'ok',
  scores: { match: { value: 'C' } },
});

/**
 * A sample in the chunked layout (research §1.1): a `sample.json` shell with
 * `message_refs`, `events|messages|calls|attachments/{start}.json` chunks of
 * `chunkSize` items, `events/uuids.json`, and `attachment://<index>` refs.
 */
export function chunkedMembers(
  id: string | number,
  epoch: number,
  chunkSize: number,
  method = 93,
): ZipMember[] {
  const mono = monolithSample(id, epoch);
  const hashes = Object.keys(mono.attachments);
  const index = new Map(hashes.map((h, i) => [h, i]));
  const reindex = (v: unknown): string =>
    JSON.stringify(v).replace(
      /attachment:\/\/([0-9a-f]{32})/g,
      (_, h: string) => `attachment://${index.get(h)}`,
    );
  const prefix = `samples/${id}_epoch_${epoch}`;
  const members: ZipMember[] = [];
  const seq = (name: string, items: unknown[]) => {
    for (let s = 0; s < items.length; s += chunkSize) {
      members.push({
        name: `${prefix}/${name}/${s}.json`,
        data: reindex(items.slice(s, s + chunkSize)),
        method,
      });
    }
  };
  const { events, attachments, events_data, messages, ...rest } = mono;
  void messages;
  members.push({
    name: `${prefix}/sample.json`,
    data: reindex({ ...rest, message_refs: [[0, 4]] }),
    method,
  });
  seq('events', events);
  seq('messages', events_data.messages);
  seq('calls', events_data.calls);
  members.push({
    name: `${prefix}/attachments/0.json`,
    data: JSON.stringify(Object.values(attachments)),
    method,
  });
  members.push({
    name: `${prefix}/events/uuids.json`,
    data: JSON.stringify(events.map((e) => e.uuid)),
    method,
  });
  return members;
}

/** Members of a monolith `.eval` with the given samples. */
export function evalMembers(samples: [string | number, number][], method = 8): ZipMember[] {
  return [
    { name: '_journal/start.json', data: JSON.stringify(header()), method },
    ...samples.map(([id, epoch]) => ({
      name: `samples/${id}_epoch_${epoch}.json`,
      data: JSON.stringify(monolithSample(id, epoch)),
      method,
    })),
    {
      name: 'summaries.json',
      data: JSON.stringify(samples.map(([id, epoch]) => summary(id, epoch))),
      method,
    },
    { name: 'header.json', data: JSON.stringify(header()), method },
  ];
}
