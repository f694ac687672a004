// Live adapters: a source the app already has (an AG-UI agent's events, a UI
// message stream's chunks, a tracing processor's spans) turned into canonical
// events as they arrive, through the same incremental importer that reads the
// source's recordings — so a run watched live and the same run opened from a
// file give the same events. One mechanism for every source: the importer
// keeps drafts in its `EventSink`, and the adapter appends what changed to an
// `EventStream` once per scheduled flush. A message streamed token by token
// is one event re-emitted under its uuid (`pending: true` until its end), and
// however many tokens arrive before a flush, the stream gets one version.
import { SkeinError, type Diagnostic } from '../errors.js';
import { EventStream } from '../stream/event-stream.js';
import { chunksOf, type ReadableStreamLike } from '../chunks.js';
import type { IncrementalImporter } from './format.js';
import type { ImportOptions } from './guards.js';
import { IsoFormatter, SyntheticClock } from './sink.js';
import { cloneJson } from '../events/freeze.js';

/**
 * Options of an importer that can follow a live source: `now` is the arrival
 * clock (epoch ms) for events the source sends without a time; without it,
 * undated events get synthetic times from `baseTime`.
 *
 * @example
 * import type { LiveImportOptions } from './live.js';
 * const options: LiveImportOptions = { now: Date.now };
 */
export interface LiveImportOptions extends ImportOptions {
  now?: () => number;
}

/**
 * Options every live adapter takes (plus the importer's own).
 *
 * @example
 * const options: LiveAdapterOptions = {
 *   schedule: (flush) => requestAnimationFrame(flush), // one append per frame
 * };
 */
export interface LiveAdapterOptions extends ImportOptions {
  /** The stream to append to; default a new one (`adapter.stream`). */
  stream?: EventStream;
  /**
   * When to append what changed since the last flush. Default: in a
   * microtask, so a burst pushed in one task is one append per changed event.
   * The React hooks pass `requestAnimationFrame`: one append per frame.
   */
  schedule?: (flush: () => void) => void;
  /**
   * The arrival clock (epoch ms) for events the source sends without a time.
   * Default `Date.now`. Events that carry their own time keep it.
   */
  now?: () => number;
  /** Whether `end()` also closes the stream (default `true`: the source has finished). */
  closeOnEnd?: boolean;
}

/**
 * A source's events turned into canonical events as they arrive.
 *
 * @example
 * const adapter = fromAgUi();
 * adapter.push({ type: 'RUN_STARTED', threadId: 't1', runId: 'r1' });
 * adapter.push({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'Hello' });
 * adapter.push({ type: 'RUN_FINISHED', threadId: 't1', runId: 'r1' });
 * adapter.end();
 * const text = adapter.stream.replay();
 */
export interface LiveAdapter<In> {
  /** The stream the canonical events are appended to. */
  readonly stream: EventStream;
  /** One source event; appended at the next flush. */
  push(event: In): void;
  /**
   * Pushes every item of an async iterable or a ReadableStream, then ends.
   * Resolves when the source is done; rejects with what it threw (what came
   * before stays in the stream).
   */
  consume(source: AsyncIterable<In> | ReadableStreamLike<In>): Promise<void>;
  /** Appends what changed now, instead of at the scheduled flush. */
  flush(): void;
  /**
   * The source has finished: whatever is still open (a message, a tool call,
   * a run) is closed, the final versions are appended, and the stream is
   * closed (unless `closeOnEnd: false`). Calling it again does nothing.
   */
  end(): void;
  /** What was repaired or invented so far. */
  diagnostics(): Diagnostic[];
}

/**
 * A live adapter over an incremental importer: the mechanism `fromAgUi` and
 * `fromUIMessageStream` share (and any further source adds itself with).
 * `copy` makes what the importer keeps its own (the caller's objects must
 * not end up frozen inside events).
 *
 * @example
 * import { agUiFormat } from './ag-ui/ag-ui.js';
 * const adapter = createLiveAdapter<unknown>('fromAgUi', agUiFormat.incremental!({}), {});
 * adapter.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r' });
 */
