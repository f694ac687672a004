import { importUIMessages } from '../src/core/import/vercel-ai/vercel-ai.js';
import { makeUIChunkLines } from './adapter-sources.js';
import { defineFormatBench } from './import-format.js';

/** `core.import.vercel-ai.<n>`: a recorded UI message stream (JSON Lines of chunks) through `importUIMessages`, as a ratio to line-by-line JSON.parse. */
export default defineFormatBench({
  name: 'core.import.vercel-ai',
  encoding: 'jsonl',
  make: makeUIChunkLines,
  run: (text) => importUIMessages(text).events.length,
});
