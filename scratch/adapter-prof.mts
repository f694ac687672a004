import { fromAgUi } from '../src/core/import/ag-ui/ag-ui.ts';
import { makeAgUiLines } from '../bench/adapter-sources.ts';
const n = Number(process.argv[2] ?? 20000);
const events = makeAgUiLines(n).split('\n').map((l) => JSON.parse(l));
for (const flushEach of [true, false]) {
  const t = performance.now();
  const a = fromAgUi({ schedule: () => {}, now: () => 0 });
  for (const e of events) { a.push(e); if (flushEach) a.flush(); }
  a.end();
  console.log('flushEach', flushEach, events.length, 'events', Math.round(events.length / ((performance.now() - t) / 1000)), '/s');
}
import { importDefect } from '../src/core/import/defect/defect.ts';
import { makeDefectLog } from '../bench/import-defect.bench.ts';
import { importAgUi } from '../src/core/import/ag-ui/ag-ui.ts';
const dl = makeDefectLog(20000);
let t = performance.now(); importDefect(dl); console.log('defect import /s', Math.round(20000 / ((performance.now() - t) / 1000)));
const al = makeAgUiLines(20000);
t = performance.now(); importAgUi(al); console.log('agui import /s', Math.round(20000 / ((performance.now() - t) / 1000)));
t = performance.now(); al.split('\n').map((l) => JSON.parse(l)); console.log('agui JSON.parse /s', Math.round(20000 / ((performance.now() - t) / 1000)));
