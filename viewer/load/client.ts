// The page side of loading: a small external store per opened log. It sends
// requests to the loader (a Web Worker when the platform has one) and appends
// the event batches it gets back to an EventStream in time slices, so even
// the appending never holds the main thread for long.
import {
  EventStream,
  TimelineDecoder,
  type Diagnostic,
  type Event,
  type Timeline,
} from '../../src/index.js';
import { createLoader } from './loader.js';
import {
  batchEvents,
  type LoadFailure,
  type LoadMessage,
  type LoadRequest,
  type LoadSource,
  type RunFacts,
  type SampleRef,
  type SampleRow,
} from './protocol.js';

/** Where a load stands, as the page shows it. */
export interface LoadState {
  readonly name: string;
  readonly phase: 'loading' | 'done' | 'error' | 'cancelled';
  readonly progress: {
    readonly bytes: number;
    readonly total: number | null;
    readonly events: number;
    readonly step: 'reading' | 'parsing' | 'importing';
  };
  readonly format: { readonly id: string; readonly name: string } | null;
  readonly facts: RunFacts;
  /** Every sample of a multi-sample log (inspect), else `null`. */
  readonly samples: readonly SampleRow[] | null;
  readonly sample: SampleRef | null;
  readonly diagnostics: readonly Diagnostic[];
  readonly error: LoadFailure | null;
  /** The events so far; a new stream for each sample. Closed (complete) when done. */
  readonly stream: EventStream;
  /**
   * The run's timeline, built by the loader and rebuilt here in slices
   * (`'pending'` from `done` until it is whole); `null` when none comes (a
   * live or cancelled load, or one it could not be built for): views build
   * their own from the stream.
   */
  readonly timeline: Timeline | 'pending' | null;
}

/** An opened log. */
export interface LoadSession {
  readonly getSnapshot: () => LoadState;
  readonly subscribe: (listener: () => void) => () => void;
  /** Stops reading and parsing; what arrived stays shown. */
  cancel(): void;
  /** Loads another sample of a multi-sample log. */
  selectSample(sample: SampleRef): void;
  /** Ends the worker. */
  dispose(): void;
}

/**
 * A session that never changes: a failure known before any reading (a
 * dropped folder), or a run already in memory (stories).
 */
export function fixedSession(state: LoadState): LoadSession {
  return {
    getSnapshot: () => state,
    subscribe: () => () => {},
    cancel() {},
    selectSample() {},
    dispose() {},
  };
}

/** The part of a Worker the session uses (tests pass fakes). */
export interface LoaderPort {
  postMessage(message: LoadRequest): void;
  terminate(): void;
  onmessage: ((event: MessageEvent<LoadMessage>) => void) | null;
}

export interface LoadSessionOptions {
  /** The sample to open first (from the URL). */
  sample?: SampleRef;
  /**
   * Makes the loader. Default: a module Worker running `worker.ts` where
   * `Worker` exists, else the loader on the page.
   */
  createPort?: () => LoaderPort;
  /** Budget (ms) of one slice of appending on the page. Default 8. */
  sliceMs?: number;
}

/** The default loader: the worker, or the same code in this thread. */
export function defaultPort(): LoaderPort {
  if (typeof Worker !== 'undefined') {
    return new Worker(new URL('./worker.ts', import.meta.url), {
      type: 'module',
      name: 'skein-loader',
    }) as unknown as LoaderPort;
  }
  return inThreadPort();
}

/** The loader on the page itself (no Worker: jsdom, or a test that wants it). */
export function inThreadPort(): LoaderPort {
  let stopped = false;
  const port: LoaderPort = {
    onmessage: null,
    postMessage(request) {
      void loader.handle(request);
    },
    terminate() {
      stopped = true;
    },
  };
  const loader = createLoader(
    (message) => {
      if (!stopped) port.onmessage?.({ data: message } as MessageEvent<LoadMessage>);
    },
    { onPage: true },
  );
  return port;
}

/**
 * Opens `source` and returns its session.
 */
