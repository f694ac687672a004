// The AI SDK's UI messages (`UIMessage[]`: https://ai-sdk.dev/docs/reference/ai-sdk-core/ui-message),
// as `useChat` keeps them and apps persist them: each message's parts
// through the shared mapping (./response.ts). The same importer follows a
// live `messages` array: `update(messages)` looks only at messages that are
// new or changed (useChat replaces the message being streamed and keeps the
// others as they were, so unchanged ones are skipped by reference), and in a
// changed message only parts that changed touch their events. A new token is
// one changed text, never a rebuilt run.
import type { Content, Event } from '../../events/types.js';
import { importerParts, type IncrementalImporter } from '../format.js';
import { isRecord, typeName, type ImportContext, type JsonRecord, stringOf } from '../guards.js';
import { SourceClock, type LiveImportOptions } from '../live.js';
import { StringMap } from '../string-map.js';
import { Messages, type Response } from './response.js';

/**
 * Options of the UI messages importer; `now` makes it live (arrival times).
 *
 * @example
 * import type { UIMessagesImportOptions } from './ui-messages.js';
 * const options: UIMessagesImportOptions = { now: Date.now };
 */
export type UIMessagesImportOptions = LiveImportOptions;

/** Tool part states in which the call still waits for something. */
const TOOL_OPEN = new Set([
  'input-streaming',
  'input-available',
  'approval-requested',
  'approval-responded',
]);

/**
 * The incremental importer of UI messages: `push` one message (a record of a
 * stored array), or `update` with the whole live array.
 */
export class UIMessagesImporter implements IncrementalImporter {
  readonly #ctx: ImportContext;
  readonly #m: Messages;
  /** The last version of each message seen, by id (skipped when given again). */
  readonly #seen = new Map<string, unknown>();
  readonly #responses = new StringMap<Response>();
  #infos = 0;

  /**
   * `owned`: the messages were parsed by skein from text, so events may
   * hold (and freeze) their values instead of copies (`Messages.copy`).
   */
  constructor(options: UIMessagesImportOptions, owned = false) {
    const { ctx, sink } = importerParts('vercel-ai', options);
    this.#ctx = ctx;
    this.#m = new Messages(ctx, sink, new SourceClock(options), owned);
  }

  push(record: unknown, path: string): void {
    this.#message(record, path, false);
  }

  /**
   * The live array: every message that is new or changed since the last
   * call. Assistant messages before the last are complete; the last one is
   * complete when `streaming` is false (`useChat`'s status is `ready` or
   * `error`).
   */
  update(messages: readonly unknown[], streaming: boolean): void {
    const last = messages.length - 1;
    for (let i = 0; i <= last; i++) {
      const m = messages[i];
      const open = i === last && streaming;
      const id = isRecord(m) ? stringOf(m['id']) : undefined;
      if (id !== undefined && this.#seen.get(id) === m) {
        const r = this.#responses.get(id);
        if (!open && r?.open === true) r.close(`$[${i}]`);
        continue;
      }
      // Only a live array is seen again: a stored one (`push`) keeps no map of it.
      if (id !== undefined && Array.isArray((m as JsonRecord)['parts'])) this.#seen.set(id, m);
      this.#message(m, `$[${i}]`, open);
    }
  }

  drain(): Event[] {
    return this.#m.sink.drain();
  }

