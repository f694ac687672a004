// Past 600 lines: every way a log is opened (line formats, whole documents,
// the streamed inspect sample) posts through the same session, batcher and facts.
//
// The loader: reads a log, detects its format, imports it and posts canonical
// events in batches. It runs in a Web Worker (worker.ts) so the page never
// blocks on parsing; where no Worker starts (an exported page opened from
// `file://`, jsdom tests) the page runs the same code itself (client.ts,
// `onPage`), handing events over as objects and yielding between slices.
//
// Two ways through ("streaming open"):
// - line formats (JSON Lines whose format has an incremental importer) go
//   through `streamImport` while the file is still being read: the first rows
//   arrive after the first chunk;
// - whole documents (an inspect `.eval` zip or `.json`, an OTLP export, a
//   notebook, a JSON array) are read to the end, parsed here, and their events
//   posted in batches; but a one-sample inspect `.json` and the sample opened
//   from an `.eval` (its member inflated piece by piece) have their events
//   read a few hundred at a time (core's `streamInspectSample` and
//   `streamEvalSample`, posted by `streamInspect`).
import {
  detectFormat,
  eventEndTime,
  eventTime,
  eventTotalTokens,
  formatScore,
  formats,
  generateRun,
  growingSource,
  importAny,
  importInspectLog,
  isInspectLog,
  isFailedEvent,
  streamEvalSample,
  streamImport,
  streamInspectSample,
  summarizeInspectSample,
  timelineWireOf,
  type Diagnostic,
  type Event,
  type FormatId,
  type GrowingSource,
  type InspectLog,
  type InspectLogHeader,
  type InspectSampleSummary,
  type InspectStreamEnd,
  type InspectStreamItem,
  safeJson,
} from '../../src/index.js';
import { LoadError, explainFailure, isZipHead } from './explain.js';
import type {
  LoadMessage,
  LoadRequest,
  LoadSource,
  RunFacts,
  SampleRef,
  SampleRow,
} from './protocol.js';

/**
 * Events per posted batch: big enough to amortise a message, small enough
 * that the page parses and appends one in a few ms.
 */
const BATCH_EVENTS = 500;
/** A partial batch is posted after this long, so a slow stream still shows rows. */
const BATCH_MS = 50;
/** The head read before choosing a path (what the sniffs look at). */
const HEAD_BYTES = 64 * 1024;
/** The importer's default cap on diagnostics per code. */
const MAX_DIAGNOSTICS = 100;
/** A streaming open lets requests in at least this often (ms). */
const YIELD_MS = 100;
/** On the page's own thread, a streaming open yields this often (ms): a frame's worth. */
const PAGE_SLICE_MS = 12;

/** Ends the current task: the page renders and takes input before the next step. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * A loader over `post` (the worker's `postMessage`, or a callback on the
 * page). `handle` takes the page's requests; an `open` replaces whatever was
 * open.
 */
