// The messages between the viewer page and its loader (a Web Worker, or the
// same code on the page where no Worker exists, as in jsdom tests). The loader
// reads, detects, parses and imports; the page only appends event batches to
// an EventStream, so it never blocks on a big log (issue 22).
import type { Diagnostic, Event, FormatId, TimelineWire } from '../../src/index.js';

/** Where a log comes from: a local file (picker, drop), a URL (`?src`, a listing) or a generated run (`?demo`). */
/**
 * A file the loader reads as a stream of bytes without a Blob (an exported
 * page's embedded run, decoded as it is read). Not structured-cloneable: only
 * an on-page loader (`inThreadPort`) takes one.
 */
export interface FileLike {
  /** Bytes once read, when known (the progress bar's total). */
  readonly size: number | null;
  stream(): ReadableStream<Uint8Array>;
}

export type LoadSource =
  | { readonly kind: 'file'; readonly file: Blob | FileLike; readonly name: string }
  | { readonly kind: 'url'; readonly url: string; readonly name: string }
  | { readonly kind: 'demo'; readonly events: number; readonly name: string };

/** A sample of a multi-sample log. */
export interface SampleRef {
  readonly id: string | number;
  readonly epoch: number;
}

/** One row of the sample list, read from the log's sample summary. */
export interface SampleRow extends SampleRef {
  /** The first score's value as the log has it (`'C'`, `0.5`, …), or `null`. */
  readonly score: string | number | boolean | null;
  /** That value as a number for sorting (`C` 1, `I` 0, `P` 0.5, as inspect's value_to_float), or `null`. */
  readonly scoreValue: number | null;
  /** Every score, `name: value`, for the title. */
  readonly scores: string;
  readonly tokens: number | null;
  /** Seconds. */
  readonly duration: number | null;
  readonly error: string | null;
  /** A limit the sample hit (`token`, `time`, …), or `null`. */
  readonly limit: string | null;
  /** The input, shortened, for filtering and the title. */
  readonly input: string;
}

/** What the header shows; every field optional (formats carry different facts). */
export interface RunFacts {
  readonly task?: string;
  readonly model?: string;
  /** `success`, `error`, `cancelled`, `started`, or derived from the events (`ok`, `error`, `running`). */
  readonly status?: string;
  /** `name: value` strings of the run's (or sample's) scores. */
  readonly scores?: readonly string[];
  readonly tokens?: number;
  /** Milliseconds. */
  readonly durationMs?: number;
  /** Events (latest versions) with a failed outcome. */
  readonly failures?: number;
}

/**
 * An error the user can act on: what the file is, what was expected, what to
 * do. `code` is the catalogue code when an importer threw one.
 */
export interface LoadFailure {
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  /** JSON path of the failure, when known. */
  readonly path?: string;
}

/** Page → loader. */
export type LoadRequest =
  | { readonly type: 'open'; readonly source: LoadSource; readonly sample?: SampleRef }
  | { readonly type: 'sample'; readonly sample: SampleRef };

/** Loader → page. `session` numbers the load (a sample switch starts a new one). */
export type LoadMessage =
  | {
      readonly type: 'progress';
      readonly session: number;
      readonly bytes: number;
      readonly total: number | null;
      readonly events: number;
      readonly phase: 'reading' | 'parsing' | 'importing';
    }
  | {
      readonly type: 'format';
      readonly session: number;
      readonly format: FormatId;
      readonly name: string;
    }
  | {
      readonly type: 'log';
      readonly session: number;
      readonly facts: RunFacts;
      readonly samples: readonly SampleRow[];
      readonly sample: SampleRef | null;
    }
  | {
      readonly type: 'events';
      readonly session: number;
      /**
       * The batch as JSON text (an array of events). Structured cloning an
       * array of event objects costs the page ~100 µs an event to deserialize,
       * in one task per message; a string crosses as one copy and the page
       * parses it in its own slice (a few ms per batch), so a 300k-event log
       * never blocks the page (issue 22, `viewer.open.*` in bench/browser).
       */
      readonly json?: string;
      /**
       * The batch itself, when the loader runs on the page (an exported
       * file, where no Worker starts): the importer's frozen events, handed
       * over as they are instead of stringified and parsed back. Exactly one
       * of `json` and `events` is set; read either with `batchEvents`.
       */
      readonly events?: readonly Event[];
      /** Events in the batch. */
      readonly count: number;
    }
  | {
      readonly type: 'done';
      readonly session: number;
      readonly diagnostics: readonly Diagnostic[];
      readonly facts: RunFacts;
      /** A `timeline` message follows. */
      readonly timeline?: boolean;
    }
  /**
   * After `done`: the run's timeline, built by the loader from the events it
   * posted (`null` when it could not be built: the page builds it itself).
   */
  | { readonly type: 'timeline'; readonly session: number; readonly timeline: TimelineWire | null }
  | { readonly type: 'error'; readonly session: number; readonly error: LoadFailure }
  /**
   * Drop every `events` (and `log`) message of this session received so far:
   * the load starts over. A streaming open posts it when it meets, after its
   * first events, something only the whole-log import reads exactly (an
   * attachment ref, an invalid document further on); that import's messages
   * follow.
   */
  | { readonly type: 'reset'; readonly session: number };

/**
 * The events of an `events` message, whichever way they crossed.
 * @example
 * const events = batchEvents({ type: 'events', session: 1, json: '[]', count: 0 }); // []
 */
export function batchEvents(message: Extract<LoadMessage, { type: 'events' }>): readonly Event[] {
  return message.events ?? (JSON.parse(message.json ?? '[]') as Event[]);
}
