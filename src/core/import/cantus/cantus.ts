// cantus event streams (https://github.com/schola-cantorum/cantus, PyPI
// `cantus-agent`). cantus has no canonical JSON form,
// so skein reads its `EventStream` written as JSON like this (README
// "cantus"):
//
//   {"events": [
//     {"CallSkillAction": {"thought": "…", "skill_name": "search", "args": {"q": "tides"}}},
//     {"SkillObservation": {"skill_name": "search", "result": "…"}},
//     {"FinalAnswerAction": {"thought": "…", "answer": "…"}}
//   ]}
//
// — each item keyed by its dataclass name (what the docs show), or tagged
// (`{"type": "CallSkillAction", …fields}`); the list bare, in `{"events": …}`,
// or one item per line (`JsonLinesPersistence`). Also read: the introspection
// API's `{"run_id", "steps": [{index, kind, type, summary}]}`, whose summaries
// stand in for the redacted values.
//
// Mapping (the one representation every importer maps to). Order is the only structure,
// so pairing is positional: an action, then its observation.
// - `CallSkillAction` + `SkillObservation` → one `tool` event (function = the
//   skill, arguments = `args`, result); + `ToolErrorObservation` → the same
//   with `error`. cantus has no call ids: the tool id is `cantus-call-<n>`,
//   flagged as invented. The action's `thought` is an `assistant` message with
//   a reasoning part, just before the tool event.
// - `FinalAnswerAction` → the run's answer: an `assistant` message (reasoning
//   = the thought, text = the answer, `metadata.final_answer: true`).
// - `ValidationErrorObservation` → an `info` event (`source: 'cantus'`) saying
//   which validator failed and why, and a retry marker on the next attempt:
//   `metadata.retry = {attempt, validator, feedback}` on the next action's
//   events.
// - `MaxIterationsObservation` → a `sample_limit` event (`type: 'turn'`,
//   `limit` = iterations); its `last_action_summary` and nested
//   `partial_state` (a deep copy of the stream so far, recursive) are kept in
//   its metadata, not imported again as events (they repeat what came before).
// - An observation with no action before it, an action never answered, and
//   items of unknown classes are kept (unknown → `info` with the raw item,
//   `unknown_event_kind`), each with a diagnostic.
// - No timestamps exist: every event gets a synthesised time, one millisecond
//   after the one before (from `options.baseTime`, default the epoch), never
//   going backwards, flagged in `metadata.skein_invented` with one
//   `value_invented` diagnostic per file.
import { jsonPath, type Diagnostic } from '../../errors.js';
import type {
  Event,
  InfoEvent,
  JsonObject,
  MessageEvent,
  SampleLimitEvent,
  ToolEvent,
} from '../../events/types.js';
import {
  importerParts,
  importLines,
  importRecords,
  sniffer,
  type FormatImporter,
  type ImportResult,
  type IncrementalImporter,
} from '../format.js';
import {
  isRecord,
  own,
  typeName,
  type ImportContext,
  type ImportOptions,
  type JsonRecord,
  safeJson,
} from '../guards.js';
import { Probe, type ImportInput } from '../probe.js';
import { OPEN_DRAFT } from '../drafts.js';
import { SyntheticClock, inventedOnly, inventedOnlyMetadata, type EventSink } from '../sink.js';

const CLASSES = new Set([
  'CallSkillAction',
  'FinalAnswerAction',
  'SkillObservation',
  'ToolErrorObservation',
  'ValidationErrorObservation',
  'MaxIterationsObservation',
]);

/** One item, whichever way it was written. */
interface Item {
  readonly type: string;
  readonly fields: JsonRecord;
  /** Where the fields are (`$.events[3].CallSkillAction` for a keyed item). */
  readonly path: string;
  /** The introspection summary, when the item is a step. */
  readonly summary?: string;
}

