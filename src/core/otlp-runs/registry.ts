// The run registry behind the OTLP receiver: spans and log records arrive in
// many requests, out of order, children before parents, from several
// processes, some twice (exporters retry); the registry groups them into runs
// (run-key.ts says which), keeps each run an `EventStream` fed through the
// OTLP live importer (import/otlp/otlp-live.ts, the file importer's mapping
// a request at a time), lists them,
// and notifies when one starts, grows or ends.
//
// - Duplicates: a span whose trace and span id the run already holds is
//   dropped (counted); a log record identical to one held (same JSON) too.
// - Imports: a run that grew is imported on the next timer turn (requests
//   in between coalesce), and not again before twice as long as its last
//   import took has passed. An import maps only what came since the last
//   one, except for a run the live importer turned whole (otlp-live.ts):
//   then at most a third of the time goes to re-reading it.
// - Waiting spans: a span whose parent has not come is held (its events wait);
//   past `maxHeld` in one run, or when the run ends, they are released at the
//   root with an `otlp_orphan_span` diagnostic.
// - End: a run with nothing new for `idleMs` ends (OTLP has no end-of-run
//   signal); one that grows again is live again. Its stream stays open until
//   the registry closes.
// - Memory: past `maxRuns` runs or `maxBytes` of received bodies, the run
//   seen least recently among the ended ones is evicted, else among the live
//   ones; with a `spill`, every record was written out as it came, so
//   nothing received is lost.
import { EventStream } from '../stream/event-stream.js';
import { Listeners } from '../stream/listeners.js';
import {
  add,
  attributesOf,
  closedResult,
  countItems,
  field,
  hash,
  listOf,
  recordOf,
  result,
  safeJson,
  unref,
  type Batch,
} from './records.js';
import { Run } from './run.js';
import {
  groupOf,
  idKey,
  rawAttribute,
  runKey,
  serviceKey,
  strongerGroup,
  type OtlpRunKey,
} from './run-key.js';
import type {
  OtlpIngestResult,
  OtlpRun,
  OtlpRunRegistry,
  OtlpRunRegistryOptions,
  OtlpRunSpill,
  OtlpRunsSnapshot,
} from './types.js';
import type { ImportOptions } from '../import/guards.js';

const MiB = 1024 * 1024;

/**
 * A run registry for an OTLP receiver (`createOtlpHandler` in
 * `skein/server`): hand it decoded export requests, list its runs, follow
 * one's `stream`. The grouping rule is in run-key.ts and the README.
 *
 * @example
 * declare function show(...values: unknown[]): void;
 * import { createOtlpRunRegistry } from 'skein';
 * const registry = createOtlpRunRegistry({ maxRuns: 100 });
 * registry.subscribe(() => {
 *   for (const run of registry.getSnapshot().runs) show(run.id, run.spans, run.status);
 * });
 */
export function createOtlpRunRegistry(options: OtlpRunRegistryOptions = {}): OtlpRunRegistry {
  return new Registry(options);
}

class Registry implements OtlpRunRegistry {
  readonly #runs = new Map<string, Run>();
  readonly #traceRuns = new Map<string, Run>();
  readonly #listeners = new Listeners();
  readonly #now: () => number;
  readonly #maxRuns: number;
  readonly #maxBytes: number;
  readonly #idleMs: number;
  readonly #maxHeld: number;
  readonly #maxPendingBytes: number;
  readonly #importDelayMs: number;
  readonly #spill: OtlpRunSpill | undefined;
  readonly #single: EventStream | undefined;
  readonly #importOptions: ImportOptions;
  /** Runs by id that left the list but may still be asked for (merged, evicted). */
  readonly #gone = new Map<string, WeakRef<Run>>();
  #bytes = 0;
  #pendingBytes = 0;
  #version = 0;
  #snapshot: OtlpRunsSnapshot | null = null;
  #importTimer: unknown = null;
  #idleTimer: unknown = null;
  #closed = false;

  constructor(options: OtlpRunRegistryOptions) {
    this.#now = options.now ?? Date.now;
    this.#maxRuns = options.maxRuns ?? 1000;
    this.#maxBytes = options.maxBytes ?? 256 * MiB;
    this.#idleMs = options.idleMs ?? 30_000;
    this.#maxHeld = options.maxHeld ?? 10_000;
    this.#maxPendingBytes = options.maxPendingBytes ?? 64 * MiB;
    this.#importDelayMs = options.importDelayMs ?? 0;
    this.#spill = options.spill;
    this.#single = options.stream;
    this.#importOptions = options.importOptions ?? {};
  }

