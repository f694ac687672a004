// A tracing processor for the OpenAI Agents SDK (`@openai/agents`): installed
// with the SDK's `addTraceProcessor`, it turns a run's traces and spans into
// canonical events as the SDK starts and ends them, through the same
// importer that reads exported traces. The SDK is not imported: a processor
// is an object of the SDK's `TracingProcessor` shape
// (https://openai.github.io/openai-agents-js/guides/tracing/#custom-tracing-processors),
// so skein's core stays free of it and users who never run it never load it.
//
// The SDK awaits a processor's hooks inside the agent loop: every hook
// returns at once (the work is a few object copies), appends nothing itself
// but schedules one flush (a burst of spans is one append per changed
// event), and never throws into the run — a failure becomes a diagnostic.
import { makeDiagnostic, type Diagnostic } from '../../errors.js';
import { cloneJson } from '../../events/freeze.js';
import type { EventStream } from '../../stream/event-stream.js';
import { OpenAiAgentsImporter, type OpenAiAgentsImportOptions } from './importer.js';
import type { OpenAiAgentsSpan, OpenAiAgentsSpanRecord, OpenAiAgentsTrace } from './types.js';

/**
 * Where a processor appends: one stream for every trace, or a stream per
 * trace (a run registry, a stream per request) chosen when the trace starts.
 *
 * @example
 * const runs = new Map<string, EventStream>();
 * const target: SkeinTracingTarget = (trace) => {
 *   const stream = new EventStream();
 *   runs.set(trace.traceId, stream);
 *   return stream;
 * };
 */
export type SkeinTracingTarget = EventStream | ((trace: OpenAiAgentsTrace) => EventStream);

/**
 * Options of {@link skeinTracingProcessor}.
 *
 * @example
 * const options: SkeinTracingProcessorOptions = {
 *   schedule: (flush) => requestAnimationFrame(flush), // one append per frame
 * };
 */
export interface SkeinTracingProcessorOptions extends Omit<OpenAiAgentsImportOptions, 'now'> {
  /**
   * When to append what changed. Default: in a microtask, so the spans the
   * SDK starts and ends in one step are one append per changed event.
   */
  schedule?: (flush: () => void) => void;
  /** The clock (epoch ms) for times the SDK does not give (a trace's start and end). Default `Date.now`. */
  now?: () => number;
  /**
   * Whether a trace's end closes its stream. Default: `true` for a stream
   * per trace (a function target), `false` for one shared stream.
   */
  closeOnTraceEnd?: boolean;
}

/**
 * The processor {@link skeinTracingProcessor} returns: the SDK's
 * `TracingProcessor` shape, plus what was repaired.
 *
 * @example
 * declare const processor: SkeinTracingProcessor;
 * const repaired = processor.diagnostics();
 */
export interface SkeinTracingProcessor {
  onTraceStart(trace: OpenAiAgentsTrace): Promise<void>;
  onTraceEnd(trace: OpenAiAgentsTrace): Promise<void>;
  onSpanStart(span: OpenAiAgentsSpan): Promise<void>;
  onSpanEnd(span: OpenAiAgentsSpan): Promise<void>;
  /** Closes whatever is still open (with a diagnostic) and appends it. */
  shutdown(timeout?: number): Promise<void>;
  /** Appends what changed now, instead of at the scheduled flush. */
  forceFlush(): Promise<void>;
  /** What was repaired or invented, and any hook that failed. */
  diagnostics(): Diagnostic[];
}

interface Run {
  readonly importer: OpenAiAgentsImporter;
  readonly stream: EventStream;
  dirty: boolean;
}

/**
 * A copy of what the SDK holds that the importer may keep and freeze: plain
 * JSON (the SDK's span data is JSON by contract; it is exported as such).
 * What `JSON.parse(JSON.stringify(value))` gives, built directly for the
 * usual plain data (a round trip through text was a quarter of the
 * processor's time); anything JSON treats specially takes the round trip.
 */