/** Reads an item: keyed by class name, tagged with `type`, or an introspection step. */
function readItem(record: unknown, path: string): Item | undefined {
  if (!isRecord(record)) return undefined;
  const type = own(record, 'type');
  if (typeof type === 'string') {
    const kind = own(record, 'kind');
    const summary = own(record, 'summary');
    if ((kind === 'action' || kind === 'observation') && typeof summary === 'string')
      return { type, fields: {}, path, summary };
    return { type, fields: record, path };
  }
  // The one own key, without an `Object.keys` array per item.
  let key: string | undefined;
  for (const k in record) {
    if (!Object.prototype.hasOwnProperty.call(record, k)) continue;
    if (key !== undefined) return undefined;
    key = k;
  }
  if (key === undefined) return undefined;
  const fields = record[key];
  if (!isRecord(fields) || !(CLASSES.has(key) || /^[A-Z]\w*(Action|Observation)$/.test(key)))
    return undefined;
  // A class name is an identifier: `jsonPath(path, key)` without its test.
  return { type: key, fields, path: `${path}.${key}` };
}

function isCantusItem(record: unknown): boolean {
  const item = readItem(record, '$');
  return item !== undefined && CLASSES.has(item.type);
}

/** The items of a parsed document and their base path. */
function documentItems(doc: unknown): { list: unknown[]; base: string } | undefined {
  if (Array.isArray(doc)) return { list: doc, base: '$' };
  if (!isRecord(doc)) return undefined;
  const events = own(doc, 'events');
  if (Array.isArray(events)) return { list: events, base: '$.events' };
  const steps = own(doc, 'steps');
  if (Array.isArray(steps)) return { list: steps, base: '$.steps' };
  return undefined;
}

function detect(probe: Probe): boolean {
  const found = documentItems(probe.json());
  const head = found ? found.list.slice(0, 4) : probe.records(4);
  return head.length > 0 && head.every(isCantusItem);
}

function resultOf(value: unknown): string | number | boolean {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return value;
  if (value === undefined || value === null) return '';
  return safeJson(value, 2) ?? '';
}

interface Retry {
  attempt: number;
  validator: string;
  feedback: string;
}

class CantusImporter implements IncrementalImporter {
  readonly #ctx: ImportContext;
  readonly #sink: EventSink;
  readonly #clock: SyntheticClock;
  /**
   * The skill call awaiting its observation, not in the sink yet: its
   * record's path (`undefined`: none) and what its tool event is made of. The
   * event is built once its observation is read, at its final shape in one
   * literal (`completed` in the object, not a property added to it later, in
   * a grown out-of-object store), unless something must come out first: any
   * other event, or a streaming drain (then it goes in open, as `#pending`).
   */
  #callPath: string | undefined;
  #callId = '';
  #callTime = '';
  #callSkill = '';
  #callArgs: ToolEvent['arguments'] = NO_ARGS;
  #callMeta: JsonObject = TIME_AND_ID_ONLY;
  /** The skill call in the sink, open, awaiting its observation, and its record's path. */
  #pending: ToolEvent | undefined;
  #pendingPath = '';
  /** The validation failure the next attempt retries. */
  #retry: Retry | undefined;
  #calls = 0;

  constructor(options: ImportOptions) {
    const parts = importerParts('cantus', options);
    this.#ctx = parts.ctx;
    this.#sink = parts.sink;
    this.#clock = new SyntheticClock(options.baseTime);
  }

