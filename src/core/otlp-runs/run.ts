// One run of the registry: its stream, its live importer and its counts.
import type { Diagnostic } from '../errors.js';
import type { Event } from '../events/types.js';
import type { ImportOptions } from '../import/guards.js';
import { importOtlp } from '../import/otlp/otlp.js';
import { otlpLiveImporter, type OtlpLiveImporter } from '../import/otlp/otlp-live.js';
import type { EventStream } from '../stream/event-stream.js';
import type { OtlpRunKey } from './run-key.js';
import type { OtlpRun, OtlpRunInfo, OtlpRunStatus } from './types.js';

/**
 * The spans (by trace and span id) and log records (by a hash of their JSON)
 * a run holds. A span id maps to its trace: no `trace/span` string is made
 * and kept per span, only the ids the decoded span holds already.
 */
export class Seen {
  readonly #spans = new Map<string, string>();
  /** Span id → the other traces holding it (span ids are unique per trace only). */
  #more: Map<string, Set<string>> | undefined;
  #logs: Set<string> | undefined;

  /** Adds a span; false when it was held already. */
  addSpan(trace: string, span: string): boolean {
    const first = this.#spans.get(span);
    if (first === undefined) {
      this.#spans.set(span, trace);
      return true;
    }
    if (first === trace) return false;
    const more = (this.#more ??= new Map());
    const traces = more.get(span);
    if (traces === undefined) more.set(span, new Set([trace]));
    else if (traces.has(trace)) return false;
    else traces.add(trace);
    return true;
  }

  /** Adds a log record by its hash; false when it was held already. */
  addLog(hash: string): boolean {
    const logs = (this.#logs ??= new Set());
    if (logs.has(hash)) return false;
    logs.add(hash);
    return true;
  }

  /** Adds everything `other` holds. */
  addAll(other: Seen): void {
    for (const [span, trace] of other.#spans) this.addSpan(trace, span);
    if (other.#more !== undefined)
      for (const [span, traces] of other.#more) for (const t of traces) this.addSpan(t, span);
    if (other.#logs !== undefined) for (const h of other.#logs) this.addLog(h);
  }
}

/** One run's state. */
export class Run implements OtlpRun {
  readonly key: OtlpRunKey | { kind: 'all'; key: string; id: string };
  readonly stream: EventStream;
  readonly importer: OtlpLiveImporter;
  /** The spans and log records held, to drop duplicates. */
  readonly seen = new Seen();
  /** The traces of the run (each added once: a trace has one run at a time). */
  readonly traces: string[] = [];
  name = '';
  rootNamed = false;
  /** A span without a parent (or its own parent) came: the run's tree has a root. */
  hasRoot = false;
  /**
   * Its imports are put off while it waits for its root (registry.ts
   * `#waitsForRoot`): every span it holds is waiting, so none is read yet.
   */
  deferred = false;
  service: string | null = null;
  status: OtlpRunStatus = 'live';
  mergedInto: string | null = null;
  spans = 0;
  logs = 0;
  errors = 0;
  duplicates = 0;
  bytes = 0;
  pendingBytes = 0;
  firstSeen: number;
  lastSeen: number;
  startTime: number | null = null;
  version = 0;
  dirty = false;
  nextImportAt = 0;
  #info: OtlpRunInfo | null = null;
  /** The nanosecond text `startTime` came from ('' when unknown or not plain digits). */
  #startNs = '';

  constructor(key: Run['key'], stream: EventStream, importOptions: ImportOptions, now: number) {
    this.key = key;
    this.stream = stream;
    this.importer = otlpLiveImporter(importOtlp, importOptions);
    this.firstSeen = now;
    this.lastSeen = now;
  }

  get info(): OtlpRunInfo {
    return (this.#info ??= {
      id: this.key.id,
      kind: this.key.kind,
      key: this.key.key,
      name: this.name || this.key.key,
      service: this.service,
      status: this.status,
      mergedInto: this.mergedInto,
      spans: this.spans,
      logs: this.logs,
      errors: this.errors,
      events: this.stream.length,
      // A run put off holds every span it has: with no root, none is placed.
      held: this.deferred ? this.spans : this.importer.held,
      duplicates: this.duplicates,
      diagnostics: this.importer.diagnostics().length,
      bytes: this.bytes,
      firstSeen: this.firstSeen,
      lastSeen: this.lastSeen,
      startTime: this.startTime,
      version: this.version,
    });
  }

  diagnostics(): Diagnostic[] {
    return this.importer.diagnostics();
  }

  changed(): void {
    this.version++;
    this.#info = null;
  }

  /** Every record pushed is kept once, by the importer (a merge moves them). */
  push(record: object): void {
    this.importer.push(record, `$[${this.importer.records.length}]`);
  }

  append(events: readonly Event[]): void {
    for (let i = 0; i < events.length; i++) this.stream.append(events[i]!);
  }

  noteTime(ns: unknown): void {
    const text = typeof ns === 'string' ? ns : typeof ns === 'number' ? String(ns) : '';
    if (text.length <= 6) return;
    // Every span is asked: a count of the same digits as the earliest one and
    // not below it, or with more digits, is later (decimal text without
    // leading zeros, as decode.ts writes it), without parsing it.
    const first = text.charCodeAt(0);
    const plain = first > 48 && first <= 57;
    const known = this.#startNs;
    if (
      plain &&
      known !== '' &&
      (text.length > known.length || (text.length === known.length && text >= known))
    )
      return;
    // Epoch ms of a nanosecond count, to the ms: enough to sort runs.
    const ms = Number(text.slice(0, -6));
    if (ms > 0 && Number.isFinite(ms) && (this.startTime === null || ms < this.startTime)) {
      this.startTime = ms;
      this.#startNs = plain ? text : '';
    }
  }
}