function jsonCopy<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  const copy = plainCopy(value, 0);
  if (copy !== NOT_PLAIN) return copy as T;
  try {
    return JSON.parse(JSON.stringify(value)) as T;
  } catch {
    // A cycle or a BigInt in user data: a structural copy (cycles stay shared).
    return cloneJson(value);
  }
}

/** What every hook returns: one settled promise (the SDK awaits it), not one per call. */
const DONE: Promise<void> = Promise.resolve();

const NOT_PLAIN: unique symbol = Symbol('not plain');

/** Deeper than this, {@link plainCopy} gives up (a cycle, or hostile nesting: the round trip decides). */
const PLAIN_DEPTH = 64;

/**
 * The JSON copy of `value` when it is plain data — strings, booleans, finite
 * numbers other than -0, null, arrays of those without holes, objects with
 * `Object.prototype` whose `undefined` members JSON drops — else
 * {@link NOT_PLAIN} (a `Date`, a `toJSON`, a function, `NaN`, a hole: JSON's
 * own rules apply).
 */
function plainCopy(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0) ? value : NOT_PLAIN;
    case 'object': {
      if (value === null) return null;
      if (depth > PLAIN_DEPTH) return NOT_PLAIN;
      if (Array.isArray(value)) {
        const out = new Array<unknown>(value.length);
        for (let i = 0; i < value.length; i++) {
          const v = plainCopy(value[i], depth + 1);
          if (v === NOT_PLAIN) return NOT_PLAIN;
          out[i] = v;
        }
        return out;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) return NOT_PLAIN;
      const out: Record<string, unknown> = {};
      const source = value as Record<string, unknown>;
      for (const key in source) {
        const member = source[key];
        if (member === undefined) continue;
        const v = plainCopy(member, depth + 1);
        if (v === NOT_PLAIN) return NOT_PLAIN;
        // An own "__proto__" member stays data, as `JSON.parse` makes it.
        if (key === '__proto__')
          Object.defineProperty(out, key, {
            value: v,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        else out[key] = v;
      }
      return out;
    }
    default:
      return NOT_PLAIN;
  }
}

function spanRecord(span: OpenAiAgentsSpan): OpenAiAgentsSpanRecord {
  return {
    object: 'trace.span',
    id: span.spanId,
    trace_id: span.traceId,
    parent_id: span.parentId,
    started_at: span.startedAt,
    ended_at: span.endedAt,
    span_data: jsonCopy(span.spanData),
    error: jsonCopy(span.error),
  };
}

/**
 * A tracing processor for the OpenAI Agents SDK that appends a run's events
 * to `target` live: the trace as a span, agents, tasks, turns, guardrails,
 * handoffs and custom spans as spans, each model call as a `model` event
 * (pending until it answers), each function tool as a `tool` event with the
 * model's call id. Install it with the SDK's `addTraceProcessor` (next to
 * the SDK's own exporter) or `setTraceProcessors` (instead of it).
 *
 * @example
 * // import { addTraceProcessor, Agent, run } from '@openai/agents';
 * const stream = new EventStream();
 * const processor = skeinTracingProcessor(stream);
 * // addTraceProcessor(processor);
 * // await run(agent, 'What is 2 + 2?');
 * // <Transcript stream={stream} /> shows the run as it happens.
 */