export function openLog(given: LoadSource, options: LoadSessionOptions = {}): LoadSession {
  // A relative URL (a static site's listing: `logs/run.eval`) is the page's:
  // the worker would resolve it against its own script's URL.
  const source: LoadSource =
    given.kind === 'url' && typeof location !== 'undefined'
      ? { ...given, url: new URL(given.url, location.href).href }
      : given;
  const port = (options.createPort ?? defaultPort)();
  const sliceMs = options.sliceMs ?? 8;
  let expected = 0;
  let terminated = false;
  const stop = () => {
    expected = -1;
    queue = [];
    if (!terminated) port.terminate();
    terminated = true;
  };
  let listeners: readonly (() => void)[] = [];
  let state: LoadState = {
    name: source.name,
    phase: 'loading',
    progress: { bytes: 0, total: null, events: 0, step: 'reading' },
    format: null,
    facts: {},
    samples: null,
    sample: options.sample ?? null,
    diagnostics: [],
    error: null,
    stream: new EventStream(),
    timeline: null,
  };
  const set = (patch: Partial<LoadState>) => {
    state = { ...state, ...patch };
    for (const l of listeners) l();
  };

  // Messages wait here in order; event batches are appended in slices of
  // `sliceMs`, resuming at `at` in the next task.
  let queue: {
    message: LoadMessage;
    at: number;
    events?: readonly Event[];
    decoder?: TimelineDecoder;
  }[] = [];
  let draining = false;
  const drain = () => {
    draining = false;
    const deadline = performance.now() + sliceMs;
    while (queue.length) {
      const item = queue[0]!;
      const message = item.message;
      if (message.session !== expected) {
        queue.shift();
        continue;
      }
      if (message.type === 'events') {
        // Parsed here, in this slice (see the protocol's `json`).
        const events = (item.events ??= batchEvents(message));
        const stream = state.stream;
        while (item.at < events.length) {
          stream.append(events[item.at++]!);
          if ((item.at & 63) === 0 && performance.now() >= deadline) break;
        }
        if (item.at < events.length) return schedule();
        queue.shift();
      } else if (message.type === 'timeline' && message.timeline !== null) {
        let timeline: Timeline | null = null;
        try {
          item.decoder ??= new TimelineDecoder(message.timeline, state.stream.toArray());
          timeline = item.decoder.step(deadline, () => performance.now());
        } catch {
          // Not the events it was built for: the views build their own.
          queue.shift();
          set({ timeline: null });
          continue;
        }
        if (timeline === null) return schedule();
        queue.shift();
        set({ timeline });
      } else {
        queue.shift();
        apply(message);
      }
      if (performance.now() >= deadline) return schedule();
    }
  };
  const schedule = () => {
    if (draining || !queue.length) return;
    draining = true;
    setTimeout(drain, 0);
  };

  // Messages that must keep their order relative to events go through the
  // queue; progress is shown at once.
  const apply = (m: LoadMessage) => {
    switch (m.type) {
      case 'format':
        set({ format: { id: m.format, name: m.name } });
        break;
      case 'log':
        set({ facts: { ...state.facts, ...m.facts }, samples: m.samples, sample: m.sample });
        break;
      case 'timeline':
        // `null`: none could be built.
        set({ timeline: null });
        break;
      case 'done':
        state.stream.close();
        set({
          timeline: m.timeline === true ? 'pending' : null,
          phase: 'done',
          diagnostics: m.diagnostics,
          facts: { ...state.facts, ...m.facts },
          progress: { ...state.progress, events: state.stream.length },
        });
        break;
      case 'error':
        state.stream.close();
        set({ phase: 'error', error: m.error });
        break;
      case 'reset':
        set({
          stream: new EventStream(),
          timeline: null,
          facts: {},
          samples: null,
          diagnostics: [],
          error: null,
          progress: { ...state.progress, events: 0 },
        });
        break;
      default:
        break;
    }
  };

  port.onmessage = (event) => {
    const m = event.data;
    if (m.session !== expected) return;
    if (m.type === 'progress') {
      set({ progress: { bytes: m.bytes, total: m.total, events: m.events, step: m.phase } });
      return;
    }
    queue.push({ message: m, at: 0 });
    schedule();
  };

  const send = (request: LoadRequest) => {
    expected++;
    port.postMessage(request);
  };
  send({ type: 'open', source, ...(options.sample ? { sample: options.sample } : {}) });

  return {
    getSnapshot: () => state,
    subscribe(listener) {
      listeners = [...listeners, listener];
      return () => {
        listeners = listeners.filter((l) => l !== listener);
      };
    },
    cancel() {
      if (state.phase !== 'loading') return;
      stop();
      state.stream.close();
      set({ phase: 'cancelled', timeline: null });
    },
    selectSample(sample) {
      if (state.samples === null || terminated) return;
      queue = [];
      send({ type: 'sample', sample });
      set({
        phase: 'loading',
        sample,
        stream: new EventStream(),
        timeline: null,
        diagnostics: [],
        error: null,
        progress: { bytes: 0, total: null, events: 0, step: 'importing' },
      });
    },
    dispose: stop,
  };
}
