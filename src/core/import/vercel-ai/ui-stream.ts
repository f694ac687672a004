// The AI SDK's UI message stream (https://ai-sdk.dev/docs/ai-sdk-ui/stream-protocol):
// the chunks `streamText(…).toUIMessageStream()` yields and `useChat` reads,
// one assistant message per `start` … `finish`. Each chunk updates that
// message's parts through the shared mapping (./response.ts); the n-th
// `text-start` of a message is its n-th text part, as `useChat` builds it.
import type { Event } from '../../events/types.js';
import { importerParts, type IncrementalImporter } from '../format.js';
import { isRecord, typeName, type ImportContext, type JsonRecord, stringOf } from '../guards.js';
import { SourceClock, type LiveImportOptions } from '../live.js';
import { Messages, type Response } from './response.js';

/**
 * Options of the UI message stream importer; `now` makes it live (arrival times).
 *
 * @example
 * import type { UIStreamImportOptions } from './ui-stream.js';
 * const options: UIStreamImportOptions = { now: Date.now };
 */
export type UIStreamImportOptions = LiveImportOptions;

/**
 * Chunk types whose `toolCallId` names the call.
 *
 * @example
 * import { TOOL_CHUNKS } from './ui-stream.js';
 * TOOL_CHUNKS.has('tool-input-start'); // true
 */
export const TOOL_CHUNKS: ReadonlySet<string> = new Set([
  'tool-input-start',
  'tool-input-delta',
  'tool-input-available',
  'tool-input-error',
  'tool-approval-request',
  'tool-approval-response',
  'tool-output-available',
  'tool-output-error',
  'tool-output-denied',
]);

/**
 * The incremental importer of UI message stream chunks, behind
 * `fromUIMessageStream` and the `vercel-ai` format's line and SSE reading.
 */
export class UIStreamImporter implements IncrementalImporter {
  readonly #ctx: ImportContext;
  readonly #m: Messages;
  /** The message chunks go to: the last one begun (it stays current after its `finish`). */
  #response: Response | undefined;
  /** Whether the current message had its `start` chunk. */
  #started = false;
  #responses = 0;
  /** Chunk ids of the open response's text and reasoning parts → their ordinals. */
  readonly #texts = new Map<string, number>();
  readonly #reasoning = new Map<string, number>();
  #files = 0;
  #sources = 0;
  #data = 0;
  #transient = 0;
  #errors = 0;
  #infos = 0;

  /** `owned`: chunks skein parsed from text (see `Messages.copy`). */
  constructor(options: UIStreamImportOptions, owned = false) {
    const { ctx, sink } = importerParts('vercel-ai', options);
    this.#ctx = ctx;
    this.#m = new Messages(ctx, sink, new SourceClock(options), owned);
  }

