import { fromAgUi } from '../src/core/import/ag-ui/ag-ui.ts';
import { fromUIMessageStream } from '../src/core/import/vercel-ai/vercel-ai.ts';
import { makeAgUiLines, makeUIChunkLines } from '../bench/adapter-sources.ts';
const which = process.argv[2];
const events = (which === 'v' ? makeUIChunkLines(30000) : makeAgUiLines(30000)).split('\n').map((l) => JSON.parse(l));
for (let r = 0; r < 4; r++) {
  const t = performance.now();
  const a = which === 'v' ? fromUIMessageStream({ schedule: () => {}, now: () => 0 }) : fromAgUi({ schedule: () => {}, now: () => 0 });
  for (const e of events) { a.push(e); a.flush(); }
  a.end();
  console.log(which, Math.round(events.length / ((performance.now() - t) / 1000)), '/s');
}
