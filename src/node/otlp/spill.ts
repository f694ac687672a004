// A run registry's spill to files: every record accepted for a run appended
// to `<dir>/<run>.otlp.jsonl` (one OTLP/JSON export per line, the format the
// OTLP importer reads), so a run evicted from memory, or one received before
// a crash, can be opened again with `skein view <file>`.
import { mkdirSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { OtlpRunInfo, OtlpRunSpill } from '../../core/otlp-runs/types.js';

/**
 * Options of {@link createOtlpFileSpill}.
 *
 * @example
 * import type { OtlpFileSpillOptions } from 'skein/server';
 * const options: OtlpFileSpillOptions = { dir: 'otlp-runs', flushMs: 200 };
 */
export interface OtlpFileSpillOptions {
  /** The folder (made if missing). */
  dir: string;
  /** How long records wait in memory before they are appended, ms. Default 100. */
  flushMs?: number;
}

/**
 * A spill to files, for `createOtlpRunRegistry({ spill })`.
 *
 * @example
 * import { createOtlpRunRegistry } from 'skein';
 * import { createOtlpFileSpill } from 'skein/server';
 * const files = createOtlpFileSpill({ dir: 'otlp-runs' });
 * const registry = createOtlpRunRegistry({ spill: files.spill, maxRuns: 50 });
 * await files.close(); // after registry.close(): everything written
 */
export interface OtlpFileSpill {
  readonly spill: OtlpRunSpill;
  readonly dir: string;
  /** The file of a run. */
  fileOf(runId: string): string;
  /** Writes what waits; resolves when it is on disk. */
  flush(): Promise<void>;
  /** Flushes and stops the timer. */
  close(): Promise<void>;
  /** The last write error, if any (writing goes on for other runs). */
  readonly error: Error | null;
}

/** A file name for a run id: its safe characters and a short hash of the whole id. */
function fileName(id: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  const safe = id.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80);
  return `${safe}-${(h >>> 0).toString(36)}.otlp.jsonl`;
}

/**
 * Appends every record a registry accepts to one JSON Lines file per run
 * (see the top of this file), a batch at a time.
 *
 * @example
 * import { createOtlpRunRegistry } from 'skein';
 * import { createOtlpFileSpill } from 'skein/server';
 * const { spill } = createOtlpFileSpill({ dir: '/var/tmp/skein-runs' });
 * createOtlpRunRegistry({ spill });
 */
export function createOtlpFileSpill(options: OtlpFileSpillOptions): OtlpFileSpill {
  const dir = options.dir;
  mkdirSync(dir, { recursive: true });
  const flushMs = options.flushMs ?? 100;
  const waiting = new Map<string, string[]>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let writing: Promise<void> = Promise.resolve();
  let error: Error | null = null;

  const write = (): Promise<void> => {
    timer = null;
    const batch = [...waiting];
    waiting.clear();
    writing = writing.then(async () => {
      for (const [id, lines] of batch) {
        try {
          await appendFile(join(dir, fileName(id)), lines.join(''));
        } catch (e) {
          error = e as Error;
        }
      }
    });
    return writing;
  };

  const spill: OtlpRunSpill = {
    record(run: OtlpRunInfo, record: object) {
      let lines = waiting.get(run.id);
      if (!lines) waiting.set(run.id, (lines = []));
      lines.push(`${JSON.stringify(record)}\n`);
      if (timer === null) {
        timer = setTimeout(() => void write(), flushMs);
        timer.unref();
      }
    },
  };

  return {
    spill,
    dir,
    fileOf: (id) => join(dir, fileName(id)),
    flush: () => {
      if (timer !== null) clearTimeout(timer);
      return write();
    },
    async close() {
      if (timer !== null) clearTimeout(timer);
      await write();
    },
    get error() {
      return error;
    },
  };
}
