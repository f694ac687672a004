import { importAgUi } from '../src/core/import/ag-ui/ag-ui.ts';
import { makeAgUiLines } from '../bench/adapter-sources.ts';
const al = makeAgUiLines(50000);
for (let i = 0; i < 3; i++) { const t = performance.now(); importAgUi(al); console.log('agui import /s', Math.round(50000 / ((performance.now() - t) / 1000))); }
