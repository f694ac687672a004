import { importUIMessages } from '../src/core/import/vercel-ai/vercel-ai.js';
import { makeUIMessagesJson } from './adapter-sources.js';
import { defineFormatBench } from './import-format.js';

/** `core.import.vercel-ai-messages.<n>`: stored `UIMessage[]` (one JSON document, n parts) through `importUIMessages`, as a ratio to JSON.parse. */
export default defineFormatBench({
  name: 'core.import.vercel-ai-messages',
  unit: 'parts',
  encoding: 'json',
  make: makeUIMessagesJson,
  // A record is a part (n counts parts; a message holds many): the floor is
  // one frozen event per part, as the importer's is about one per part.
  records: (doc) => (doc as { parts: unknown[] }[]).flatMap((m) => m.parts),
  run: (text) => importUIMessages(text).events.length,
});
