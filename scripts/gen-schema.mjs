// Generates schema/events.schema.json, the JSON Schema of the canonical event
// union (`Event` in src/core/events/types.ts), with ts-json-schema-generator.
// The file is checked in; test/core/schema.test.ts regenerates it in memory
// and fails when it is stale. Run: `npm run schema`.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createGenerator } from 'ts-json-schema-generator';

const root = fileURLToPath(new URL('..', import.meta.url));
export const schemaFile = `${root}schema/events.schema.json`;

/** Builds the schema object (also used by the staleness test). */
export function buildEventSchema() {
  const generator = createGenerator({
    path: `${root}src/core/events/types.ts`,
    tsconfig: `${root}src/core/tsconfig.json`,
    type: 'Event',
    expose: 'export',
    topRef: true,
    jsDoc: 'extended',
    sortProps: true,
    // The project's own typecheck covers the types; skipping it here keeps
    // the generator fast and independent of unrelated files.
    skipTypeCheck: true,
    additionalProperties: true,
  });
  const schema = generator.createSchema('Event');
  dropTypeOnlyKeys(schema);
  schema.$id = 'https://skein.dev/schema/events.schema.json';
  schema.title = 'skein canonical event';
  schema.description =
    "skein's canonical event: inspect_ai's 23 kinds, skein's `message` and `display`, or an unknown kind kept as is. Generated from src/core/events/types.ts by scripts/gen-schema.mjs; do not edit.";
  return schema;
}

/**
 * Removes symbol-keyed properties (the generator names them `__@name@id`):
 * they are type-only brands (UnknownEvent's), never on the wire.
 */
function dropTypeOnlyKeys(node) {
  if (Array.isArray(node)) return node.forEach(dropTypeOnlyKeys);
  if (node === null || typeof node !== 'object') return;
  if (node.properties && typeof node.properties === 'object') {
    for (const key of Object.keys(node.properties)) {
      if (!key.startsWith('__@')) continue;
      delete node.properties[key];
      if (Array.isArray(node.required)) node.required = node.required.filter((k) => k !== key);
    }
  }
  for (const value of Object.values(node)) dropTypeOnlyKeys(value);
}

/** The file's text: stable key order, two-space indent, trailing newline. */
export function renderEventSchema() {
  return `${JSON.stringify(buildEventSchema(), null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(schemaFile, renderEventSchema());
  process.stdout.write(`wrote ${schemaFile}\n`);
}