export function createLoader(
  post: (message: LoadMessage) => void,
  options: {
    /**
     * Stream a one-sample inspect `.json` log's events (default true); false
     * takes the importer's path for every inspect log (tests and benches
     * compare the two).
     */
    streamInspect?: boolean;
    /**
     * The loader shares the page's thread (an exported file, where no Worker
     * starts): batches carry the importer's frozen events as they are (no
     * JSON round trip), and a streaming open gives the page a task every
     * `PAGE_SLICE_MS`, so its first rows paint while the rest imports.
     */
    onPage?: boolean;
  } = {},
) {
  const streaming = options.streamInspect ?? true;
  const onPage = options.onPage ?? false;
  const sliceMs = onPage ? PAGE_SLICE_MS : YIELD_MS;
  const newBatcher = (id: number, progress: Progress, facts: FactsTracker) =>
    new Batcher(post, id, progress, facts, onPage);
  let session = 0;
  // `inspect` is a function: after a streaming open the whole log is
  // imported only if another sample is asked for.
  let log: OpenLog | null = null;

  const startSession = () => ++session;

  async function open(source: LoadSource, sample: SampleRef | undefined) {
    const id = startSession();
    log = null;
    let head: Uint8Array = new Uint8Array(0);
    let total: number | null = null;
    try {
      if (source.kind === 'demo') return openDemo(id, source.events);
      const reader = await openReader(source);
      total = reader.total;
      const progress = new Progress(post, id, total);
      // The head: enough bytes to choose a path.
      const chunks: Uint8Array[] = [];
      let headBytes = 0;
      let done = false;
      while (headBytes < HEAD_BYTES) {
        const next = await reader.read();
        if (next.done) {
          done = true;
          break;
        }
        chunks.push(next.value);
        headBytes += next.value.length;
        progress.bytes(next.value.length);
      }
      head = concat(chunks, headBytes);
      const lineFormat = done ? null : lineFormatOf(head, source.name);
      if (lineFormat !== null) {
        await openLines(id, source, reader, head, lineFormat, progress);
      } else if (
        streaming &&
        !done &&
        total !== null &&
        head.length < total &&
        !isZipHead(head) &&
        isInspectLog(head)
      ) {
        // A big inspect `.json`: its first events may be streamed before the
        // rest of the file is read.
        const growing = growingFile(reader, head, total, progress, () => id !== session);
        post({ type: 'format', session: id, format: 'inspect', name: 'inspect_ai log' });
        const cancelled = () => id !== session;
        const it = streamInspectSample(growing, {
          maxDiagnosticsPerCode: MAX_DIAGNOSTICS,
          cancelled,
        });
        if (await streamInspect(id, it, progress)) return;
        const bytes = await growing.all();
        if (id !== session) return;
        head = bytes;
        await openWhole(id, source, bytes, sample, progress, false);
      } else {
        const rest = done ? [] : await readRest(reader, progress, () => id !== session);
        if (id !== session) return;
        const bytes = rest.length ? concat([head, ...rest]) : head;
        head = bytes; // an error then describes the whole file
        await openWhole(id, source, bytes, sample, progress);
      }
    } catch (error) {
      if (id !== session) return;
      post({ type: 'error', session: id, error: explainFailure(error, source.name, head, total) });
    }
  }

  async function openLines(
    id: number,
    source: LoadSource,
    reader: ChunkReader,
    head: Uint8Array,
    format: FormatId,
    progress: Progress,
  ) {
    const fmt = formats.find((f) => f.id === format)!;
    post({ type: 'format', session: id, format, name: fmt.name });
    async function* chunks() {
      yield head;
      for (;;) {
        if (id !== session) return;
        const next = await reader.read();
        if (next.done) return;
        progress.bytes(next.value.length);
        yield next.value;
      }
    }
    const facts = new FactsTracker();
    const batcher = newBatcher(id, progress, facts);
    const it = streamImport(chunks(), { filename: source.name, format });
    let result: IteratorResult<Event[], { diagnostics: Diagnostic[] }>;
    let slice = Date.now();
    while (!(result = await it.next()).done) {
      if (id !== session) return;
      batcher.add(result.value);
      if (Date.now() - slice >= sliceMs) {
        // A new request gets in (and, on the page, the page paints).
        batcher.flush();
        await nextTask();
        if (id !== session) return;
        slice = Date.now();
      }
    }
    batcher.finish({
      type: 'done',
      session: id,
      diagnostics: result.value.diagnostics,
      facts: facts.facts(),
    });
  }

  async function openWhole(
    id: number,
    source: LoadSource,
    bytes: Uint8Array,
    sample: SampleRef | undefined,
    progress: Progress,
    stream = streaming,
  ) {
    progress.phase('parsing');
    // An inspect log is recognised from its head (or zip directory) alone:
    // asked first, detectFormat's other sniffs would parse the whole document
    // once more before importInspectLog parses it (a second JSON.parse of a
    // big log, before its first rows).
    const detected = isInspectLog(bytes)
      ? { format: 'inspect' as const, name: 'inspect_ai log' }
      : detectFormat(bytes, { filename: source.name });
    const format = detected.format;
    if (format === null && isZipHead(bytes)) {
      // A zip no format claims: let the inspect reader say what is wrong with it
      // (truncated, corrupt, no header.json) rather than "not a format".
      await importInspectLog(bytes);
    }
    if (format === 'inspect') {
      post({ type: 'format', session: id, format, name: detected.name ?? 'inspect_ai log' });
      if (
        stream &&
        !isZipHead(bytes) &&
        (await streamInspect(
          id,
          streamInspectSample(bytes, {
            maxDiagnosticsPerCode: MAX_DIAGNOSTICS,
            cancelled: () => id !== session,
          }),
          progress,
        ))
      )
        return;
      const inspect = await importInspectLog(bytes);
      if (id !== session) return;
      const samples = inspect.samples.map(sampleRow);
      log = {
        inspect: () => Promise.resolve(inspect),
        facts: headerFacts(inspect.header),
        samples,
      };
      const chosen = pickSample(samples, sample);
      post({ type: 'log', session: id, facts: log.facts, samples, sample: chosen });
      if (stream && inspect.format === 'eval') log.zip = bytes;
      if (chosen && (await streamEvalSample_(id, log, chosen, progress))) return;
      if (chosen) await loadSample(id, chosen, progress);
      else
        post({
          type: 'done',
          session: id,
          diagnostics: [...inspect.diagnostics],
          facts: log.facts,
        });
      return;
    }
    if (format !== null) {
      const fmt = formats.find((f) => f.id === format)!;
      post({ type: 'format', session: id, format, name: fmt.name });
    }
    const result = await importAny(bytes, { filename: source.name });
    if (id !== session) return;
    if (format === null)
      post({ type: 'format', session: id, format: result.format, name: result.format });
    const facts = new FactsTracker();
    const batcher = newBatcher(id, progress, facts);
    progress.phase('importing');
    batcher.add(result.events);
    batcher.finish({
      type: 'done',
      session: id,
      diagnostics: result.diagnostics,
      facts: facts.facts(),
    });
  }

  function openDemo(id: number, n: number) {
    post({ type: 'format', session: id, format: 'skein', name: 'generated run' });
    const progress = new Progress(post, id, null);
    progress.phase('importing');
    const facts = new FactsTracker();
    const batcher = newBatcher(id, progress, facts);
    batcher.add(generateRun({ seed: 1, events: n, pendingRate: 0 }));
    batcher.finish({
      type: 'done',
      session: id,
      diagnostics: [],
      facts: { task: 'generated run', ...facts.facts() },
    });
  }

  /**
   * Streams sample `ref` of an open `.eval` (`current.zip`; core's
   * `streamEvalSample` inflates its member piece by piece). True when it
   * posted the sample's events and `done` (or the session moved on); false
   * when the caller loads it the importer's way, after the `log` a `reset`
   * dropped is posted again.
   */
  async function streamEvalSample_(
    id: number,
    current: OpenLog,
    ref: SampleRef,
    progress: Progress,
  ): Promise<boolean> {
    if (!current.zip) return false;
    const inspect = await current.inspect();
    const it = streamEvalSample(current.zip, inspect, ref.id, ref.epoch, {
      maxDiagnosticsPerCode: MAX_DIAGNOSTICS,
      cancelled: () => id !== session,
    });
    if (!it) return false;
    const facts = headerFacts(inspect.header);
    const samples = inspect.samples.map(sampleRow);
    const sample: EvalSampleFacts = { facts, samples, ref };
    if (await streamInspect(id, it, progress, sample)) return true;
    if (id !== session) return true;
    log = current;
    if (sample.reset)
      post({
        type: 'log',
        session: id,
        facts: current.facts,
        samples: current.samples,
        sample: ref,
      });
    return false;
  }

  async function loadSample(id: number, ref: SampleRef, progress: Progress) {
    const current = log!;
    progress.phase('importing');
    const inspect = await current.inspect();
    const { events, diagnostics } = await inspect.sample(ref.id, ref.epoch);
    if (id !== session) return;
    const facts = new FactsTracker();
    const batcher = newBatcher(id, progress, facts);
    batcher.add(events);
    batcher.finish({
      type: 'done',
      session: id,
      diagnostics: [...inspect.diagnostics, ...diagnostics],
      facts: sampleFacts(facts, current.facts, current.samples, ref),
    });
  }

  /**
   * Posts a streamed inspect sample (`it`: core's `streamInspectSample` or
   * `streamEvalSample`): its first events after parsing only them, instead
   * of after importing the whole log, then the same `log` and `done` the
   * importer's path posts (in that order: the summary and the sample's other
   * fields follow its events in the file; for an `.eval` sample, `evalSample`
   * holds the log's facts and rows, posted before). True when it posted
   * `done` (or the session moved on); false when the caller takes the
   * importer's path, after a `reset` that drops the events posted (for an
   * `.eval` sample, `evalSample.reset` then says so).
   */
  async function streamInspect(
    id: number,
    it: AsyncGenerator<InspectStreamItem, InspectStreamEnd>,
    progress: Progress,
    evalSample?: EvalSampleFacts,
  ): Promise<boolean> {
    const facts = new FactsTracker();
    const batcher = newBatcher(id, progress, facts);
    let posted = false;
    let slice = Date.now();
    let next: IteratorResult<InspectStreamItem, InspectStreamEnd>;
    while (!(next = await it.next()).done) {
      if (id !== session) {
        await it.return({ type: 'cancelled' });
        return true;
      }
      const item = next.value;
      if (item.type === 'sample') {
        progress.phase('importing');
        slice = Date.now();
        continue;
      }
      batcher.add(item.events);
      posted = true;
      if (Date.now() - slice >= sliceMs) {
        // Lets a new request (another file, a sample) in between.
        if (onPage) batcher.flush();
        await nextTask();
        if (id !== session) {
          await it.return({ type: 'cancelled' });
          return true;
        }
        slice = Date.now();
      }
    }
    const end = next.value;
    if (id !== session || end.type === 'cancelled') return true;
    if (end.type === 'fallback') {
      // The importer's path gives the answer (its events, or the error it explains).
      log = null;
      if (posted) {
        progress.resetEvents();
        post({ type: 'reset', session: id });
        if (evalSample) evalSample.reset = true;
      }
      return false;
    }
    if (evalSample) {
      // Through the batcher, like every other path: `done`, then the
      // timeline built here (timelineWireOf).
      batcher.finish({
        type: 'done',
        session: id,
        diagnostics: end.diagnostics,
        facts: sampleFacts(facts, evalSample.facts, evalSample.samples, evalSample.ref),
      });
      return true;
    }
    batcher.flush();
    const inspect = end.log;
    const samples = inspect.samples.map(sampleRow);
    const ref = { id: end.sample.id, epoch: end.sample.epoch };
    const whole = end.bytes;
    let full: Promise<InspectLog> | undefined;
    log = {
      inspect: () => (full ??= importInspectLog(whole)),
      facts: headerFacts(inspect.header),
      samples,
    };
    post({ type: 'log', session: id, facts: log.facts, samples, sample: ref });
    batcher.finish({
      type: 'done',
      session: id,
      diagnostics: end.diagnostics,
      facts: sampleFacts(facts, log.facts, samples, ref),
    });
    return true;
  }

  return {
    /** Handles one request from the page. */
    async handle(request: LoadRequest): Promise<void> {
      if (request.type === 'open') return open(request.source, request.sample);
      const id = startSession();
      const current = log;
      if (!current) return;
      const progress = new Progress(post, id, null);
      try {
        post({
          type: 'log',
          session: id,
          facts: current.facts,
          samples: current.samples,
          sample: request.sample,
        });
        if (await streamEvalSample_(id, current, request.sample, progress)) return;
        await loadSample(id, request.sample, progress);
      } catch (error) {
        if (id !== session) return;
        post({
          type: 'error',
          session: id,
          error: explainFailure(error, `Sample ${request.sample.id}`, new Uint8Array(0), null),
        });
      }
    },
  };
}

