// The one mapping of an AI SDK message into canonical events, shared by the
// UI message stream adapter (chunks, ./ui-stream.ts) and the UI messages
// importer (persisted `UIMessage[]` and `useChat`'s live `messages`,
// ./ui-messages.ts): both describe the same parts, one as deltas, the other
// as states, and both land here, so a response received as a stream and the
// same response read back from storage give the same events.
//
// - A user or system message = one `message` event (text and file parts).
// - An assistant message = a `turn` span (`metadata.vercel_ai` keeps its
//   message metadata and finish reason) holding a `step` span per step
//   (`start-step` chunks, `step-start` parts).
// - Its text and reasoning parts = `message` events (the n-th text part of a
//   message is the n-th `text-start`), re-emitted as they grow; file parts =
//   `message` events with an image or document; source parts and `data-*`
//   parts = `info` events (a data part with an `id` updates in place).
// - A tool part = one `tool` event whose `id` is the `toolCallId`: input as
//   `arguments`, output as `result`, `output-error`/`input-error`/
//   `output-denied` as its `error`; an approval request = an `approval`
//   event, decided when the response comes.
// - An `error` chunk = an `error` event; `abort` = the turn aborted
//   (events/outcome.ts, "Aborted").
import type {
  ApprovalEvent,
  Content,
  Event,
  InfoEvent,
  JsonObject,
  MessageEvent,
  SpanBeginEvent,
  SpanEndEvent,
  ToolEvent,
} from '../../events/types.js';
import { cloneJson } from '../../events/freeze.js';
import { markSpanAborted } from '../aborted.js';
import { OPEN_DRAFT, messageDraft, pendingApprovalDraft, pendingToolDraft } from '../drafts.js';
import { cutJsonText, isRecord, type ImportContext, type JsonRecord, stringOf } from '../guards.js';
import { jsonEqual } from '../json-equal.js';
import type { SourceClock } from '../live.js';
import { inventedOnly, inventedOnlyMetadata, type EventSink } from '../sink.js';
import { StringMap } from '../string-map.js';

/** A file part's content: an image, or a document of its media type. */
function fileContent(part: JsonRecord): Content {
  const url = stringOf(part['url']) ?? '';
  const mime = stringOf(part['mediaType']) ?? '';
  if (mime.startsWith('image/')) return { type: 'image', image: url };
  return {
    type: 'document',
    document: url,
    filename: stringOf(part['filename']) ?? '',
    mime_type: mime,
  };
}

/**
 * Tool output as a tool event's result: text as is, anything else as its
 * JSON (compact: indenting a value nested thousands deep writes a square of
 * white space; the views pretty-print JSON themselves), cut where it nests
 * too deep (reported in `ctx` under `uuid`).
 */
function resultOf(output: unknown, ctx: ImportContext, uuid: string): ToolEvent['result'] {
  if (typeof output === 'string' || typeof output === 'number' || typeof output === 'boolean')
    return output;
  return output === undefined ? '' : cutJsonText(output, ctx, uuid);
}

/** A tool's input as its arguments: an object as is, anything else under `input`. */
function argumentsOf(input: unknown, copy: <T>(value: T) => T): JsonObject {
  if (isRecord(input)) return copy(input);
  return input === undefined ? {} : { input: copy(input) as never };
}

/** The identity, for values the import owns (see {@link Messages.copy}). */
const same = <T>(value: T): T => value;

/** What is known of one tool call. */
interface Call {
  draft: ToolEvent;
  /** The raw input text streamed (`tool-input-delta`). */
  text: string;
  /** The input and output last set, by reference (a UI part keeps them while unchanged). */
  input: unknown;
  output: unknown;
  approval: ApprovalEvent | undefined;
}

/**
 * The events of AI SDK messages, built part by part.
 *
 * @example
 * import { Messages } from 'src/core/import/vercel-ai/response.js';
 * import type { SourceClock } from 'src/core/import/live.js';
 * declare const ctx: ImportContext, sink: EventSink, clock: SourceClock;
 * const messages = new Messages(ctx, sink, clock);
 * const r = messages.response('msg-1', '$[0]');
 * r.text(0, '$[1]');
 * r.append('text', 0, 'Hello', '$[2]');
 * r.close('$[3]');
 */
