/** Absolute path of the checked-in schema/events.schema.json. */
export declare const schemaFile: string;
/** The JSON Schema of the canonical `Event` union, generated from src/core/events/types.ts. */
export declare function buildEventSchema(): Record<string, unknown>;
/** The schema file's exact text (what `npm run schema` writes). */
export declare function renderEventSchema(): string;
