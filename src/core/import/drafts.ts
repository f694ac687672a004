// Event literals more than one importer starts from. Each is written out
// twice, with and without `span_id`, so the key order is the canonical one
// and no object is spread per event (a spread in a literal costs 4–8× a
// plain literal on the importers' hot paths).
import { EMPTY_ARRAY, EMPTY_OBJECT } from '../events/freeze.js';
import type {
  ApprovalEvent,
  Content,
  Event,
  JsonObject,
  JsonValue,
  MessageEvent,
  ToolCall,
  ToolEvent,
} from '../events/types.js';
import type { ImportContext } from './guards.js';
import { INVENTED_KEY, inventedOnly, inventedOnlyMetadata, type EventSink } from './sink.js';

/**
 * A tool call first seen by its id, before its name, arguments or result
 * (ACP's and defect's `tool_call` updates fill them in later): function
 * `'tool'`, shared frozen empty `arguments` and `events`, inside `span` when
 * given.
 *
 * @example
 * import { pendingToolDraft } from 'src/core/import/drafts.js';
 * const draft = pendingToolDraft('u1', '2026-01-01T00:00:00.000Z', undefined, 'call-1', {});
 * draft.function; // 'tool'
 */
export function pendingToolDraft(
  uuid: string,
  timestamp: string,
  span: string | undefined,
  id: string,
  metadata: JsonObject,
): ToolEvent {
  return span !== undefined
    ? {
        event: 'tool',
        uuid,
        timestamp,
        span_id: span,
        type: 'function',
        id,
        function: 'tool',
        arguments: EMPTY_OBJECT,
        result: '',
        events: EMPTY_ARRAY as [],
        metadata,
      }
    : {
        event: 'tool',
        uuid,
        timestamp,
        type: 'function',
        id,
        function: 'tool',
        arguments: EMPTY_OBJECT,
        result: '',
        events: EMPTY_ARRAY as [],
        metadata,
      };
}

/**
 * A message event with no metadata: `role`, `content`, `message_id` and
 * `source`, inside `span` when given.
 *
 * @example
 * import { messageDraft } from 'src/core/import/drafts.js';
 * const m = messageDraft('u1', '2026-01-01T00:00:00.000Z', 's1', 'user', 'hi', 'm1', 'input');
 * m.span_id; // 's1'
 */
export function messageDraft(
  uuid: string,
  timestamp: string,
  span: string | undefined,
  role: MessageEvent['role'],
  content: MessageEvent['content'],
  messageId: string,
  source: string,
): MessageEvent {
  return span !== undefined
    ? {
        event: 'message',
        uuid,
        timestamp,
        span_id: span,
        role,
        content,
        message_id: messageId,
        source,
      }
    : { event: 'message', uuid, timestamp, role, content, message_id: messageId, source };
}

/**
 * An approval asked for and not answered yet (`decision: 'escalate'`),
 * inside `span` when given; `metadata` last when given.
 *
 * @example
 * import { pendingApprovalDraft } from 'src/core/import/drafts.js';
 * const call = { id: 'c1', function: 'bash', arguments: {} };
 * const a = pendingApprovalDraft('u1', '2026-01-01T00:00:00.000Z', undefined, 'Run?', call, 'user');
 * a.decision; // 'escalate'
 */
export function pendingApprovalDraft(
  uuid: string,
  timestamp: string,
  span: string | undefined,
  message: string,
  call: ToolCall,
  approver: string,
  metadata?: JsonObject,
): ApprovalEvent {
  const draft: ApprovalEvent =
    span !== undefined
      ? {
          event: 'approval',
          uuid,
          timestamp,
          span_id: span,
          message,
          call,
          approver,
          decision: 'escalate',
        }
      : { event: 'approval', uuid, timestamp, message, call, approver, decision: 'escalate' };
  // Approvals are rare: a property added after the literal costs nothing here.
  if (metadata !== undefined) draft.metadata = metadata;
  return draft;
}