export class Messages {
  readonly ctx: ImportContext;
  readonly sink: EventSink;
  readonly clock: SourceClock;
  /**
   * Tool calls by id, across responses (a later message may answer one).
   * One entry a call: StringMap, not Map (string-map.ts), as the indexes below.
   */
  readonly calls = new StringMap<Call>();
  /**
   * A value of the input as an event may hold it: a copy, as events are
   * frozen and the input may be the app's (`useChat`'s messages, a stream's
   * chunks, an array the caller passed); the value itself when `owned`
   * (skein parsed it from text, and nothing else holds it).
   */
  readonly copy: <T>(value: T) => T;
  #responses = 0;

  constructor(ctx: ImportContext, sink: EventSink, clock: SourceClock, owned = false) {
    this.ctx = ctx;
    this.sink = sink;
    this.clock = clock;
    this.copy = owned ? same : cloneJson;
  }

  /**
   * Adds a draft with an invented time flag (the AI SDK dates nothing). A
   * draft without metadata gets the one frozen `{ skein_invented:
   * ['timestamp'] }` all such events share: metadata here is only ever
   * replaced (a spread into a new object), never changed in place.
   */
  add<E extends Event>(draft: E, path: string, open = false): E {
    this.sink.add(draft, open ? OPEN_DRAFT : undefined);
    if (draft.metadata === undefined) {
      draft.metadata = inventedOnlyMetadata('timestamp');
      this.ctx.invent('timestamp', path);
    } else this.sink.invent(draft, 'timestamp', path);
    return draft;
  }

  /**
   * A user or system message: one `message` event, or its known event
   * brought to this content. Returns it.
   */
  user(
    id: string,
    role: 'user' | 'system',
    content: string | Content[],
    path: string,
  ): MessageEvent {
    const known = this.#users.get(id);
    if (known !== undefined) {
      if (jsonEqual(known.content, content)) return known;
      const draft = this.sink.revise(known);
      draft.content = content;
      this.#users.set(id, draft);
      return draft;
    }
    const draft = messageDraft(
      this.sink.uuid(`message:${id}`),
      this.clock.invented(),
      undefined,
      role,
      content,
      id,
      'vercel-ai',
    );
    this.add(draft, path);
    this.#users.set(id, draft);
    return draft;
  }

  readonly #users = new StringMap<MessageEvent>();

  /** A new assistant response: its `turn` span, open. */
  response(messageId: string, path: string): Response {
    const n = ++this.#responses;
    const begin = this.sink.openSpan(
      {
        id: `response:${messageId}:${n}`,
        uuid: this.sink.uuid(`response:${messageId}:${n}`),
        timestamp: this.clock.invented(),
        type: 'turn',
        name: 'assistant',
        // Its invented time flagged here (what `timeInvented` does, without
        // a second metadata object spread from this one).
        metadata: {
          vercel_ai: { message_id: messageId },
          skein_invented: inventedOnly('timestamp'),
        },
      },
      OPEN_DRAFT,
    );
    this.ctx.invent('timestamp', path);
    return new Response(this, messageId, begin);
  }
}

/** The events of one assistant message, built part by part. */
export class Response {
  readonly messageId: string;
  begin: SpanBeginEvent;
  readonly #m: Messages;
  /** Uuids of keys under the response's span id (`<id>:<key>`). */
  readonly #uuid: (key: string) => string;
  #step: SpanBeginEvent | undefined;
  #steps = 0;
  readonly #texts: MessageEvent[] = [];
  readonly #reasoning: MessageEvent[] = [];
  readonly #files: MessageEvent[] = [];
  readonly #infos = new Map<string, InfoEvent>();
  /** The tool calls this response made or touched since it last settled. */
  readonly #calls = new Set<Call>();
  #closed = false;

  constructor(messages: Messages, messageId: string, begin: SpanBeginEvent) {
    this.#m = messages;
    this.messageId = messageId;
    this.begin = begin;
    this.#uuid = messages.sink.uuidsUnder(`${begin.id}:`);
  }

  /** How many steps were opened. */
  get steps(): number {
    return this.#steps;
  }

  /** Whether the response is still open (no finish, abort or end yet). */
  get open(): boolean {
    return !this.#closed;
  }

