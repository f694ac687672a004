// inspect_ai logs behind the one front door: the sniff reads only the head
// (a zip's directory, or the first 64 KiB of a `.json`), and the import opens
// the log and loads one sample (the first, or `options.sample`/`epoch`).
// The full API — header, every sample summary, lazy loading — stays
// `importInspectLog` (inspect-log.ts).
import { isRecord } from '../guards.js';
import type { FormatImporter, ImportResult } from '../format.js';
import { importInspectLog, isInspectLog } from './inspect-log.js';

const encoder = new TextEncoder();

/**
 * inspect_ai `.eval` and `.json` logs.
 *
 * @example
 * import { inspectFormat } from './inspect-format.js';
 * import { Probe } from '../probe.js';
 * declare const bytes: Uint8Array; // an .eval file
 * const { events, samples } = await inspectFormat.import(new Probe(bytes), { sample: 2 });
 */
export const inspectFormat: FormatImporter = {
  id: 'inspect',
  name: 'inspect_ai log',
  extensions: ['.eval', '.json'],
  detect(probe) {
    const bytes = probe.bytes;
    if (bytes) return isInspectLog(bytes);
    if (probe.isRaw) {
      const head = probe.head();
      return head.startsWith('{') && /"version"\s*:/.test(head) && /"eval"\s*:/.test(head);
    }
    const doc = probe.json();
    return isRecord(doc) && 'version' in doc && isRecord(doc['eval']);
  },
  async import(probe, options): Promise<ImportResult> {
    const bytes =
      probe.bytes ??
      encoder.encode(probe.isRaw ? (probe.text() ?? '') : JSON.stringify(probe.json()));
    const log = await importInspectLog(bytes, options);
    const samples = log.samples.map((s) => ({ id: s.id, epoch: s.epoch }));
    // No sample named: the first one, or (with an epoch) the first sample's id at that epoch.
    const first = samples[0];
    const chosen =
      options.sample !== undefined
        ? { id: options.sample, epoch: options.epoch ?? 1 }
        : first && options.epoch !== undefined
          ? { id: first.id, epoch: options.epoch }
          : first;
    if (!chosen)
      return { format: 'inspect', events: [], diagnostics: [...log.diagnostics], samples };
    const { events, diagnostics } = await log.sample(chosen.id, chosen.epoch);
    return {
      format: 'inspect',
      events: [...events],
      diagnostics: [...log.diagnostics, ...diagnostics],
      samples,
    };
  },
};