  push(record: unknown, path: string): void {
    const item = readItem(record, path);
    if (!item) {
      this.#ctx.warn(path, 'wrong_type', 'a cantus event', typeName(record));
      this.#info(path, record, { cantus_type: null });
      return;
    }
    const f = item.fields;
    const p = item.path;
    switch (item.type) {
      case 'CallSkillAction': {
        this.#settle();
        const skill =
          this.#ctx.string(f, 'skill_name', p) ?? skillFromSummary(item.summary) ?? 'skill';
        const args = own(f, 'args');
        const retry = this.#takeRetry();
        this.#thought(f, p, path, retry);
        this.#callPath = path;
        this.#callId = `cantus-call-${++this.#calls}`;
        this.#callSkill = skill;
        this.#callArgs = isRecord(args) ? args : args === undefined ? {} : { value: args as never };
        // Its time and its id invented, flagged in one go (what `#add` and
        // `sink.invent(tool, 'id', path)` did, without the copies between).
        this.#callMeta = withInvented(this.#meta(item, retry), TIME_AND_ID, TIME_AND_ID_ONLY);
        this.#callTime = this.#clock.next();
        this.#ctx.invent('timestamp', path);
        this.#ctx.invent('id', path);
        return;
      }
      case 'FinalAnswerAction': {
        this.#settle();
        const retry = this.#takeRetry();
        const thought = this.#ctx.string(f, 'thought', p);
        const answer = this.#ctx.string(f, 'answer', p) ?? item.summary ?? '';
        const content: MessageEvent['content'] = [];
        if (thought) content.push({ type: 'reasoning', reasoning: thought });
        content.push({ type: 'text', text: answer });
        const meta = this.#meta(item, retry);
        this.#add<MessageEvent>(
          {
            event: 'message',
            uuid: this.#sink.uuid(path),
            timestamp: '',
            role: 'assistant',
            content,
            message_id: `cantus-answer-${path}`,
            source: 'cantus',
            metadata: { ...meta, final_answer: true },
          },
          path,
        );
        return;
      }
      case 'SkillObservation':
      case 'ToolErrorObservation': {
        if (this.#callPath !== undefined) {
          const observed = this.#ctx.string(f, 'skill_name', p);
          const skill = this.#callSkill;
          const meta =
            observed !== undefined && observed !== skill
              ? { ...this.#callMeta, observation_skill_name: observed }
              : this.#callMeta;
          if (item.type === 'SkillObservation') {
            const result = resultOf(own(f, 'result') ?? item.summary);
            this.#endCall(result, meta, undefined);
          } else {
            const message = this.#ctx.string(f, 'message', p) ?? item.summary ?? '';
            this.#endCall('', meta, { type: 'unknown', message });
          }
          return;
        }
        const tool = this.#pending;
        if (!tool) {
          this.#ctx.warn(path, 'cantus_unpaired_observation', item.type);
          this.#info(path, record, { cantus_type: item.type });
          return;
        }
        this.#pending = undefined;
        if (item.type === 'SkillObservation') {
          tool.result = resultOf(own(f, 'result') ?? item.summary);
        } else {
          const message = this.#ctx.string(f, 'message', p) ?? item.summary ?? '';
          tool.error = { type: 'unknown', message };
        }
        const observed = this.#ctx.string(f, 'skill_name', p);
        if (observed !== undefined && observed !== tool.function)
          tool.metadata = { ...tool.metadata, observation_skill_name: observed };
        tool.completed = this.#clock.next();
        this.#sink.close(tool);
        return;
      }
      case 'ValidationErrorObservation': {
        const validator = this.#ctx.string(f, 'validator_name', p) ?? 'validator';
        const feedback = this.#ctx.string(f, 'feedback', p) ?? item.summary ?? '';
        const pending = this.#pending;
        if (this.#callPath !== undefined)
          this.#endCall('', this.#callMeta, { type: 'parsing', message: feedback });
        else if (pending) {
          // A skill call whose output failed validation: it failed as a call.
          this.#pending = undefined;
          pending.error = { type: 'parsing', message: feedback };
          pending.completed = this.#clock.next();
          this.#sink.close(pending);
        }
        this.#info(path, `Validation failed (${validator}): ${feedback}`, {
          cantus_type: item.type,
          validator_name: validator,
          feedback,
        });
        this.#retry = { attempt: (this.#retry?.attempt ?? 1) + 1, validator, feedback };
        return;
      }
      case 'MaxIterationsObservation': {
        this.#settle();
        const iterations = this.#ctx.number(f, 'iterations', p);
        const last = this.#ctx.string(f, 'last_action_summary', p);
        const metadata: JsonObject = { cantus_type: item.type };
        if (last !== undefined) metadata['last_action_summary'] = last;
        const partial = own(f, 'partial_state');
        if (partial !== undefined) {
          metadata['partial_state'] = partial;
          const inner = documentItems(partial);
          if (partial !== null && !inner)
            this.#ctx.warn(
              jsonPath(p, 'partial_state'),
              'wrong_type',
              'an event stream',
              typeName(partial),
            );
        }
        if (item.summary !== undefined) metadata['summary'] = item.summary;
        const limit: SampleLimitEvent = {
          event: 'sample_limit',
          uuid: this.#sink.uuid(path),
          timestamp: '',
          type: 'turn',
          message:
            iterations !== undefined
              ? `Stopped after ${iterations} iterations${last ? `; last action: ${last}` : ''}`
              : (item.summary ?? 'Stopped at the iteration limit'),
          metadata,
        };
        if (iterations !== undefined) limit.limit = iterations;
        this.#add(limit, path);
        return;
      }
      default:
        this.#ctx.info(path, 'unknown_event_kind', item.type);
        this.#info(path, record, { cantus_type: item.type });
    }
  }

  drain(): Event[] {
    this.#openCall();
    return this.#sink.drain();
  }

  end(): Event[] {
    this.#settle();
    return this.#sink.drain();
  }

  diagnostics(): Diagnostic[] {
    return this.#ctx.finish();
  }

  /** Closes a skill call that got no observation (the next action came first). */
  #settle(): void {
    const path = this.#callPath;
    if (path !== undefined) {
      this.#callPath = undefined;
      this.#ctx.warn(path, 'cantus_unanswered_action', this.#callSkill);
      this.#sink.add(this.#unanswered(path));
      return;
    }
    const pending = this.#pending;
    if (!pending) return;
    this.#pending = undefined;
    this.#ctx.warn(this.#pendingPath, 'cantus_unanswered_action', pending.function);
    this.#sink.close(pending);
  }

  /**
   * The awaited call as its final tool event, answered at the next time
   * (with `error` when it failed; `completed` last, where it always was).
   */
  #endCall(
    result: ToolEvent['result'],
    metadata: JsonObject,
    error: ToolEvent['error'] | undefined,
  ): void {
    const path = this.#callPath!;
    this.#callPath = undefined;
    const uuid = this.#sink.uuid(path);
    const completed = this.#clock.next();
    this.#sink.add<ToolEvent>(
      error
        ? {
            event: 'tool',
            uuid,
            timestamp: this.#callTime,
            type: 'function',
            id: this.#callId,
            function: this.#callSkill,
            arguments: this.#callArgs,
            result,
            events: NO_EVENTS,
            metadata,
            error,
            completed,
          }
        : {
            event: 'tool',
            uuid,
            timestamp: this.#callTime,
            type: 'function',
            id: this.#callId,
            function: this.#callSkill,
            arguments: this.#callArgs,
            result,
            events: NO_EVENTS,
            metadata,
            completed,
          },
    );
  }

  /** The awaited call into the sink as an open draft (`#pending`), before anything after it. */
  #openCall(): void {
    const path = this.#callPath;
    if (path === undefined) return;
    this.#callPath = undefined;
    const tool = this.#unanswered(path);
    this.#sink.add(tool, OPEN_DRAFT);
    this.#pending = tool;
    this.#pendingPath = path;
  }

  /** The awaited call (read from `path`) as a tool event with no result yet. */
  #unanswered(path: string): ToolEvent {
    return {
      event: 'tool',
      uuid: this.#sink.uuid(path),
      timestamp: this.#callTime,
      type: 'function',
      id: this.#callId,
      function: this.#callSkill,
      arguments: this.#callArgs,
      result: '',
      events: NO_EVENTS,
      metadata: this.#callMeta,
    };
  }

  #takeRetry(): Retry | undefined {
    const retry = this.#retry;
    this.#retry = undefined;
    return retry;
  }

  #meta(item: Item, retry: Retry | undefined): JsonObject | undefined {
    if (!retry && item.summary === undefined) return undefined;
    const metadata: JsonObject = {};
    if (retry) metadata['retry'] = { ...retry };
    if (item.summary !== undefined) metadata['summary'] = item.summary;
    return metadata;
  }

  #thought(f: JsonRecord, p: string, path: string, retry: Retry | undefined): void {
    const thought = this.#ctx.string(f, 'thought', p);
    if (!thought) return;
    const draft: MessageEvent = {
      event: 'message',
      uuid: this.#sink.uuid(`${path}#thought`),
      timestamp: '',
      role: 'assistant',
      content: [{ type: 'reasoning', reasoning: thought }],
      message_id: `cantus-thought-${path}`,
      source: 'cantus',
      // In the literal (last, where the assignment put it): a property added
      // later goes to a separate store, grown again by the sink's own fields.
      metadata: withInvented(
        retry ? { retry: { ...retry } } : undefined,
        inventedOnly('timestamp'),
        inventedOnlyMetadata('timestamp'),
      ),
    };
    this.#add(draft, path, true);
  }

  #info(path: string, data: unknown, metadata: JsonObject): void {
    this.#add<InfoEvent>(
      {
        event: 'info',
        uuid: this.#sink.uuid(path),
        timestamp: '',
        source: 'cantus',
        data: data as never,
        metadata,
      },
      path,
    );
  }

  /**
   * Adds an event at the next synthesised time, flagged as invented (what
   * `sink.invent` does, without its copies: every cantus event has one).
   */
  #add<E extends Event>(draft: E, path: string, flagged = false): E {
    this.#openCall();
    draft.timestamp = this.#clock.next();
    if (!flagged) draft.metadata = withInvented(draft.metadata, inventedOnly('timestamp'));
    this.#ctx.invent('timestamp', path);
    this.#sink.add(draft);
    return draft;
  }
}

