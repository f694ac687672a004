// The run registry's public types (registry.ts has the rules).
import type { Diagnostic } from '../errors.js';
import type { ImportOptions } from '../import/guards.js';
import type { EventStream } from '../stream/event-stream.js';
import type { OtlpRunKind } from './run-key.js';

/**
 * Where a registry writes what it receives, so that an evicted run is not
 * lost: every record accepted for a run (an OTLP/JSON export holding that
 * run's part of a request), in order. `skein/server`'s `createOtlpFileSpill`
 * writes one JSON Lines file per run, which `skein view` opens.
 *
 * @example
 * const records: object[] = [];
 * const spill: OtlpRunSpill = { record: (_run, record) => void records.push(record) };
 */
export interface OtlpRunSpill {
  record(run: OtlpRunInfo, record: object): void;
  /** The run left memory (its records were all given to `record`). */
  evicted?(run: OtlpRunInfo): void;
}

/**
 * Options of {@link createOtlpRunRegistry}.
 *
 * @example
 * const options: OtlpRunRegistryOptions = { maxRuns: 200, idleMs: 60_000 };
 */
export interface OtlpRunRegistryOptions {
  /** Runs kept in memory; past it one is evicted (see the top of this file). Default 1000. */
  maxRuns?: number;
  /** Bytes of received bodies kept in memory, all runs together. Default 256 MiB. */
  maxBytes?: number;
  /** A run with nothing new for this long ends. Default 30000 ms. */
  idleMs?: number;
  /** Spans and records one run may hold waiting for a parent before they are released. Default 10000. */
  maxHeld?: number;
  /** Received bytes not yet imported past which {@link OtlpRunRegistry.busy} says so (the receiver answers 429). Default 64 MiB. */
  maxPendingBytes?: number;
  /** How long a run that grew waits before it is imported, so requests close together are imported once. Default 0 (the next timer turn). */
  importDelayMs?: number;
  /** Every record accepted, for runs to survive eviction. */
  spill?: OtlpRunSpill;
  /** Put everything into this one stream (one run, id `all`) instead of a run per trace. */
  stream?: EventStream;
  /** The clock (epoch ms). Default `Date.now`. */
  now?: () => number;
  /** Options of the OTLP import (e.g. `maxDiagnosticsPerCode`). */
  importOptions?: ImportOptions;
}

/** Where a run is: receiving, quiet for `idleMs`, merged into another, or evicted from memory. */
export type OtlpRunStatus = 'live' | 'ended' | 'merged' | 'evicted';

/**
 * One run as the registry lists it: an immutable snapshot, replaced when the
 * run changes.
 *
 * @example
 * declare function show(...values: unknown[]): void;
 * declare const registry: OtlpRunRegistry;
 * const [newest] = registry.getSnapshot().runs;
 * if (newest) show(`${newest.name}: ${newest.spans} spans, ${newest.status}`);
 */
export interface OtlpRunInfo {
  /** `trace:<trace id>`, `conversation:<id>`, `session:<id>`, `service:<name>` or `all`. */
  readonly id: string;
  readonly kind: OtlpRunKind | 'all';
  readonly key: string;
  /** The first root span's name, else the first span's or record's name, else the key. */
  readonly name: string;
  /** `service.name` of the first resource seen. */
  readonly service: string | null;
  readonly status: OtlpRunStatus;
  /** The run this one was merged into (status `merged`). */
  readonly mergedInto: string | null;
  readonly spans: number;
  readonly logs: number;
  /** Spans with status ERROR. */
  readonly errors: number;
  /** Events in its stream (every version). */
  readonly events: number;
  /** Spans and records waiting for a parent. */
  readonly held: number;
  /** Spans and records dropped as already held. */
  readonly duplicates: number;
  /** Diagnostics of its last import (orphans released, duplicates, …). */
  readonly diagnostics: number;
  /** Received body bytes attributed to it. */
  readonly bytes: number;
  /** Receiver clock (epoch ms) at its first and latest record. */
  readonly firstSeen: number;
  readonly lastSeen: number;
  /** The earliest span or record time it holds (epoch ms), or null. */
  readonly startTime: number | null;
  /** Grows by one with every change of this run. */
  readonly version: number;
}

/**
 * A run: its info, its stream and its import diagnostics.
 *
 * @example
 * declare function show(...values: unknown[]): void;
 * declare const registry: OtlpRunRegistry;
 * const run = registry.get('trace:4bf92f3577b34da6a3ce929d0e0e4736');
 * run?.stream.subscribe(() => show(run.stream.length));
 */
export interface OtlpRun {
  readonly info: OtlpRunInfo;
  readonly stream: EventStream;
  diagnostics(): Diagnostic[];
}

/**
 * The registry's list at one moment: runs newest first (by first seen).
 *
 * @example
 * declare const registry: OtlpRunRegistry;
 * const { runs, version } = registry.getSnapshot();
 */
export interface OtlpRunsSnapshot {
  readonly runs: readonly OtlpRunInfo[];
  readonly version: number;
  /** Received bytes held by all runs. */
  readonly bytes: number;
}

/**
 * What one export request did: spans or records accepted, rejected (with
 * why), and dropped as duplicates (accepted too, as the OTLP spec counts).
 *
 * @example
 * declare const registry: OtlpRunRegistry;
 * const result: OtlpIngestResult = registry.ingestTraces({ resourceSpans: [] });
 */
export interface OtlpIngestResult {
  accepted: number;
  rejected: number;
  duplicates: number;
  /** Why some were rejected (OTLP `partial_success.error_message`). */
  errorMessage?: string;
}

/**
 * Groups OTLP spans and log records into live runs. See
 * {@link createOtlpRunRegistry}.
 *
 * @example
 * declare function show(...values: unknown[]): void;
 * declare const registry: OtlpRunRegistry;
 * const unsubscribe = registry.subscribe(() => show(registry.getSnapshot().runs.length));
 */
export interface OtlpRunRegistry {
  /** Takes an `ExportTraceServiceRequest` in its OTLP/JSON shape; `bytes`: the body's size. */
  ingestTraces(request: unknown, bytes?: number): OtlpIngestResult;
  /** Takes an `ExportLogsServiceRequest` in its OTLP/JSON shape. */
  ingestLogs(request: unknown, bytes?: number): OtlpIngestResult;
  /** A run by id (also one merged or evicted, while something holds it: not listed). */
  get(id: string): OtlpRun | undefined;
  getSnapshot(): OtlpRunsSnapshot;
  subscribe(listener: () => void): () => void;
  /** More received bytes wait for import than `maxPendingBytes`: answer 429 and let the exporter retry. */
  readonly busy: boolean;
  /** `close()` was called. */
  readonly closed: boolean;
  /** Imports every run that grew, now. */
  flush(): void;
  /** Ends a run now (its waiting spans released). */
  end(id: string): void;
  /** Imports and ends every run, closes their streams and stops the timers. */
  close(): void;
}