  /** The span new events go in: the open step, else the response. */
  get #span(): string {
    return (this.#step ?? this.begin).id;
  }

  /** Opens the next step (closing the one before). */
  step(path: string): void {
    this.endStep(path);
    const k = ++this.#steps;
    const id = `${this.begin.id}:step:${k}`;
    this.#step = this.#m.sink.openSpan(
      {
        id,
        uuid: this.#uuid(`step:${k}`),
        timestamp: this.#m.clock.invented(),
        parent_id: this.begin.id,
        type: 'step',
        name: `step ${k}`,
        // The flag of its invented time, shared (see Messages.add).
        metadata: inventedOnlyMetadata('timestamp'),
      },
      OPEN_DRAFT,
    );
    this.#m.ctx.invent('timestamp', path);
  }

  /** Closes the open step, if any. */
  endStep(path: string): void {
    const step = this.#step;
    if (step === undefined) return;
    this.#step = undefined;
    // The open step is the last opened: its id ends in `step:<steps>`.
    const end = this.#m.sink.closeSpan(step, {
      timestamp: this.#m.clock.invented(),
      uuid: this.#uuid(`step:${this.#steps}:end`),
    });
    this.#inventedEnd(end, path);
  }

  /**
   * Flags a span_end's invented time with the one shared metadata object
   * (what `timeInvented` does with a new one per event).
   */
  #inventedEnd(end: SpanEndEvent, path: string): void {
    end.metadata = inventedOnlyMetadata('timestamp');
    this.#m.ctx.invent('timestamp', path);
  }

  // --- text and reasoning ------------------------------------------------------------

  /** The n-th text (or reasoning) part's event, made (open) when new. */
  #part(list: MessageEvent[], n: number, kind: 'text' | 'reasoning', path: string): MessageEvent {
    const known = list[n];
    if (known !== undefined) return known;
    const content: MessageEvent['content'] =
      kind === 'text' ? '' : [{ type: 'reasoning', reasoning: '' }];
    const draft = messageDraft(
      this.#uuid(`${kind}:${n}`),
      this.#m.clock.invented(),
      this.#span,
      'assistant',
      content,
      this.messageId,
      'vercel-ai',
    );
    list[n] = this.#m.add(draft, path, true);
    return draft;
  }

  text(n: number, path: string): MessageEvent {
    return this.#part(this.#texts, n, 'text', path);
  }

  reasoning(n: number, path: string): MessageEvent {
    return this.#part(this.#reasoning, n, 'reasoning', path);
  }

  #writable(list: MessageEvent[], n: number): MessageEvent {
    const d = list[n]!;
    return Object.isFrozen(d) ? (list[n] = this.#m.sink.revise(d)) : d;
  }

  /** Appends a delta to the n-th text or reasoning part. */
  append(kind: 'text' | 'reasoning', n: number, delta: string, path: string): void {
    const list = kind === 'text' ? this.#texts : this.#reasoning;
    this.#part(list, n, kind, path);
    const draft = this.#writable(list, n);
    const content = draft.content;
    if (typeof content === 'string') draft.content = content + delta;
    else (content[0] as { reasoning: string }).reasoning += delta;
    this.#m.sink.touch(draft);
  }

  /**
   * Sets the n-th text or reasoning part to its whole text; `done` closes it.
   * Nothing changes (and nothing is re-emitted) when it already holds that.
   */
  set(
    kind: 'text' | 'reasoning',
    n: number,
    text: string,
    done: boolean,
    providerMetadata: unknown,
    path: string,
  ): void {
    const list = kind === 'text' ? this.#texts : this.#reasoning;
    const known = this.#part(list, n, kind, path);
    const current =
      typeof known.content === 'string'
        ? known.content
        : (known.content[0] as { reasoning: string }).reasoning;
    if (current !== text) {
      const draft = this.#writable(list, n);
      if (kind === 'text') draft.content = text;
      else draft.content = [{ type: 'reasoning', reasoning: text }];
      this.#m.sink.touch(draft);
    }
    if (done) this.end(kind, n, providerMetadata);
  }

  /** Closes the n-th text or reasoning part; provider metadata is kept. */
  end(kind: 'text' | 'reasoning', n: number, providerMetadata: unknown): void {
    const list = kind === 'text' ? this.#texts : this.#reasoning;
    if (list[n] === undefined) return;
    const had = list[n]!.metadata?.['vercel_ai'];
    if (
      providerMetadata !== undefined &&
      !jsonEqual(isRecord(had) ? had['provider_metadata'] : undefined, providerMetadata)
    ) {
      const draft = this.#writable(list, n);
      draft.metadata = {
        ...draft.metadata,
        vercel_ai: { provider_metadata: this.#m.copy(providerMetadata) },
      };
    }
    if (this.#m.sink.isOpen(list[n]!)) this.#m.sink.close(list[n]!);
  }

  // --- files, sources, data ------------------------------------------------------------

  /** The n-th file part: a message event with its image or document. */
  file(n: number, part: JsonRecord, path: string): void {
    if (this.#files[n] !== undefined) return;
    const draft = messageDraft(
      this.#uuid(`file:${n}`),
      this.#m.clock.invented(),
      this.#span,
      'assistant',
      [fileContent(part)],
      this.messageId,
      'vercel-ai',
    );
    this.#files[n] = this.#m.add(draft, path);
  }

  /**
   * An `info` event for a source or data part, keyed so a part with the same
   * key updates it in place; unchanged data changes nothing.
   */
  info(key: string, data: JsonObject, path: string): void {
    const known = this.#infos.get(key);
    if (known !== undefined) {
      if (jsonEqual(known.data, data)) return;
      const draft = this.#m.sink.revise(known);
      draft.data = this.#m.copy(data);
      this.#infos.set(key, draft);
      return;
    }
    const draft: InfoEvent = {
      event: 'info',
      uuid: this.#uuid(key),
      timestamp: this.#m.clock.invented(),
      span_id: this.#span,
      source: 'vercel-ai',
      data: this.#m.copy(data),
    };
    this.#infos.set(key, this.#m.add(draft, path));
  }

  // --- tools ---------------------------------------------------------------------------

  /** The call of `id`, made (open) when new; `name` fills a placeholder name. */
  tool(id: string, name: string | undefined, path: string): Call {
    const calls = this.#m.calls;
    const known = calls.get(id);
    if (known !== undefined) {
      this.#calls.add(known);
      if (name !== undefined && known.draft.function !== name) {
        known.draft = this.#m.sink.revise(known.draft);
        known.draft.function = name;
        this.#m.sink.touch(known.draft);
      }
      return known;
    }
    const draft = pendingToolDraft(
      this.#m.sink.uuid(`tool:${id}`),
      this.#m.clock.invented(),
      this.#span,
      id,
      {},
    );
    delete draft.metadata;
    if (name !== undefined) draft.function = name;
    this.#m.add(draft, path, true);
    const call: Call = {
      draft,
      text: '',
      input: undefined,
      output: undefined,
      approval: undefined,
    };
    calls.set(id, call);
    this.#calls.add(call);
    return call;
  }

  #writableCall(call: Call): ToolEvent {
    return (call.draft = this.#m.sink.revise(call.draft));
  }

  /** The call's whole input (`tool-input-available`, a part's `input`). */
  input(id: string, name: string | undefined, input: unknown, path: string): void {
    const call = this.tool(id, name, path);
    if (call.input === input && input !== undefined) return;
    call.input = input;
    const draft = this.#writableCall(call);
    draft.arguments = argumentsOf(input, this.#m.copy);
    this.#m.sink.touch(draft);
  }

  /** A delta of the call's input text (`tool-input-delta`); the input is set when available. */
  inputText(id: string, delta: string, path: string): void {
    const call = this.tool(id, undefined, path);
    call.text += delta;
  }

  /** The call's output; a `preliminary` one leaves it open. */
  output(id: string, output: unknown, preliminary: boolean, path: string): void {
    const call = this.tool(id, undefined, path);
    if (
      call.output === output &&
      output !== undefined &&
      !preliminary === !this.#m.sink.isOpen(call.draft)
    )
      return;
    call.output = output;
    const draft = this.#writableCall(call);
    draft.result = resultOf(output, this.#m.ctx, draft.uuid);
    if (!preliminary) this.#complete(call, path);
    else this.#m.sink.touch(draft);
  }

  /** The call failed (`output-error`, `input-error`, `output-denied`). */
  error(id: string, type: string, message: string, path: string): void {
    const call = this.tool(id, undefined, path);
    if (call.draft.error?.message === message && call.draft.error.type === type) return;
    const draft = this.#writableCall(call);
    draft.error = { type, message };
    this.#complete(call, path);
  }

  #complete(call: Call, path: string): void {
    const draft = call.draft;
    if (draft.completed === undefined || draft.completed === null) {
      draft.completed = this.#m.clock.invented();
      this.#m.sink.invent(draft, 'end', path);
    }
    if (this.#m.sink.isOpen(draft)) this.#m.sink.close(draft);
    else this.#m.sink.touch(draft);
  }

  /** An approval asked for the call (`approval-requested`), or its answer. */
  approval(
    id: string,
    approvalId: string,
    approved: boolean | undefined,
    reason: string | undefined,
    path: string,
  ): void {
    const call = this.tool(id, undefined, path);
    let approval = call.approval;
    if (approval === undefined) {
      approval = pendingApprovalDraft(
        this.#m.sink.uuid(`approval:${approvalId}`),
        this.#m.clock.invented(),
        this.#span,
        'Approve this tool call?',
        { id, function: call.draft.function, arguments: call.draft.arguments },
        'user',
        { vercel_ai: { approval_id: approvalId } },
      );
      call.approval = this.#m.add(approval, path, true);
    }
    if (approved === undefined) return;
    const decision = approved ? 'approve' : 'reject';
    if (approval.decision === decision) return;
    approval = call.approval = this.#m.sink.revise(approval);
    approval.decision = decision;
    if (reason !== undefined) approval.explanation = reason;
    this.#m.sink.close(approval);
  }

  // --- the response as a whole ---------------------------------------------------------------

  /** `metadata.vercel_ai[key]` of the response's span_begin. */
  meta(key: string, value: unknown): void {
    const begin = (this.begin = this.#m.sink.revise(this.begin));
    const own = isRecord(begin.metadata?.['vercel_ai'])
      ? (begin.metadata['vercel_ai'] as JsonObject)
      : {};
    if (jsonEqual(own[key], value)) return;
    begin.metadata = { ...begin.metadata, vercel_ai: { ...own, [key]: this.#m.copy(value) } };
    this.#m.sink.touch(begin);
  }

  /** An `error` chunk: an error event in the response. */
  failure(message: string, n: number, path: string): void {
    const draft: Event = {
      event: 'error',
      uuid: this.#uuid(`error:${n}`),
      timestamp: this.#m.clock.invented(),
      span_id: this.#span,
      error: { message, traceback: '', traceback_ansi: '' },
    };
    this.#m.add(draft, path);
  }

  /**
   * Ends the response: open parts close, the span ends; `aborted` marks it
   * and everything in it aborted.
   */
  close(path: string, aborted = false, reason?: string): void {
    this.#settle(path);
    if (this.#closed) return;
    this.#closed = true;
    this.endStep(path);
    const end = this.#m.sink.closeSpan(this.begin, {
      timestamp: this.#m.clock.invented(),
      uuid: this.#uuid('end'),
    });
    this.#inventedEnd(end, path);
    if (aborted) markSpanAborted(this.#m.sink, this.begin, reason);
  }

  /** Closes what is still open in the message (parts added after its end too). */
  #settle(path: string): void {
    for (const list of [this.#texts, this.#reasoning])
      for (const d of list) if (d !== undefined && this.#m.sink.isOpen(d)) this.#m.sink.close(d);
    for (const call of this.#calls) {
      if (call.text !== '' && call.input === undefined) {
        // Streamed input never made available (the stream ended first).
        let parsed: unknown;
        try {
          parsed = JSON.parse(call.text) as unknown;
        } catch {
          parsed = call.text;
        }
        this.input(call.draft.id, undefined, parsed, path);
      }
      if (this.#m.sink.isOpen(call.draft)) this.#m.sink.close(call.draft);
      if (call.approval !== undefined && this.#m.sink.isOpen(call.approval))
        this.#m.sink.close(call.approval);
    }
    // All settled: a call touched again (a later version of the message)
    // comes back through `tool`. Kept, every version of a message stored
    // 100,000 times would walk every call of the versions before (quadratic).
    this.#calls.clear();
  }
}