/**
 * Sets `metadata[key]` of a draft as `{ ...draft.metadata, [key]: value }`
 * would, without copying the metadata per call: in place when the draft owns
 * it (a draft's metadata is its own unless frozen — a shared frozen object
 * such as `inventedOnlyMetadata`, or the draft was sealed and must be revised
 * first), else into a copy. The keys come out in the same order either way.
 *
 * @example
 * import { setMetadata } from 'src/core/import/drafts.js';
 * const draft: Event = { event: 'info', uuid: 'u1', timestamp: '', data: null };
 * setMetadata(draft, 'source_decision', 'allow');
 * draft.metadata; // { source_decision: 'allow' }
 */
export function setMetadata(draft: Event, key: string, value: JsonValue): void {
  const metadata = draft.metadata;
  if (metadata !== undefined && metadata !== null && !Object.isFrozen(metadata)) {
    metadata[key] = value;
    return;
  }
  // The metadata of most drafts, written out: a spread copies key by key.
  const copy: JsonObject =
    metadata === inventedOnlyMetadata('timestamp')
      ? { skein_invented: inventedOnly('timestamp') }
      : { ...metadata };
  copy[key] = value;
  draft.metadata = copy;
}

/** What `sink.invent` makes of `inventedOnly('timestamp')` plus `'end'`. */
const TIMESTAMP_END = Object.freeze(['timestamp', 'end']) as string[];

/**
 * `sink.invent(draft, 'end', path)` (a made-up end time flagged and counted)
 * for a draft whose only flag so far is its invented time — a tool call or
 * model call of ACP or defect — without the copy of its metadata that
 * `invent` makes: the flag is written in place when the draft owns its
 * metadata (see {@link setMetadata}), or the shared `inventedOnlyMetadata` is
 * replaced by its two-flag counterpart. Any other draft goes to `invent`.
 *
 * @example
 * import { inventEnd } from 'src/core/import/drafts.js';
 * import { inventedOnlyMetadata } from 'src/core/import/sink.js';
 * declare const sink: EventSink;
 * declare const ctx: ImportContext;
 * const draft: Event = { event: 'info', uuid: 'u1', timestamp: '', data: null };
 * draft.metadata = inventedOnlyMetadata('timestamp');
 * inventEnd(sink, ctx, draft, '$[3]');
 * draft.metadata; // { skein_invented: ['timestamp', 'end'] }
 */
export function inventEnd(sink: EventSink, ctx: ImportContext, draft: Event, path: string): void {
  const metadata = draft.metadata;
  if (
    metadata !== undefined &&
    metadata !== null &&
    metadata[INVENTED_KEY] === inventedOnly('timestamp')
  ) {
    if (metadata === inventedOnlyMetadata('timestamp')) {
      draft.metadata = { skein_invented: TIMESTAMP_END };
      ctx.invent('end', path);
      return;
    }
    if (!Object.isFrozen(metadata)) {
      metadata[INVENTED_KEY] = TIMESTAMP_END;
      ctx.invent('end', path);
      return;
    }
  }
  sink.invent(draft, 'end', path);
}

/**
 * A message's content from its parts: the text alone (one flat string) when
 * every part is text, else the parts.
 *
 * @example
 * import { textOrParts } from 'src/core/import/drafts.js';
 * textOrParts([{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }]); // 'ab'
 */
export function textOrParts(parts: Content[]): string | Content[] {
  const n = parts.length;
  for (let i = 0; i < n; i++) if (parts[i]!.type !== 'text') return parts;
  if (n === 1) return (parts[0] as { text: string }).text;
  const texts = new Array<string>(n);
  for (let i = 0; i < n; i++) texts[i] = (parts[i] as { text: string }).text;
  return texts.join('');
}

/**
 * `sink.add`'s options for a draft that will still change (a tool call
 * awaiting its result, a response still receiving parts): one frozen object
 * for every such draft, not one made per event.
 *
 * @example
 * import { OPEN_DRAFT } from 'src/core/import/drafts.js';
 * declare const sink: EventSink;
 * declare const tool: ToolEvent;
 * sink.add(tool, OPEN_DRAFT);
 */
export const OPEN_DRAFT: { readonly open: true } = Object.freeze({ open: true });
