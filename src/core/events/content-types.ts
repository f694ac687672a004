// The content parts of messages and tool results (inspect_ai's `model/_chat_message.py` content types), and the JSON helpers every event type uses.

// ---------------------------------------------------------------------------
// JSON helpers
// ---------------------------------------------------------------------------

/**
 * Any JSON value. Numbers may be `NaN` or `±Infinity`: inspect writes those as
 * bare tokens in scores (inspect_ai's `log/_log.py`).
 *
 * @example
 * const data: JsonValue = { rows: [1, 2, 3], ok: true };
 */
export type JsonValue =
  string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * A JSON object with free-form keys (`metadata`, provider payloads, …).
 *
 * @example
 * const metadata: JsonObject = { attempt: 2 };
 */
export type JsonObject = { [key: string]: unknown };

// ---------------------------------------------------------------------------
// Envelope
// ---------------------------------------------------------------------------

/**
 * Fields every event carries (inspect_ai's `event/_base.py`).
 *
 * @example
 * const envelope: BaseEvent = {
 *   event: 'info', uuid: 'hVv1xX2Mn8sZ4iT7Qe3rKd', timestamp: '2026-06-10T18:23:50.198559+00:00',
 * };
 */
export interface BaseEvent {
  /** The discriminator. */
  event: string;
  /**
   * Identity (inspect writes a 22-char shortuuid). Old logs have none; the
   * parser then derives a deterministic one (see `deriveEventUuid`).
   */
  uuid: string;
  /**
   * Id of the enclosing span, assigned when the event object was created, not
   * when it was emitted (inspect_ai's `span()`). Absent → the root.
   */
  span_id?: string | null;
  /**
   * Start time, ISO 8601 as given (`Z` or `±hh:mm`, 0–9 fractional digits).
   * The derived epoch milliseconds are read with `eventTime(event)`.
   */
  timestamp: string;
  /**
   * Sample working time in seconds at the start of the event: monotonic minus
   * waiting time, **not** a wall clock — never sort on it.
   */
  working_start?: number;
  /** `true` while the event is in flight; re-emitted under the same `uuid` when final. */
  pending?: boolean | null;
  /** Free-form metadata. */
  metadata?: JsonObject | null;
}

// ---------------------------------------------------------------------------
// Content parts
// ---------------------------------------------------------------------------

/**
 * A citation attached to text (provider-specific shapes, kept as given).
 *
 * @example
 * const c: Citation = { type: 'url', url: 'https://example.com', cited_text: 'x' };
 */
export interface Citation {
  type?: string;
  cited_text?: string | [number, number] | null;
  title?: string | null;
  url?: string | null;
  internal?: JsonObject | null;
  [key: string]: unknown;
}

/** Fields every content part may carry. @example const b: ContentBase = { internal: null }; */
export interface ContentBase {
  /** Provider-specific payload (opaque; inspect_ai's `model/` and `tool/` types). */
  internal?: unknown;
}

/**
 * Text content.
 *
 * @example
 * const part: ContentText = { type: 'text', text: 'Hello' };
 */
export interface ContentText extends ContentBase {
  type: 'text';
  text: string;
  /** Whether the text is a refusal. */
  refusal?: boolean | null;
  citations?: Citation[] | null;
}

/**
 * Model reasoning ("thinking").
 *
 * @example
 * const part: ContentReasoning = { type: 'reasoning', reasoning: 'Let me think…', redacted: false };
 */
export interface ContentReasoning extends ContentBase {
  type: 'reasoning';
  reasoning: string;
  summary?: string | null;
  signature?: string | null;
  /** Default `false`. When true `reasoning` holds an encrypted blob. */
  redacted?: boolean;
}

/**
 * An image (URL or data URI).
 *
 * @example
 * const part: ContentImage = { type: 'image', image: 'data:image/png;base64,…', detail: 'auto' };
 */
export interface ContentImage extends ContentBase {
  type: 'image';
  image: string;
  /** Default `'auto'`. */
  detail?: 'auto' | 'low' | 'high' | 'original';
}

/**
 * Audio (URL or data URI).
 *
 * @example
 * const part: ContentAudio = { type: 'audio', audio: 'data:audio/wav;base64,…', format: 'wav' };
 */
export interface ContentAudio extends ContentBase {
  type: 'audio';
  audio: string;
  format: 'wav' | 'mp3';
}

/**
 * Video (URL or data URI).
 *
 * @example
 * const part: ContentVideo = { type: 'video', video: 'https://example.com/v.mp4', format: 'mp4' };
 */
export interface ContentVideo extends ContentBase {
  type: 'video';
  video: string;
  format: 'mp4' | 'mpeg' | 'mov';
}

/**
 * A document (URL, data URI or path).
 *
 * @example
 * const part: ContentDocument = { type: 'document', document: 'data:application/pdf;base64,…', filename: 'a.pdf', mime_type: 'application/pdf' };
 */
export interface ContentDocument extends ContentBase {
  type: 'document';
  document: string;
  filename: string;
  mime_type: string;
  /** Default `false`. */
  citations?: boolean;
}

/**
 * Opaque model-specific data.
 *
 * @example
 * const part: ContentData = { type: 'data', data: { kind: 'x' } };
 */
export interface ContentData extends ContentBase {
  type: 'data';
  data: JsonObject;
}

/**
 * Server-side tool use reported by the model provider (web search, MCP, code
 * execution).
 *
 * @example
 * const part: ContentToolUse = {
 *   type: 'tool_use', tool_type: 'web_search', id: 'ws_1', name: 'web_search',
 *   arguments: '{"q":"inspect"}', result: '…',
 * };
 */
export interface ContentToolUse extends ContentBase {
  type: 'tool_use';
  tool_type: 'web_search' | 'mcp_call' | 'code_execution' | (string & {});
  id: string;
  name: string;
  context?: string | null;
  /** Arguments as a JSON string. */
  arguments: string;
  result: string;
  error?: string | null;
}

/**
 * A content part of a message (discriminated by `type`).
 *
 * @example
 * const parts: Content[] = [{ type: 'text', text: 'See image' }, { type: 'image', image: 'https://x/y.png' }];
 */
export type Content =
  | ContentText
  | ContentReasoning
  | ContentImage
  | ContentAudio
  | ContentVideo
  | ContentDocument
  | ContentData
  | ContentToolUse;