  get busy(): boolean {
    return this.#pendingBytes > this.#maxPendingBytes;
  }

  get closed(): boolean {
    return this.#closed;
  }

  // Bound, as `getSnapshot`: `useSyncExternalStore(registry.subscribe, registry.getSnapshot)`.
  subscribe = (listener: () => void): (() => void) => this.#listeners.subscribe(listener);

  getSnapshot = (): OtlpRunsSnapshot => {
    if (this.#snapshot !== null) return this.#snapshot;
    const runs = [...this.#runs.values()]
      .sort((a, b) => b.firstSeen - a.firstSeen || (a.key.id < b.key.id ? -1 : 1))
      .map((r) => r.info);
    return (this.#snapshot = { runs, version: this.#version, bytes: this.#bytes });
  };

  get(id: string): OtlpRun | undefined {
    return this.#runs.get(id) ?? this.#gone.get(id)?.deref();
  }

  ingestTraces(request: unknown, bytes = 0): OtlpIngestResult {
    const resources = listOf(request, 'resourceSpans');
    if (this.#closed) return closedResult(countItems(resources, 'scopeSpans', 'spans'));
    const now = this.#now();
    // Pass 1: the conversation or session each trace names in this request.
    // Each span's trace key, in the order pass 2 walks them (read once).
    const groups = new Map<string, OtlpRunKey | undefined>();
    const traceKeys: string[] = [];
    for (const r of resources) {
      const resourceGroup = groupOf(attributesOf(field(r, 'resource')));
      for (const sc of listOf(r, 'scopeSpans'))
        for (const s of listOf(sc, 'spans')) {
          const trace = idKey(field(s, 'traceId'));
          traceKeys.push(trace);
          const group = strongerGroup(groupOf(field(s, 'attributes')), resourceGroup);
          if (group !== undefined) groups.set(trace, strongerGroup(groups.get(trace), group));
        }
    }
    // Pass 2: each span to its run, duplicates dropped.
    const batches = new Map<Run, Batch>();
    let accepted = 0;
    let rejected = 0;
    let duplicates = 0;
    let total = 0;
    resources.forEach((r, ri) => {
      const service = rawAttribute(attributesOf(field(r, 'resource')), 'service.name') ?? null;
      listOf(r, 'scopeSpans').forEach((sc, si) => {
        for (const s of listOf(sc, 'spans')) {
          const trace = traceKeys[total++]!;
          const span = idKey(field(s, 'spanId'));
          if (trace === '' || span === '') {
            rejected++;
            continue;
          }
          const run = this.#runForTrace(trace, groups.get(trace), now);
          if (!run.seen.addSpan(trace, span)) {
            duplicates++;
            run.duplicates++;
            continue;
          }
          accepted++;
          run.spans++;
          if (run.service === null) run.service = service;
          const status = field(s, 'status');
          const code = field(status, 'code');
          if (code === 2 || code === 'STATUS_CODE_ERROR') run.errors++;
          const name = field(s, 'name');
          const parent = idKey(field(s, 'parentSpanId'));
          if (parent === '' || parent === span) run.hasRoot = true;
          if (typeof name === 'string' && name !== '' && !run.rootNamed) {
            if (parent === '') {
              run.name = name;
              run.rootNamed = true;
            } else if (run.name === '') run.name = name;
          }
          run.noteTime(field(s, 'startTimeUnixNano'));
          add(batches, run, ri, si, s);
        }
      });
    });
    this.#commit(resources, 'scopeSpans', 'spans', batches, bytes, total, now);
    return result(accepted, rejected, duplicates, 'spans without a trace id or a span id');
  }

  ingestLogs(request: unknown, bytes = 0): OtlpIngestResult {
    const resources = listOf(request, 'resourceLogs');
    if (this.#closed) return closedResult(countItems(resources, 'scopeLogs', 'logRecords'));
    const now = this.#now();
    const batches = new Map<Run, Batch>();
    let accepted = 0;
    let duplicates = 0;
    let total = 0;
    resources.forEach((r, ri) => {
      const resourceAttributes = attributesOf(field(r, 'resource'));
      const resourceGroup = groupOf(resourceAttributes);
      const service = rawAttribute(resourceAttributes, 'service.name') ?? null;
      listOf(r, 'scopeLogs').forEach((sc, si) => {
        for (const lr of listOf(sc, 'logRecords')) {
          total++;
          const trace = idKey(field(lr, 'traceId'));
          const group = strongerGroup(groupOf(field(lr, 'attributes')), resourceGroup);
          const run =
            trace !== ''
              ? this.#runForTrace(trace, group, now)
              : this.#runOf(group ?? serviceKey(resourceAttributes), now);
          if (!run.seen.addLog(hash(safeJson(lr)))) {
            duplicates++;
            run.duplicates++;
            continue;
          }
          accepted++;
          run.logs++;
          if (run.service === null) run.service = service;
          if (run.name === '') {
            const name = field(lr, 'eventName');
            if (typeof name === 'string' && name !== '') run.name = name;
          }
          run.noteTime(field(lr, 'timeUnixNano') ?? field(lr, 'observedTimeUnixNano'));
          add(batches, run, ri, si, lr);
        }
      });
    });
    this.#commit(resources, 'scopeLogs', 'logRecords', batches, bytes, total, now);
    return result(accepted, 0, duplicates, '');
  }

  /** Pushes each run's part of a request as one record, and schedules the imports. */
  #commit(
    resources: unknown[],
    scopesKey: string,
    itemsKey: string,
    batches: Map<Run, Batch>,
    bytes: number,
    total: number,
    now: number,
  ): void {
    const resourcesKey = scopesKey === 'scopeSpans' ? 'resourceSpans' : 'resourceLogs';
    for (const [run, batch] of batches) {
      const record = { [resourcesKey]: recordOf(resources, scopesKey, itemsKey, batch.parts) };
      const share = total > 0 ? Math.round((bytes * batch.count) / total) : 0;
      run.push(record);
      run.bytes += share;
      run.pendingBytes += share;
      this.#bytes += share;
      this.#pendingBytes += share;
      run.lastSeen = now;
      if (run.status === 'ended') run.status = 'live';
      run.dirty = true;
      run.changed();
      this.#spill?.record(run.info, record);
    }
    if (batches.size > 0) {
      this.#changed();
      this.#scheduleImport(this.#importDelayMs);
      this.#scheduleIdle();
      this.#evict();
    }
  }

  #runForTrace(trace: string, group: OtlpRunKey | undefined, now: number): Run {
    let run = this.#traceRuns.get(trace);
    if (run !== undefined && run.status === 'evicted') run = undefined;
    if (run === undefined) {
      run = this.#runOf(group ?? runKey('trace', trace), now);
      this.#traceRuns.set(trace, run);
      run.traces.push(trace);
      return run;
    }
    // A trace seen alone that now names a conversation or session joins it.
    if (group !== undefined && run.key.kind === 'trace' && this.#single === undefined) {
      const target = this.#runOf(group, now);
      this.#merge(run, target);
      return target;
    }
    return run;
  }

  #runOf(key: OtlpRunKey, now: number): Run {
    if (this.#single !== undefined) {
      let run = this.#runs.get('all');
      if (run === undefined) {
        run = new Run(
          { kind: 'all', key: 'all', id: 'all' },
          this.#single,
          this.#importOptions,
          now,
        );
        this.#runs.set('all', run);
      }
      return run;
    }
    let run = this.#runs.get(key.id);
    if (run === undefined) {
      run = new Run(key, new EventStream(), this.#importOptions, now);
      this.#runs.set(key.id, run);
      this.#gone.delete(key.id);
    }
    return run;
  }

  /** Moves everything of `from` (a trace's run) into `to`. */
  #merge(from: Run, to: Run): void {
    for (const record of from.importer.records as object[]) {
      to.push(record);
      if (this.#spill !== undefined) this.#spill.record(to.info, record);
    }
    to.seen.addAll(from.seen);
    for (const trace of from.traces) {
      to.traces.push(trace);
      this.#traceRuns.set(trace, to);
    }
    to.spans += from.spans;
    to.logs += from.logs;
    to.errors += from.errors;
    to.duplicates += from.duplicates;
    to.bytes += from.bytes;
    to.pendingBytes += from.pendingBytes;
    to.firstSeen = Math.min(to.firstSeen, from.firstSeen);
    if (from.startTime !== null) to.noteTime(`${from.startTime}000000`);
    if (!to.rootNamed && from.name !== '') {
      to.name = from.name;
      to.rootNamed = from.rootNamed;
    }
    to.service ??= from.service;
    to.dirty = true;
    to.changed();
    from.status = 'merged';
    from.mergedInto = to.key.id;
    from.dirty = false;
    from.changed();
    this.#runs.delete(from.key.id);
    this.#gone.set(from.key.id, new WeakRef(from));
    from.stream.close();
    this.#changed();
  }

  #changed(): void {
    this.#version++;
    this.#snapshot = null;
    this.#listeners.schedule();
  }

  #scheduleImport(delay: number): void {
    if (this.#importTimer !== null || this.#closed) return;
    this.#importTimer = unref(
      setTimeout(() => {
        this.#importTimer = null;
        this.#importDue();
      }, delay),
    );
  }

  #importDue(): void {
    const now = this.#now();
    let next = Number.POSITIVE_INFINITY;
    for (const run of this.#runs.values()) {
      if (!run.dirty) continue;
      if (this.#waitsForRoot(run)) this.#defer(run);
      else if (run.nextImportAt > now) next = Math.min(next, run.nextImportAt);
      else this.#import(run);
    }
    if (next !== Number.POSITIVE_INFINITY) this.#scheduleImport(next - now);
  }

  /**
   * A trace's run whose root has not come, with no log records: importing it
   * now would hand out nothing (every span waits for its parent; a log record
   * may be a record of its own, handed out at once). An exporter sends a
   * span when it ends, so a trace's children come before its root, often in
   * earlier requests; and the root is what names a conversation, which the
   * run then joins (its records read again there). So its import waits for
   * the root, a flush, its end, or `maxHeld` spans (released then as ever).
   */
  #waitsForRoot(run: Run): boolean {
    return (
      run.key.kind === 'trace' &&
      !run.hasRoot &&
      run.logs === 0 &&
      run.spans <= this.#maxHeld &&
      this.#single === undefined
    );
  }