/** What the `done` of a streamed `.eval` sample says, and whether its stream posted a `reset`. */
interface EvalSampleFacts {
  facts: RunFacts;
  samples: SampleRow[];
  ref: SampleRef;
  reset?: boolean;
}

/** The log open after an inspect open, for the page's sample requests. */
interface OpenLog {
  /** The whole log, imported (after a streaming open, only when asked). */
  inspect: () => Promise<InspectLog>;
  facts: RunFacts;
  samples: SampleRow[];
  /** An `.eval`'s bytes, when its samples are streamed (`streamEvalSample`). */
  zip?: Uint8Array;
}

// ---------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------

interface ChunkReader {
  readonly total: number | null;
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
}

async function openReader(source: Exclude<LoadSource, { kind: 'demo' }>): Promise<ChunkReader> {
  if (source.kind === 'file') {
    if ('arrayBuffer' in source.file && typeof source.file.stream !== 'function') {
      // A Blob without streams (jsdom): one chunk.
      const bytes = new Uint8Array(await source.file.arrayBuffer());
      let given = false;
      return {
        total: bytes.length,
        read: async () =>
          given
            ? { done: true, value: undefined }
            : ((given = true), { done: false, value: bytes }),
      };
    }
    const stream = source.file.stream() as ReadableStream<Uint8Array>;
    const reader = stream.getReader();
    return { total: source.file.size, read: () => reader.read() };
  }
  let response: Response;
  try {
    response = await fetch(source.url);
  } catch (e) {
    throw new LoadError({
      code: 'fetch_failed',
      title: `Could not fetch ${source.name}`,
      detail: `${source.url}: ${e instanceof Error ? e.message : String(e)}. Is the server still running?`,
    });
  }
  if (!response.ok) {
    const body = (await response.text().catch(() => '')).slice(0, 300);
    throw new LoadError({
      code: 'http_status',
      title: `Could not fetch ${source.name}: HTTP ${response.status}`,
      detail: `${source.url} answered ${response.status} ${response.statusText}${body ? `: ${body}` : ''}`,
    });
  }
  const length = Number(response.headers.get('content-length'));
  const body = response.body;
  if (!body) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    let given = false;
    return {
      total: bytes.length,
      read: async () =>
        given ? { done: true, value: undefined } : ((given = true), { done: false, value: bytes }),
    };
  }
  const reader = body.getReader();
  return {
    // A compressed response's length is not the body's.
    total:
      Number.isFinite(length) && length > 0 && !response.headers.get('content-encoding')
        ? length
        : null,
    read: () => reader.read(),
  };
}

