// One helper for every importer test (STYLE.md §14): import a file, check the
// front door agrees with and without its name, check every event is canonical
// and survives a JSON round trip, and give a compact dump to snapshot.
import { expect } from 'vitest';
import {
  EventStream,
  detectFormat,
  importAny,
  parseEvents,
  type FormatId,
  type ImportResult,
} from '../../../src/index.js';
import { replayEvents } from '../../../src/core/stream/replay.js';

/** A compact, machine-independent text dump of an import: the replay plus the diagnostics by code. */
export function dumpImport(result: ImportResult): string {
  const counts = new Map<string, number>();
  for (const d of result.diagnostics) counts.set(d.code, (counts.get(d.code) ?? 0) + 1);
  const diag = [...counts].map(([c, n]) => `${c}×${n}`).join(' ');
  return `${replayEvents(EventStream.from(result.events).latest())}\n-- diagnostics: ${diag || 'none'}\n`;
}

/**
 * Imports `input` as a user would (`importAny`), and checks: the format is
 * `format` with and without the file name; no diagnostic is an error-level
 * surprise unless allowed; every event is canonical (re-parsing gives no
 * diagnostics) and round-trips through JSON.
 */
export async function checkImport(
  input: string | Uint8Array | unknown,
  format: FormatId,
  options: { filename?: string; allowDiagnostics?: readonly string[] } = {},
): Promise<ImportResult & { dump: string }> {
  expect(detectFormat(input).format, 'detected without a file name').toBe(format);
  if (options.filename)
    expect(
      detectFormat(input, { filename: options.filename }).format,
      'detected with its name',
    ).toBe(format);
  const result = await importAny(input, { filename: options.filename });
  expect(result.format).toBe(format);
  const allowed = new Set(['value_invented', ...(options.allowDiagnostics ?? [])]);
  const unexpected = result.diagnostics.filter(
    (d) => d.severity === 'warning' && !allowed.has(d.code),
  );
  expect(unexpected, 'warnings').toEqual([]);
  for (const e of result.events) expect(Object.isFrozen(e)).toBe(true);
  const again = parseEvents(JSON.parse(JSON.stringify(result.events)) as unknown[]);
  expect(again.diagnostics, 'importer output is canonical').toEqual([]);
  expect(again.events).toEqual(result.events);
  return { ...result, dump: dumpImport(result) };
}
