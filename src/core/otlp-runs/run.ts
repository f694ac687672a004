// One run of the registry: its stream, its live importer and its counts.
import type { Diagnostic } from '../errors.js';
import type { Event } from '../events/types.js';
import type { ImportOptions } from '../import/guards.js';
import { importOtlp } from '../import/otlp/otlp.js';
import { otlpLiveImporter, type OtlpLiveImporter } from '../import/otlp/otlp-live.js';
import type { EventStream } from '../stream/event-stream.js';
import type { OtlpRunKey } from './run-key.js';
import type { OtlpRun, OtlpRunInfo, OtlpRunStatus } from './types.js';

/** One run's state. */
export class Run implements OtlpRun {
  readonly key: OtlpRunKey | { kind: 'all'; key: string; id: string };
  readonly stream: EventStream;
  readonly importer: OtlpLiveImporter;
  readonly spanKeys = new Set<string>();
  readonly traces = new Set<string>();
  name = '';
  rootNamed = false;
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
      held: this.importer.held,
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