async function readRest(
  reader: ChunkReader,
  progress: Progress,
  cancelled: () => boolean,
): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for (;;) {
    if (cancelled()) return out;
    const next = await reader.read();
    if (next.done) return out;
    out.push(next.value);
    progress.bytes(next.value.length);
  }
}

/**
 * A file read into one buffer of its announced size, chunk by chunk (core's
 * `growingSource`), so a reader can work on the part read so far while more
 * arrives; each chunk counts in `progress`, and once `cancelled` the file
 * reads as complete.
 */
function growingFile(
  reader: ChunkReader,
  head: Uint8Array,
  total: number,
  progress: Progress,
  cancelled: () => boolean,
): GrowingSource {
  return growingSource(
    async () => {
      if (cancelled()) return { done: true };
      const next = await reader.read();
      if (!next.done) progress.bytes(next.value.length);
      return next;
    },
    { head, total },
  );
}

function concat(parts: readonly Uint8Array[], length = parts.reduce((n, p) => n + p.length, 0)) {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * The line format of a head, or `null` for a whole document: the head's
 * first line is one complete JSON object, another record follows, and the
 * format detected from the head's complete lines reads lines as they come.
 */
export function lineFormatOf(head: Uint8Array, filename: string): FormatId | null {
  if (isZipHead(head)) return null;
  const text = new TextDecoder().decode(head).replace(/^\uFEFF/, '');
  const start = text.length - text.trimStart().length;
  const nl = text.indexOf('\n', start);
  if (nl < 0) return null;
  const first = text.slice(start, nl).trim();
  if (!first.startsWith('{')) return null;
  try {
    JSON.parse(first);
  } catch {
    return null;
  }
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  const detected = detectFormat(complete, { filename });
  if (detected.format === null) return null;
  const fmt = formats.find((f) => f.id === detected.format);
  return fmt?.incremental ? fmt.id : null;
}

// ---------------------------------------------------------------------------
// Posting
// ---------------------------------------------------------------------------

class Progress {
  #bytes = 0;
  #events = 0;
  #phase: 'reading' | 'parsing' | 'importing' = 'reading';
  #at = 0;
  constructor(
    readonly post: (m: LoadMessage) => void,
    readonly session: number,
    readonly total: number | null,
  ) {}
  bytes(n: number) {
    this.#bytes += n;
    this.maybe();
  }
  events(n: number) {
    this.#events += n;
    this.maybe();
  }
  /** After a `reset`: the events posted so far no longer count. */
  resetEvents() {
    this.#events = 0;
  }
  phase(phase: 'reading' | 'parsing' | 'importing') {
    this.#phase = phase;
    this.send();
  }
  maybe() {
    const now = Date.now();
    if (now - this.#at >= 100) this.send();
  }
  send() {
    this.#at = Date.now();
    this.post({
      type: 'progress',
      session: this.session,
      bytes: this.#bytes,
      total: this.total,
      events: this.#events,
      phase: this.#phase,
    });
  }
}

class Batcher {
  #pending: Event[] = [];
  /** Every event posted, in order: the page's stream holds the same. */
  #posted: Event[] = [];
  #at = Date.now();
  constructor(
    readonly post: (m: LoadMessage) => void,
    readonly session: number,
    readonly progress: Progress,
    readonly facts: FactsTracker,
    /** Post the events themselves, not their JSON (the loader is on the page). */
    readonly asObjects = false,
  ) {}
  add(events: readonly Event[]) {
    for (const e of events) {
      this.facts.add(e);
      this.#pending.push(e);
      if (this.#pending.length >= BATCH_EVENTS) this.flush();
    }
    if (this.#pending.length && Date.now() - this.#at >= BATCH_MS) this.flush();
  }
  /**
   * Posts what is left, then `done`, then the timeline of every event posted
   * (built here, off the page: see timeline-wire.ts).
   */
  finish(done: Extract<LoadMessage, { type: 'done' }>) {
    this.flush();
    if (!this.#posted.length) {
      this.post(done);
      return;
    }
    this.post({ ...done, timeline: true });
    let timeline = null;
    try {
      timeline = timelineWireOf(this.#posted);
    } catch {
      // The page builds the timeline itself from its feed.
    }
    this.#posted = [];
    this.post({ type: 'timeline', session: this.session, timeline });
  }
  flush() {
    this.#at = Date.now();
    if (!this.#pending.length) return;
    const events = this.#pending;
    this.#pending = [];
    for (const e of events) this.#posted.push(e);
    this.post(
      this.asObjects
        ? { type: 'events', session: this.session, events, count: events.length }
        : {
            type: 'events',
            session: this.session,
            json: JSON.stringify(events),
            count: events.length,
          },
    );
    this.progress.events(events.length);
  }
}

// ---------------------------------------------------------------------------
// Facts
// ---------------------------------------------------------------------------

/** Run facts from the events (latest version per uuid): model, tokens, time span, failures. */
export class FactsTracker {
  #tokens = new Map<string, number>();
  #failed = new Set<string>();
  #start = Infinity;
  #end = -Infinity;
  #model: string | undefined;
  add(e: Event) {
    const tokens = eventTotalTokens(e);
    if (tokens > 0 || this.#tokens.has(e.uuid)) this.#tokens.set(e.uuid, tokens);
    if (isFailedEvent(e)) this.#failed.add(e.uuid);
    else this.#failed.delete(e.uuid);
    const t = eventTime(e);
    if (Number.isFinite(t) && t < this.#start) this.#start = t;
    const end = eventEndTime(e);
    if (Number.isFinite(end) && end > this.#end) this.#end = end;
    if (this.#model === undefined && e.event === 'model') {
      const model = (e as { model?: unknown }).model;
      if (typeof model === 'string' && model !== '') this.#model = model;
    }
  }
  facts(): RunFacts {
    let tokens = 0;
    for (const n of this.#tokens.values()) tokens += n;
    // No status from events: a run with failed tool calls did not fail.
    const out: { -readonly [K in keyof RunFacts]: RunFacts[K] } = { failures: this.#failed.size };
    if (tokens > 0) out.tokens = tokens;
    if (this.#model) out.model = this.#model;
    if (Number.isFinite(this.#start) && this.#end >= this.#start)
      out.durationMs = this.#end - this.#start;
    return out;
  }
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const rec = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/** Tokens of a `model_usage` map, by core's token rule (through `summarizeInspectSample`). */
function usageTokens(usage: unknown): number | null {
  return summarizeInspectSample({ id: 0, epoch: 1, model_usage: usage }).tokens;
}

/** The log header's facts: task, model, status, scores (metrics), tokens, duration. */
export function headerFacts(header: InspectLogHeader): RunFacts {
  const out: { -readonly [K in keyof RunFacts]: RunFacts[K] } = {};
  if (typeof header.eval.task === 'string') out.task = header.eval.task;
  if (typeof header.eval.model === 'string') out.model = header.eval.model;
  if (typeof header.status === 'string') out.status = header.status;
  const scores: string[] = [];
  for (const s of header.results?.scores ?? []) {
    const score = rec(s);
    const metrics = rec(score?.['metrics']);
    if (!metrics) continue;
    for (const [name, m] of Object.entries(metrics)) {
      const value = num(rec(m)?.['value']);
      if (value !== null) scores.push(`${name} ${formatScore(value)}`);
    }
  }
  if (scores.length) out.scores = scores;
  const tokens = usageTokens(header.stats?.['model_usage']);
  if (tokens !== null) out.tokens = tokens;
  const startedAt = String(header.stats?.['started_at'] ?? '');
  const completedAt = String(header.stats?.['completed_at'] ?? '');
  const started = Date.parse(startedAt);
  const completed = Date.parse(completedAt);
  // Older logs stamp whole seconds: two stamps in the same second say the
  // run took under a second, not 0 ms (the sample's events say how long).
  const wholeSeconds = !/\.\d/.test(startedAt) && !/\.\d/.test(completedAt);
  if (
    Number.isFinite(started) &&
    Number.isFinite(completed) &&
    completed >= started &&
    !(wholeSeconds && completed - started < 1000)
  )
    out.durationMs = completed - started;
  return out;
}

/** inspect's `value_to_float`: C/I/P/N letters, yes/no, booleans, numbers. */
export function scoreToNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value !== 'string') return null;
  const v = value.trim().toUpperCase();
  if (v === 'C' || v === 'YES' || v === 'TRUE') return 1;
  if (v === 'I' || v === 'NO' || v === 'FALSE' || v === 'N') return 0;
  if (v === 'P') return 0.5;
  const n = Number(v);
  return v !== '' && Number.isFinite(n) ? n : null;
}

function scalar(value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return value;
  // A score from the log: any JSON, so possibly nested past JSON.stringify's stack.
  return safeJson(value);
}

/** A sample input's text; depth-bounded, since the input is the log's JSON as written. */
function textOf(input: unknown, depth = 0): string {
  if (typeof input === 'string') return input;
  if (Array.isArray(input) && depth < 8) {
    for (let i = input.length - 1; i >= 0; i--) {
      const m = rec(input[i]);
      if (m?.['role'] === 'user') return textOf(m['content'], depth + 1);
    }
    return input.map((p) => textOf(rec(p)?.['text'] ?? '', depth + 1)).join(' ');
  }
  return '';
}

/**
 * A sample list row from a log's sample summary: core's
 * `summarizeInspectSample` (the same facts as `skein info`), plus what the
 * list sorts and filters on.
 */
export function sampleRow(s: InspectSampleSummary): SampleRow {
  const summary = summarizeInspectSample(s);
  const entries = Object.entries(summary.scores).map(([k, v]) => [k, scalar(v)] as const);
  const first = entries[0]?.[1] ?? null;
  return {
    id: s.id,
    epoch: s.epoch,
    score: first,
    scoreValue: scoreToNumber(first),
    scores: entries.map(([k, v]) => `${k}: ${String(v)}`).join(', '),
    tokens: summary.tokens,
    duration: summary.durationMs === null ? null : summary.durationMs / 1000,
    error: summary.status === 'error' ? summary.error : null,
    limit: summary.status === 'limit' ? summary.error : null,
    input: textOf(s.input).slice(0, 300),
  };
}

/**
 * A sample's `done` facts: the log's (task, model, status), its summary's
 * scores and error, and its own tokens and duration — its summary's, else
 * its events' — beside its name in the header; the log's totals only when
 * the sample says neither.
 */
function sampleFacts(
  facts: FactsTracker,
  log: RunFacts,
  samples: readonly SampleRow[],
  ref: SampleRef,
): RunFacts {
  const row = samples.find((s) => sameSample(s, ref));
  const own = facts.facts();
  const tokens = row?.tokens ?? own.tokens;
  const durationMs = row?.duration != null ? row.duration * 1000 : own.durationMs;
  return {
    ...own,
    ...log,
    ...(tokens !== undefined ? { tokens } : {}),
    ...(durationMs !== undefined ? { durationMs } : {}),
    ...(row?.scores ? { scores: row.scores.split(', ') } : {}),
    ...(row?.error ? { status: 'error' } : {}),
  };
}

export function sameSample(a: SampleRef, b: SampleRef): boolean {
  return String(a.id) === String(b.id) && a.epoch === b.epoch;
}

function pickSample(
  samples: readonly SampleRow[],
  wanted: SampleRef | undefined,
): SampleRef | null {
  if (wanted) {
    const found = samples.find((s) => sameSample(s, wanted));
    if (found) return { id: found.id, epoch: found.epoch };
  }
  const first = samples[0];
  return first ? { id: first.id, epoch: first.epoch } : null;
}