/** A skill call's `arguments` before any (never read: a placeholder for the field's type). */
const NO_ARGS = Object.freeze({}) as ToolEvent['arguments'];
/** A tool event's empty `events`: one frozen array for all (events are deep-frozen anyway). */
const NO_EVENTS = Object.freeze([]) as unknown as ToolEvent['events'];
/** `skein_invented` of a skill call: its time and its id (one frozen list for all). */
const TIME_AND_ID = Object.freeze(['timestamp', 'id']) as string[];

/** `{ skein_invented: TIME_AND_ID }`: the whole metadata of most skill calls, one frozen object. */
const TIME_AND_ID_ONLY = Object.freeze({ skein_invented: TIME_AND_ID }) as JsonObject;

/**
 * `metadata` with `skein_invented: flags` last (a new object; `metadata` may
 * be shared). Without metadata, `only` when given: the frozen
 * `{ skein_invented: flags }` shared by every event with no metadata of its
 * own (most thoughts and calls), not an object made, kept and frozen for each
 * (their metadata is replaced afterwards, never changed in place).
 */
function withInvented(
  metadata: JsonObject | null | undefined,
  flags: string[],
  only?: JsonObject,
): JsonObject {
  // `skein_invented` (INVENTED_KEY) written out: a literal with a computed
  // key is built property by property, a plain one cloned.
  return metadata ? { ...metadata, skein_invented: flags } : (only ?? { skein_invented: flags });
}