  end(): Event[] {
    for (const r of this.#responses.values()) if (r.open) r.close('$');
    return this.#m.sink.drain();
  }

  diagnostics() {
    return this.#ctx.finish();
  }

  #message(m: unknown, path: string, open: boolean): void {
    if (!isRecord(m) || typeof m['id'] !== 'string' || !Array.isArray(m['parts'])) {
      this.#ctx.info(
        path,
        'vercel_ai_not_a_message',
        isRecord(m) ? '(no id or parts)' : typeName(m),
      );
      this.#notMessage(m, path);
      return;
    }
    const id = m['id'];
    const parts = m['parts'] as unknown[];
    const role = m['role'];
    if (role === 'user' || role === 'system') {
      this.#m.user(id, role, userContent(parts, this.#m.copy), path);
      return;
    }
    let r = this.#responses.get(id);
    if (r === undefined) this.#responses.set(id, (r = this.#m.response(id, path)));
    if (role !== 'assistant') r.meta('role', role ?? null);
    if (m['metadata'] !== undefined) r.meta('metadata', m['metadata']);
    this.#parts(r, parts, path);
    if (!open) r.close(path);
  }

  /** A record that is no UI message: an info event at the root. */
  #notMessage(m: unknown, path: string): void {
    this.#m.add(
      {
        event: 'info',
        uuid: this.#m.sink.uuid(`info:${++this.#infos}`),
        timestamp: this.#m.clock.invented(),
        source: 'vercel-ai',
        data: this.#m.copy(m) as never,
      },
      path,
    );
  }

  #parts(r: Response, parts: unknown[], base: string): void {
    let text = 0;
    let reasoning = 0;
    let file = 0;
    let source = 0;
    let data = 0;
    let steps = 0;
    for (let k = 0; k < parts.length; k++) {
      const part = parts[k];
      const path = `${base}.parts[${k}]`;
      const type = isRecord(part) ? part['type'] : undefined;
      if (!isRecord(part) || typeof type !== 'string') {
        r.info(`part:${k}`, { part: part as never }, path);
        continue;
      }
      switch (type) {
        case 'step-start':
          if (++steps > r.steps) r.step(path);
          break;
        case 'text':
        case 'reasoning':
          r.set(
            type,
            type === 'text' ? text++ : reasoning++,
            stringOf(part['text']) ?? '',
            part['state'] !== 'streaming',
            part['providerMetadata'],
            path,
          );
          break;
        case 'file':
          r.file(file++, part, path);
          break;
        case 'source-url':
        case 'source-document':
          r.info(`source:${source++}`, part as never, path);
          break;
        default:
          if (type === 'dynamic-tool' || type.startsWith('tool-')) this.#tool(r, part, type, path);
          else if (type.startsWith('data-')) {
            const id = stringOf(part['id']);
            const key = id !== undefined ? `data:${type}:${id}` : `data:${data++}`;
            r.info(
              key,
              { type, ...(id !== undefined ? { id } : {}), data: part['data'] as never },
              path,
            );
          } else r.info(`part:${k}`, { part: part as never }, path);
      }
    }
  }

  #tool(r: Response, part: JsonRecord, type: string, path: string): void {
    const id = stringOf(part['toolCallId']);
    if (id === undefined) {
      this.#ctx.warn(path, 'missing_field', 'toolCallId');
      r.info(`part:${path}`, { part: part as never }, path);
      return;
    }
    const name = type === 'dynamic-tool' ? stringOf(part['toolName']) : type.slice('tool-'.length);
    r.tool(id, name, path);
    const state = stringOf(part['state']) ?? '';
    const input =
      part['input'] !== undefined
        ? part['input']
        : state === 'output-error'
          ? part['rawInput']
          : undefined;
    if (input !== undefined) r.input(id, name, input, path);
    const approval = isRecord(part['approval']) ? part['approval'] : undefined;
    if (approval !== undefined) {
      const approved = typeof approval['approved'] === 'boolean' ? approval['approved'] : undefined;
      r.approval(id, stringOf(approval['id']) ?? id, approved, stringOf(approval['reason']), path);
    }
    switch (state) {
      case 'output-available':
        r.output(id, part['output'], part['preliminary'] === true, path);
        break;
      case 'output-error':
        r.error(
          id,
          part['input'] === undefined ? 'parsing' : 'unknown',
          stringOf(part['errorText']) ?? '',
          path,
        );
        break;
      case 'output-denied':
        r.error(id, 'approval', 'The tool call was denied', path);
        break;
      default:
        if (!TOOL_OPEN.has(state))
          this.#ctx.info(path, 'vercel_ai_unknown_chunk', `tool state ${state}`);
    }
  }
}

/**
 * A user or system message's content: its text, or its text and file parts
 * (other parts kept whole, as `copy` gives them).
 */
function userContent(parts: unknown[], copy: <T>(value: T) => T): string | Content[] {
  // The usual message, one text part: its text, as the loop below gives it.
  const only = parts.length === 1 ? parts[0] : undefined;
  if (isRecord(only) && only['type'] === 'text' && typeof only['text'] === 'string')
    return only['text'];
  const out: Content[] = [];
  let onlyText = true;
  for (const p of parts) {
    if (!isRecord(p)) continue;
    if (p['type'] === 'text' && typeof p['text'] === 'string')
      out.push({ type: 'text', text: p['text'] });
    else if (p['type'] === 'file') {
      onlyText = false;
      const url = stringOf(p['url']) ?? '';
      const mime = stringOf(p['mediaType']) ?? '';
      out.push(
        mime.startsWith('image/')
          ? { type: 'image', image: url }
          : {
              type: 'document',
              document: url,
              filename: stringOf(p['filename']) ?? '',
              mime_type: mime,
            },
      );
    } else {
      onlyText = false;
      out.push({ type: 'data', data: copy(p) as never });
    }
  }
  return onlyText ? out.map((c) => (c as { text: string }).text).join('') : out;
}