export function createLiveAdapter<In>(
  name: string,
  importer: IncrementalImporter,
  options: LiveAdapterOptions,
  copy: (event: In) => unknown = (event) => event,
): LiveAdapter<In> {
  const stream = options.stream ?? new EventStream();
  const schedule = options.schedule ?? queueMicrotask;
  const closeOnEnd = options.closeOnEnd ?? true;
  let pushed = 0;
  let scheduled = false;
  let ended = false;

  const flush = (): void => {
    scheduled = false;
    if (ended) return;
    for (const event of importer.drain()) stream.append(event);
  };
  const onScheduled = (): void => {
    if (scheduled) flush();
  };

  const adapter: LiveAdapter<In> = {
    stream,
    push(event: In): void {
      if (ended) throw new SkeinError('adapter_ended', name);
      importer.push(copy(event), `$[${pushed++}]`);
      if (!scheduled) {
        scheduled = true;
        schedule(onScheduled);
      }
    },
    async consume(source): Promise<void> {
      for await (const item of chunksOf(source)) adapter.push(item);
      adapter.end();
    },
    flush(): void {
      flush();
    },
    end(): void {
      if (ended) return;
      scheduled = false;
      for (const event of importer.drain()) stream.append(event);
      for (const event of importer.end()) stream.append(event);
      ended = true;
      if (closeOnEnd) stream.close();
    },
    diagnostics: () => importer.diagnostics(),
  };
  return adapter;
}

/**
 * A copy of a source event that the importer may keep and freeze: the
 * caller's object (an event an `@ag-ui/client` agent still holds, a chunk a
 * stream still holds) is never frozen. Most events of a live source are
 * deltas holding only strings and numbers: those are copied shallowly, the
 * rest deeply.
 *
 * @example
 * import { copySourceEvent } from 'src/core/import/live.js';
 * const copy = copySourceEvent({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'Hi' });
 */
export function copySourceEvent<T>(event: T): T {
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return cloneJson(event);
  // One spread (an own "__proto__" key stays data, and an assignment to it
  // below writes it), then the nested values copied deeply.
  const copy = { ...event } as Record<string, unknown>;
  for (const key in copy) {
    const value = copy[key];
    if (typeof value === 'object' && value !== null) copy[key] = cloneJson(value);
  }
  return copy as T;
}

/**
 * Times of a source whose events may carry their own (epoch ms) or none.
 * A source time is kept as given; an event without one gets, in an import,
 * a synthesized time 1 ms after the last (from `baseTime`, as the ACP
 * importer does) and, live, its arrival time (`now`) until the source has
 * given a time of its own, then 1 ms after that (an event the source left
 * undated sits with its dated neighbours, not at our clock's idea of now).
 *
 * @example
 * import { SourceClock } from 'src/core/import/live.js';
 * const clock = new SourceClock({ baseTime: '2026-01-01T00:00:00.000Z' });
 * clock.source(1767225600000); // '2026-01-01T00:00:00.000Z'
 * clock.invented(); // '2026-01-01T00:00:00.001Z'
 */
export class SourceClock {
  readonly #clock: SyntheticClock;
  readonly #now: (() => number) | undefined;
  #dated = false;

  constructor(options: { baseTime?: string; now?: () => number }) {
    this.#clock = new SyntheticClock(options.baseTime);
    this.#now = options.now;
  }

  /**
   * The ISO form of a source time in epoch ms, or `undefined` when `ms` is
   * not a finite time a `Date` can hold.
   */
  source(ms: unknown): string | undefined {
    if (typeof ms !== 'number' || !Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return undefined;
    this.#dated = true;
    this.#clock.observe('', ms);
    return this.#iso.format(ms);
  }

  readonly #iso = new IsoFormatter();

  /** A time for an event the source did not date (flag it as invented). */
  invented(): string {
    const now = this.#now;
    if (now !== undefined && !this.#dated) this.#clock.observe('', now() - 1);
    return this.#clock.next();
  }
}
