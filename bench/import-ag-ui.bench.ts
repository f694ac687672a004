import { importAgUi } from '../src/core/import/ag-ui/ag-ui.js';
import { makeAgUiLines } from './adapter-sources.js';
import { defineFormatBench } from './import-format.js';

/** `core.import.ag-ui.<n>`: a recorded AG-UI run (JSON Lines) through `importAgUi`, as a ratio to line-by-line JSON.parse. */
export default defineFormatBench({
  name: 'core.import.ag-ui',
  encoding: 'jsonl',
  make: makeAgUiLines,
  run: (text) => importAgUi(text).events.length,
});
