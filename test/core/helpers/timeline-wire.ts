// Small builders of wire events for the timeline unit tests. Events go
// through parseEvents, so they are canonical (defaults filled, frozen).
import { parseEvents } from '../../../src/core/events/index.js';
import type { Event } from '../../../src/core/events/index.js';
import type { TimelineItem, TimelineSpan } from '../../../src/core/timeline/index.js';

export type Wire = Record<string, unknown>;

/** A clock: each call is one second later (or `at` seconds from the start). */
export function clock(startSeconds = 0) {
  let t = startSeconds;
  return (at?: number) => new Date(Date.UTC(2026, 0, 1) + (at ?? t++) * 1000).toISOString();
}

export function wire(ts: (at?: number) => string) {
  return {
    begin: (
      id: string,
      name: string,
      type: string | null,
      parent: string | null = null,
      extra: Wire = {},
    ): Wire => ({
      event: 'span_begin',
      uuid: `sb-${id}`,
      id,
      span_id: id,
      name,
      type,
      parent_id: parent,
      timestamp: ts(),
      ...extra,
    }),
    end: (id: string): Wire => ({
      event: 'span_end',
      uuid: `se-${id}`,
      id,
      span_id: id,
      timestamp: ts(),
    }),
    info: (uuid: string, span: string | null): Wire => ({
      event: 'info',
      uuid,
      span_id: span,
      data: uuid,
      timestamp: ts(),
    }),
    branch: (uuid: string, span: string, fromAnchor: string): Wire => ({
      event: 'branch',
      uuid,
      span_id: span,
      from_anchor: fromAnchor,
      timestamp: ts(),
    }),
    tool: (uuid: string, span: string | null, extra: Wire = {}): Wire => ({
      event: 'tool',
      uuid,
      span_id: span,
      id: `call-${uuid}`,
      function: 'bash',
      arguments: {},
      result: '',
      events: [],
      timestamp: ts(),
      ...extra,
    }),
    model: (
      uuid: string,
      span: string | null,
      o: {
        system?: string | { type: 'text'; text: string }[];
        user?: string;
        calls?: boolean;
        maxTokens?: number;
        usage?: Wire;
        toolMessages?: { id: string; content: string }[];
        completedAt?: number;
        at?: number;
      } = {},
    ): Wire => {
      const input: Wire[] = [];
      if (o.system !== undefined) input.push({ role: 'system', content: o.system });
      input.push({ role: 'user', content: o.user ?? 'Please solve the task.' });
      for (const m of o.toolMessages ?? [])
        input.push({ role: 'tool', tool_call_id: m.id, content: m.content });
      const timestamp = ts(o.at);
      return {
        event: 'model',
        uuid,
        span_id: span,
        model: 'test/model',
        input,
        tools: [],
        tool_choice: 'auto',
        config: o.maxTokens === undefined ? {} : { max_tokens: o.maxTokens },
        output: {
          model: 'test/model',
          choices: [
            {
              message: {
                role: 'assistant',
                content: 'ok',
                ...(o.calls
                  ? { tool_calls: [{ id: `tc-${uuid}`, function: 'bash', arguments: {} }] }
                  : {}),
              },
              stop_reason: o.calls ? 'tool_calls' : 'stop',
            },
          ],
          usage: o.usage ?? { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
        },
        timestamp,
        ...(o.completedAt !== undefined ? { completed: ts(o.completedAt) } : {}),
      };
    },
  };
}

export function parse(list: Wire[]): Event[] {
  return parseEvents(list).events;
}

/** Direct event uuids of a span. */
export function uuids(span: TimelineSpan): string[] {
  return span.content.flatMap((c) => (c.type === 'event' ? [c.event.uuid] : []));
}

/** Direct child spans. */
export function spans(span: TimelineSpan): TimelineSpan[] {
  return span.content.filter((c): c is TimelineSpan => c.type === 'span');
}

/** A compact outline: event uuids, and `[id: …]` for spans. */
export function shape(items: readonly TimelineItem[]): string[] {
  return items.map((c) =>
    c.type === 'event' ? c.event.uuid : `[${c.id}: ${shape(c.content).join(' ')}]`,
  );
}
