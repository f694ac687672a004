import { importAgUi, importUIMessages } from '../src/index.js';
import { agUiRun } from '../test/core/helpers/ag-ui-runs.ts';
const run = agUiRun({ start: 1767225600000, tokens: 3, tools: 2 }) as any[];
const deep = (d: number) => '['.repeat(d) + '1' + ']'.repeat(d);
// put a deep value in every field of each record in turn
let worst = 0;
for (let i = 0; i < run.length; i++) {
  for (const key of Object.keys(run[i])) {
    const lines = run.map((r) => JSON.stringify(r));
    const rec = { ...run[i], [key]: '@@D@@' };
    lines[i] = JSON.stringify(rec).replace('"@@D@@"', deep(3200));
    const t = performance.now();
    try { importAgUi(lines.join('\n')); } catch (e) { console.log('THROW', i, run[i].type, key, String(e).slice(0, 100)); console.log((e as Error).stack?.split('\n').slice(0, 12).join('\n')); process.exit(0); }
    worst = Math.max(worst, performance.now() - t);
  }
}
console.log('no throw; worst ms', worst);