  #defer(run: Run): void {
    // Not behind: its bytes leave the backlog that makes exporters wait (429).
    this.#pendingBytes -= run.pendingBytes;
    run.pendingBytes = 0;
    if (run.deferred) return;
    run.deferred = true;
    run.changed();
    this.#changed();
  }

  flush(): void {
    for (const run of this.#runs.values()) if (run.dirty) this.#import(run);
  }

  #import(run: Run): void {
    run.deferred = false;
    const t0 = this.#now();
    run.append(run.importer.flush());
    if (run.importer.held > this.#maxHeld) run.append(run.importer.release());
    const took = this.#now() - t0;
    run.nextImportAt = this.#now() + 2 * took;
    run.dirty = false;
    this.#pendingBytes -= run.pendingBytes;
    run.pendingBytes = 0;
    run.changed();
    this.#changed();
  }

  #scheduleIdle(): void {
    if (this.#idleTimer !== null || this.#closed) return;
    this.#idleTimer = unref(
      setTimeout(
        () => {
          this.#idleTimer = null;
          this.#sweep();
        },
        Math.min(this.#idleMs, 1000),
      ),
    );
  }

  /** Ends the runs quiet for `idleMs`; goes on while some run is live. */
  #sweep(): void {
    const now = this.#now();
    let live = false;
    for (const run of this.#runs.values()) {
      if (run.status !== 'live') continue;
      if (now - run.lastSeen >= this.#idleMs) this.#end(run);
      else live = true;
    }
    if (live) this.#scheduleIdle();
  }

  end(id: string): void {
    const run = this.#runs.get(id);
    if (run !== undefined && run.status === 'live') this.#end(run);
  }

  #end(run: Run): void {
    if (run.dirty) this.#import(run);
    run.append(run.importer.release());
    run.status = 'ended';
    run.changed();
    this.#changed();
  }

  #evict(): void {
    while (
      this.#runs.size > this.#maxRuns ||
      (this.#bytes > this.#maxBytes && this.#runs.size > 1)
    ) {
      let victim: Run | undefined;
      for (const run of this.#runs.values()) {
        if (victim === undefined) victim = run;
        else {
          const endedFirst = Number(victim.status === 'live') - Number(run.status === 'live');
          if (endedFirst > 0 || (endedFirst === 0 && run.lastSeen < victim.lastSeen)) victim = run;
        }
      }
      if (victim === undefined) return;
      if (victim.dirty) this.#import(victim);
      this.#runs.delete(victim.key.id);
      for (const trace of victim.traces)
        if (this.#traceRuns.get(trace) === victim) this.#traceRuns.delete(trace);
      this.#bytes -= victim.bytes;
      victim.status = 'evicted';
      victim.changed();
      this.#gone.set(victim.key.id, new WeakRef(victim));
      this.#spill?.evicted?.(victim.info);
      this.#changed();
    }
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const t of [this.#importTimer, this.#idleTimer])
      if (t !== null) clearTimeout(t as ReturnType<typeof setTimeout>);
    this.#importTimer = this.#idleTimer = null;
    for (const run of this.#runs.values()) {
      run.append(run.importer.end());
      run.deferred = false;
      run.stream.close();
      if (run.status === 'live') run.status = 'ended';
      run.dirty = false;
      run.changed();
    }
    this.#pendingBytes = 0;
    this.#changed();
  }
}