export function skeinTracingProcessor(
  target: SkeinTracingTarget,
  options: SkeinTracingProcessorOptions = {},
): SkeinTracingProcessor {
  const perTrace = typeof target === 'function';
  const closeOnTraceEnd = options.closeOnTraceEnd ?? perTrace;
  const schedule = options.schedule ?? queueMicrotask;
  const now = options.now ?? Date.now;
  const importOptions: OpenAiAgentsImportOptions = { ...options, now };
  const failures: Diagnostic[] = [];
  const runs = new Map<string, Run>();
  let shared: Run | undefined;
  let scheduled = false;
  let hooks = 0;

  const flushRun = (run: Run): void => {
    run.dirty = false;
    for (const event of run.importer.drain()) run.stream.append(event);
  };
  const flush = (): void => {
    scheduled = false;
    for (const run of new Set(runs.values())) if (run.dirty) flushRun(run);
  };
  const touched = (run: Run): void => {
    run.dirty = true;
    if (!scheduled) {
      scheduled = true;
      schedule(() => {
        if (scheduled) guard('flush', flush);
      });
    }
  };
  const runOf = (trace: OpenAiAgentsTrace): Run => runs.get(trace.traceId) ?? newRun(trace);
  /** The run of a span's trace (its trace unseen: named by its id). */
  const runOfSpan = (span: OpenAiAgentsSpan): Run =>
    runs.get(span.traceId) ?? newRun({ traceId: span.traceId, name: span.traceId });
  const newRun = (trace: OpenAiAgentsTrace): Run => {
    if (!perTrace)
      shared ??= {
        importer: new OpenAiAgentsImporter(importOptions),
        stream: target,
        dirty: false,
      };
    const run = perTrace
      ? { importer: new OpenAiAgentsImporter(importOptions), stream: target(trace), dirty: false }
      : shared!;
    runs.set(trace.traceId, run);
    return run;
  };
  function guard(hook: string, body: () => void): Promise<void> {
    try {
      body();
    } catch (error) {
      failures.push(
        makeDiagnostic(
          'warning',
          `$.${hook}[${hooks}]`,
          'openai_agents_processor_failed',
          hook,
          error instanceof Error ? error.message : String(error),
        ),
      );
    }
    hooks++;
    return DONE;
  }
  const path = (): string => `$[${hooks}]`;
  // A finished trace's importer is dropped (a long-lived server runs many);
  // its diagnostics stay, up to a bound.
  const keep = (run: Run): void => {
    for (const d of run.importer.diagnostics()) if (failures.length < 1000) failures.push(d);
  };

  return {
    onTraceStart: (trace) =>
      guard('onTraceStart', () => {
        const run = runOf(trace);
        run.importer.startTrace(
          {
            object: 'trace',
            id: trace.traceId,
            workflow_name: trace.name,
            group_id: trace.groupId ?? null,
            metadata: trace.metadata ? jsonCopy(trace.metadata) : null,
          },
          path(),
          new Date(now()).toISOString(),
        );
        touched(run);
      }),
    onTraceEnd: (trace) =>
      guard('onTraceEnd', () => {
        const run = runs.get(trace.traceId);
        if (run === undefined) return;
        run.importer.endTrace(trace.traceId, path());
        flushRun(run);
        runs.delete(trace.traceId);
        if (perTrace) keep(run);
        if (closeOnTraceEnd) run.stream.close();
      }),
    onSpanStart: (span) =>
      guard('onSpanStart', () => {
        const run = runOfSpan(span);
        run.importer.startSpan(spanRecord(span), path());
        touched(run);
      }),
    onSpanEnd: (span) =>
      guard('onSpanEnd', () => {
        const run = runOfSpan(span);
        run.importer.endSpan(spanRecord(span), path());
        touched(run);
      }),
    shutdown: () =>
      guard('shutdown', () => {
        scheduled = false;
        const all = new Set(runs.values());
        if (shared) all.add(shared);
        for (const run of all) {
          flushRun(run);
          for (const event of run.importer.end()) run.stream.append(event);
          if (closeOnTraceEnd) run.stream.close();
        }
        runs.clear();
      }),
    forceFlush: () =>
      guard('forceFlush', () => {
        flush();
      }),
    diagnostics: () => {
      const all = new Set(runs.values());
      if (shared) all.add(shared);
      return [...failures, ...[...all].flatMap((run) => run.importer.diagnostics())];
    },
  };
}
