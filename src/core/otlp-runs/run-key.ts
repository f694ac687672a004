// Which run a span or log record belongs to (the run registry, registry.ts).
// The rule, written once here and in the README:
//
// 1. Every span of a trace is in the trace's run. The first time a trace is
//    seen, that run is the conversation named by `gen_ai.conversation.id`
//    (GenAI conventions) on one of the trace's spans in that request, or on
//    their resource; else the session named by `session.id` (OpenInference,
//    Claude Code) found the same way; else the trace alone.
// 2. A trace first seen without either that later names a conversation or a
//    session joins it then: its run so far is merged into that run.
// 3. A log record with a trace id goes with that trace (rules 1 and 2, its
//    own attributes counting like a span's). One without goes to the
//    conversation or session its attributes (or resource) name; else to a run
//    per service (`service.name`, `service.instance.id` of its resource).
//
// Attributes are read from the raw OTLP/JSON `[{key, value}]` lists, only
// for these keys: no list is decoded whole here.

/** A run's kind: what its key is. */
export type OtlpRunKind = 'trace' | 'conversation' | 'session' | 'service';

/** A run's identity: its kind and key, and the id made of both (`conversation:abc`). */
export interface OtlpRunKey {
  readonly kind: OtlpRunKind;
  readonly key: string;
  readonly id: string;
}

export const CONVERSATION_ID = 'gen_ai.conversation.id';
export const SESSION_ID = 'session.id';

/** The key of a run of `kind`. */
export function runKey(kind: OtlpRunKind, key: string): OtlpRunKey {
  return { kind, key, id: `${kind}:${key}` };
}

/** The string (or integer) value of attribute `key` in a raw `[{key, value}]` list. */
export function rawAttribute(list: unknown, key: string): string | undefined {
  if (!Array.isArray(list)) return undefined;
  for (let i = 0; i < list.length; i++) {
    const kv = list[i] as { key?: unknown; value?: unknown } | null;
    if (kv === null || typeof kv !== 'object' || kv.key !== key) continue;
    const v = kv.value as { stringValue?: unknown; intValue?: unknown } | null | undefined;
    if (v === null || typeof v !== 'object') return undefined;
    if (typeof v.stringValue === 'string' && v.stringValue !== '') return v.stringValue;
    if (typeof v.intValue === 'string' || typeof v.intValue === 'number') return String(v.intValue);
    return undefined;
  }
  return undefined;
}

/** The conversation or session a raw attribute list names, if any (conversation first). */
export function groupOf(attributes: unknown): OtlpRunKey | undefined {
  if (!Array.isArray(attributes)) return undefined;
  // One pass over the list (every span is asked): where each key first is.
  let conversationAt = -1;
  let sessionAt = -1;
  for (let i = 0; i < attributes.length; i++) {
    const kv = attributes[i] as { key?: unknown } | null;
    if (kv === null || typeof kv !== 'object') continue;
    if (kv.key === CONVERSATION_ID) {
      if (conversationAt < 0) conversationAt = i;
    } else if (kv.key === SESSION_ID && sessionAt < 0) sessionAt = i;
  }
  if (conversationAt < 0 && sessionAt < 0) return undefined;
  const conversation =
    conversationAt < 0 ? undefined : rawAttribute([attributes[conversationAt]], CONVERSATION_ID);
  if (conversation !== undefined) return runKey('conversation', conversation);
  const session = sessionAt < 0 ? undefined : rawAttribute([attributes[sessionAt]], SESSION_ID);
  if (session !== undefined) return runKey('session', session);
  return undefined;
}

/** The stronger of two groups: a conversation over a session. */
export function strongerGroup(
  a: OtlpRunKey | undefined,
  b: OtlpRunKey | undefined,
): OtlpRunKey | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return b.kind === 'conversation' && a.kind !== 'conversation' ? b : a;
}

/** A service's run key from a raw resource attribute list. */
export function serviceKey(resourceAttributes: unknown): OtlpRunKey {
  const name = rawAttribute(resourceAttributes, 'service.name') ?? 'unknown_service';
  const instance = rawAttribute(resourceAttributes, 'service.instance.id');
  return runKey('service', instance === undefined ? name : `${name}/${instance}`);
}

/** An OTLP id as the receiver keys it: lower-case text ('' when absent). */
export function idKey(v: unknown): string {
  return typeof v === 'string' ? v.toLowerCase() : '';
}
