// Event literals more than one importer starts from. Each is written out
// twice, with and without `span_id`, so the key order is the canonical one
// and no object is spread per event (a spread in a literal costs 4–8× a
// plain literal on the importers' hot paths).
import { EMPTY_ARRAY, EMPTY_OBJECT } from '../events/freeze.js';
import type {
  ApprovalEvent,
  JsonObject,
  MessageEvent,
  ToolCall,
  ToolEvent,
} from '../events/types.js';

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