/** `CallSkillAction(skill_name='search', …)` → `search` (introspection summaries). */
function skillFromSummary(summary: string | undefined): string | undefined {
  if (summary === undefined) return undefined;
  const m = /skill_name\s*[=:]\s*['"]?([\w.-]+)/.exec(summary) ?? /^([\w.-]+)\s*\(/.exec(summary);
  return m?.[1];
}

/**
 * cantus event streams: `{"events": [...]}`, a bare array or JSON Lines of
 * items keyed by class name or tagged with `type`, and the introspection
 * `steps` shape.
 *
 * @example
 * import { Probe } from '../probe.js';
 * import { cantusFormat } from './cantus.js';
 * cantusFormat.detect(new Probe('[{"FinalAnswerAction":{"thought":"","answer":"42"}}]')); // true
 */
export const cantusFormat: FormatImporter & {
  incremental(options: ImportOptions): IncrementalImporter;
} = {
  id: 'cantus',
  name: 'cantus event stream',
  extensions: ['.json', '.jsonl'],
  detect,
  import(probe, options): ImportResult {
    const found = documentItems(probe.json());
    if (found && found.base !== '$')
      return importRecords(cantusFormat, found.list, found.base, options);
    return importLines(cantusFormat, probe, options);
  },
  incremental: (options) => new CantusImporter(options),
};

/**
 * A cheap check whether an input is a cantus event stream.
 *
 * @example
 * isCantus('{"events":[{"CallSkillAction":{"thought":"t","skill_name":"search","args":{}}}]}'); // true
 */
export const isCantus: (input: ImportInput, filename?: string) => boolean = sniffer(cantusFormat);

/**
 * Imports a cantus event stream (see the module comment for the JSON form and
 * the mapping): skill calls paired with their observations as tool events,
 * the final answer as an assistant message, the iteration limit as a
 * `sample_limit` event; times synthesised in order and flagged.
 *
 * @example
 * const { events, diagnostics } = importCantus(json, { baseTime: '2026-01-01T00:00:00Z' });
 */
export function importCantus(input: ImportInput, options: ImportOptions = {}): ImportResult {
  return cantusFormat.import(new Probe(input, options.filename), options) as ImportResult;
}
