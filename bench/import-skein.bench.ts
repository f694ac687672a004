import { generateRun } from '../src/core/generate/generate-run.js';
import { importAny } from '../src/core/import/index.js';
import { defineFormatBench } from './import-format.js';

/**
 * `core.import.skein.<n>`: skein's own canonical JSON Lines through the front
 * door (detection + parse), as a ratio to line-by-line JSON.parse.
 */
export default defineFormatBench({
  name: 'core.import.skein',
  encoding: 'jsonl',
  make: (n) =>
    generateRun({ seed: 5, events: n, pendingRate: 0 })
      .map((e) => JSON.stringify(e))
      .join('\n'),
  run: async (text) => (await importAny(text)).events.length,
});