  push(record: unknown, path: string): void {
    if (!isRecord(record) || typeof record['type'] !== 'string') {
      this.#ctx.info(
        path,
        'vercel_ai_not_a_chunk',
        isRecord(record) ? '(no type)' : typeName(record),
      );
      this.#r(path).info(`chunk:${++this.#infos}`, { chunk: record as never }, path);
      return;
    }
    this.#chunk(record, record['type'], path);
  }

  drain(): Event[] {
    return this.#m.sink.drain();
  }

  end(): Event[] {
    const r = this.#response;
    if (r?.open === true) this.#ctx.info('$', 'vercel_ai_unclosed', `Message ${r.messageId}`);
    r?.close('$');
    return this.#m.sink.drain();
  }

  diagnostics() {
    return this.#ctx.finish();
  }

  /**
   * The current message, begun now for a chunk that comes before any
   * `start`. Chunks after its `finish` (data a server writes at the end)
   * still belong to it, as useChat adds them to it.
   */
  #r(path: string, messageId?: string): Response {
    const current = this.#response;
    if (current !== undefined) return current;
    this.#started = false;
    const n = ++this.#responses;
    this.#texts.clear();
    this.#reasoning.clear();
    this.#files = this.#sources = this.#data = this.#transient = this.#errors = 0;
    return (this.#response = this.#m.response(messageId ?? `response-${n}`, path));
  }

  #ordinal(
    map: Map<string, number>,
    id: string | undefined,
    path: string,
    what: string,
  ): number | undefined {
    if (id === undefined) {
      this.#ctx.warn(path, 'missing_field', 'id');
      return undefined;
    }
    let n = map.get(id);
    if (n === undefined) {
      if (!what.endsWith('start')) this.#ctx.info(path, 'vercel_ai_unopened', `Part ${id}`);
      map.set(id, (n = map.size));
    }
    return n;
  }

  #chunk(c: JsonRecord, type: string, path: string): void {
    if (TOOL_CHUNKS.has(type)) {
      this.#tool(c, type, path);
      return;
    }
    if (type.startsWith('data-')) {
      const id = stringOf(c['id']);
      const data = { type, ...(id !== undefined ? { id } : {}), data: c['data'] as never };
      // A transient part is never added to the message (useChat hands it to
      // `onData` only): it is shown, under a key of its own, so the message's
      // other data parts keep the ordinals they have in the stored message.
      if (c['transient'] === true) {
        (data as Record<string, unknown>)['transient'] = true;
        this.#r(path).info(`transient:${this.#transient++}`, data, path);
        return;
      }
      this.#r(path).info(
        id !== undefined ? `data:${type}:${id}` : `data:${this.#data++}`,
        data,
        path,
      );
      return;
    }
    switch (type) {
      case 'start': {
        const messageId = stringOf(c['messageId']);
        const open = this.#response;
        if (open !== undefined && open.open && !this.#started) {
          // Chunks written before the `start` (a data part, as
          // `createUIMessageStream` users often write first) are this
          // message's: useChat made the message at the first chunk.
          if (messageId !== undefined && messageId !== open.messageId)
            open.meta('message_id', messageId);
        } else if (
          open === undefined ||
          !open.open ||
          (messageId !== undefined && open.messageId !== messageId)
        ) {
          // A `start` of the open message continues it (a resumed stream);
          // any other begins the next message.
          open?.close(path);
          this.#response = undefined;
          this.#r(path, messageId);
        }
        this.#started = true;
        if (c['messageMetadata'] !== undefined)
          this.#r(path).meta('metadata', c['messageMetadata']);
        return;
      }
      case 'message-metadata':
        this.#r(path).meta('metadata', c['messageMetadata']);
        return;
      case 'start-step':
        this.#r(path).step(path);
        return;
      case 'finish-step':
        this.#r(path).endStep(path);
        return;
      case 'text-start':
      case 'reasoning-start': {
        const kind = type === 'text-start' ? 'text' : 'reasoning';
        const n = this.#ordinal(
          kind === 'text' ? this.#texts : this.#reasoning,
          stringOf(c['id']),
          path,
          type,
        );
        if (n !== undefined) this.#r(path)[kind](n, path);
        return;
      }
      case 'text-delta':
      case 'reasoning-delta': {
        const kind = type === 'text-delta' ? 'text' : 'reasoning';
        const n = this.#ordinal(
          kind === 'text' ? this.#texts : this.#reasoning,
          stringOf(c['id']),
          path,
          type,
        );
        const delta = c['delta'];
        if (n === undefined) return;
        if (typeof delta !== 'string') {
          this.#ctx.warn(`${path}.delta`, 'wrong_type', 'string', typeName(delta));
          return;
        }
        this.#r(path).append(kind, n, delta, path);
        return;
      }
      case 'text-end':
      case 'reasoning-end': {
        const kind = type === 'text-end' ? 'text' : 'reasoning';
        const n = this.#ordinal(
          kind === 'text' ? this.#texts : this.#reasoning,
          stringOf(c['id']),
          path,
          type,
        );
        if (n !== undefined) this.#r(path).end(kind, n, c['providerMetadata']);
        return;
      }
      case 'file':
        this.#r(path).file(this.#files++, c, path);
        return;
      case 'source-url':
      case 'source-document': {
        const { type: _t, ...fields } = c;
        this.#r(path).info(`source:${this.#sources++}`, { type, ...fields } as never, path);
        return;
      }
      case 'error':
        this.#r(path).failure(stringOf(c['errorText']) ?? '', this.#errors++, path);
        return;
      case 'finish': {
        const r = this.#r(path);
        if (c['finishReason'] !== undefined) r.meta('finish_reason', c['finishReason']);
        if (c['messageMetadata'] !== undefined) r.meta('metadata', c['messageMetadata']);
        r.close(path);
        return;
      }
      case 'abort': {
        const r = this.#r(path);
        const reason = stringOf(c['reason']);
        if (reason !== undefined) r.meta('abort_reason', reason);
        r.close(path, true, reason ?? 'aborted');
        return;
      }
      default:
        this.#ctx.info(path, 'vercel_ai_unknown_chunk', type);
        this.#r(path).info(`chunk:${++this.#infos}`, { chunk: c as never }, path);
    }
  }

  #tool(c: JsonRecord, type: string, path: string): void {
    const id = stringOf(c['toolCallId']);
    if (id === undefined) {
      this.#ctx.warn(path, 'missing_field', 'toolCallId');
      this.#r(path).info(`chunk:${++this.#infos}`, { chunk: c as never }, path);
      return;
    }
    const r = this.#r(path);
    const name = stringOf(c['toolName']);
    switch (type) {
      case 'tool-input-start':
        r.tool(id, name, path);
        return;
      case 'tool-input-delta': {
        const delta = c['inputTextDelta'];
        if (typeof delta === 'string') r.inputText(id, delta, path);
        return;
      }
      case 'tool-input-available':
        r.input(id, name, c['input'], path);
        return;
      case 'tool-input-error':
        r.input(id, name, c['input'], path);
        r.error(id, 'parsing', stringOf(c['errorText']) ?? '', path);
        return;
      case 'tool-approval-request':
        r.approval(id, stringOf(c['approvalId']) ?? id, undefined, undefined, path);
        return;
      case 'tool-approval-response':
        r.approval(
          id,
          stringOf(c['approvalId']) ?? id,
          c['approved'] === true,
          stringOf(c['reason']),
          path,
        );
        return;
      case 'tool-output-available':
        r.output(id, c['output'], c['preliminary'] === true, path);
        return;
      case 'tool-output-error':
        r.error(id, 'unknown', stringOf(c['errorText']) ?? '', path);
        return;
      case 'tool-output-denied':
        r.error(id, 'approval', 'The tool call was denied', path);
        return;
    }
  }
}
