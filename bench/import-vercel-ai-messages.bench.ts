import { importUIMessages } from '../src/core/import/vercel-ai/vercel-ai.js';
import { makeUIMessagesJson } from './adapter-sources.js';
import { defineFormatBench } from './import-format.js';

/** `core.import.vercel-ai-messages.<n>`: stored `UIMessage[]` (one JSON document, n parts) through `importUIMessages`, as a ratio to JSON.parse. */
export default defineFormatBench({
  name: 'core.import.vercel-ai-messages',
  unit: 'parts',
  encoding: 'json',
  make: makeUIMessagesJson,
  run: (text) => importUIMessages(text).events.length,
});
