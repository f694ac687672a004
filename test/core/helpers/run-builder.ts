// Small canonical runs for the run-diff tests, written step by step. Every
// run gets its own uuids, span ids, tool-call ids and clock (as two real
// runs would), so only what the agent did can make two runs differ.
import { createEventBuilders, type Event } from '../../../src/index.js';

export interface ModelOptions {
  model?: string;
  tokens?: number;
  error?: string;
  /** Tool calls the response asks for (function names). */
  calls?: string[];
}

export interface ToolOptions {
  error?: string;
  /** Wrap it in a tool span as inspect does (the ToolEvent after the span). */
  span?: boolean;
  /** Steps the tool ran (a sub-agent), inside its tool span. */
  inner?: (run: RunBuilder) => void;
  /** Milliseconds it took. */
  ms?: number;
}

export class RunBuilder {
  readonly events: Event[] = [];
  #n = 0;
  #t: number;
  #span: string | null = null;
  readonly #build;

  constructor(
    readonly prefix: string,
    start = Date.parse('2026-03-01T10:00:00Z'),
  ) {
    this.#t = start;
    this.#build = createEventBuilders({
      uuid: () => `${prefix}-${this.#n++}`,
      now: () => this.#t,
    });
  }

  #tick(ms = 1000): string {
    this.#t += ms;
    return new Date(this.#t).toISOString();
  }

  #push(event: Event): this {
    this.events.push(event);
    return this;
  }

  span(name: string, type: string | null, body: (run: RunBuilder) => void, aborted = false): this {
    const id = `${this.prefix}-s${this.#n++}`;
    const parent = this.#span;
    const metadata = aborted ? { aborted: true } : undefined;
    this.#push(
      this.#build.span_begin({
        id,
        name,
        ...(type !== null ? { type } : {}),
        ...(parent !== null ? { parent_id: parent } : {}),
        ...(metadata ? { metadata } : {}),
      }),
    );
    this.#span = id;
    body(this);
    this.#span = parent;
    this.#tick(10);
    return this.#push(this.#build.span_end({ id, ...(metadata ? { metadata } : {}) }));
  }

  /** A span left open (a run cut short). */
  open(name: string, type: string | null, body: (run: RunBuilder) => void): this {
    const id = `${this.prefix}-s${this.#n++}`;
    const parent = this.#span;
    this.#push(
      this.#build.span_begin({
        id,
        name,
        ...(type !== null ? { type } : {}),
        ...(parent !== null ? { parent_id: parent } : {}),
      }),
    );
    this.#span = id;
    body(this);
    this.#span = parent;
    return this;
  }

  #spanId(): { span_id?: string } {
    return this.#span === null ? {} : { span_id: this.#span };
  }

  model(text: string, options: ModelOptions = {}): this {
    const model = options.model ?? 'anthropic/claude-sonnet-4-5';
    const start = this.#tick();
    const completed = this.#tick(500);
    const tokens = options.tokens ?? 100;
    const tool_calls = (options.calls ?? []).map((fn, i) => ({
      id: `${this.prefix}-call-${this.#n}-${i}`,
      function: fn,
      arguments: {},
      type: 'function' as const,
    }));
    return this.#push(
      this.#build.model({
        ...this.#spanId(),
        timestamp: start,
        model,
        output: {
          model,
          choices: [
            {
              message: {
                role: 'assistant',
                content: text,
                ...(tool_calls.length > 0 ? { tool_calls } : {}),
              },
              stop_reason: tool_calls.length > 0 ? 'tool_calls' : 'stop',
            },
          ],
          completion: text,
          usage: { input_tokens: tokens, output_tokens: 10, total_tokens: tokens + 10 },
        },
        ...(options.error !== undefined ? { error: options.error } : {}),
        completed,
      }),
    );
  }

  tool(fn: string, args: Record<string, unknown>, result: string, options: ToolOptions = {}): this {
    const call = {
      ...this.#spanId(),
      id: `${this.prefix}-call-${this.#n}`,
      function: fn,
      arguments: args,
      result,
      ...(options.error !== undefined
        ? { error: { type: 'unknown', message: options.error } }
        : {}),
    };
    if (options.span === true || options.inner !== undefined) {
      const start = this.#tick(1);
      const tool = { ...call, timestamp: start };
      this.span(fn, 'tool', (run) => options.inner?.(run));
      const completed = this.#tick(options.ms ?? 200);
      return this.#push(this.#build.tool({ ...tool, completed }));
    }
    const start = this.#tick();
    const completed = this.#tick(options.ms ?? 200);
    return this.#push(this.#build.tool({ ...call, timestamp: start, completed }));
  }

  message(role: 'user' | 'assistant', text: string): this {
    this.#tick();
    return this.#push(
      this.#build.message({
        ...this.#spanId(),
        role,
        content: text,
        message_id: `${this.prefix}-m${this.#n}`,
      }),
    );
  }

  error(message: string): this {
    this.#tick();
    return this.#push(
      this.#build.error({
        ...this.#spanId(),
        error: { message, traceback: '', traceback_ansi: '' },
      }),
    );
  }

  score(value: string, scorer = 'match'): this {
    this.#tick();
    return this.#push(this.#build.score({ ...this.#spanId(), scorer, score: { value } }));
  }

  /** Noise the diff hides by default. */
  log(message: string): this {
    this.#tick(1);
    return this.#push(
      this.#build.logger({
        ...this.#spanId(),
        message: {
          level: 'info',
          message,
          created: this.#t,
          filename: 'x.py',
          module: 'x',
          lineno: 1,
        },
      }),
    );
  }
}

/** A run built by `body` under `prefix`. */
export function run(prefix: string, body: (run: RunBuilder) => void, start?: number): Event[] {
  const builder = new RunBuilder(prefix, start);
  body(builder);
  return builder.events;
}
