// A minimal JSON Schema (draft-07) checker for the keywords that
// ts-json-schema-generator emits for the event types: $ref, anyOf, type,
// const, enum, properties, required, additionalProperties, items (schema or
// tuple), minItems, maxItems. Enough to validate parsed events against
// schema/events.schema.json without adding a validator dependency.

type Schema = Record<string, unknown>;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Returns the list of problems (empty when `value` conforms). */
export function checkSchema(
  root: Schema,
  value: unknown,
  schema: Schema = root,
  path = '$',
): string[] {
  if (typeof schema.$ref === 'string') {
    const name = decodeURIComponent(schema.$ref.replace('#/definitions/', ''));
    const target = (root.definitions as Record<string, Schema>)[name];
    if (!target) return [`${path}: unknown $ref ${schema.$ref}`];
    return checkSchema(root, value, target, path);
  }
  const problems: string[] = [];
  if (Array.isArray(schema.anyOf)) {
    const branches = (schema.anyOf as Schema[]).map((s) => checkSchema(root, value, s, path));
    if (branches.every((b) => b.length > 0)) {
      problems.push(`${path}: matches no anyOf branch (${branches.map((b) => b[0]).join(' / ')})`);
    }
  }
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    const actual = typeOf(value);
    if (!types.includes(actual) && !(actual === 'integer' && types.includes('number'))) {
      return [...problems, `${path}: expected ${types.join('|')}, got ${actual}`];
    }
  }
  if ('const' in schema && value !== schema.const)
    problems.push(`${path}: expected ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.includes(value))
    problems.push(`${path}: not in enum`);
  if (typeOf(value) === 'object') {
    const object = value as Record<string, unknown>;
    for (const key of (schema.required as string[] | undefined) ?? []) {
      if (!(key in object)) problems.push(`${path}.${key}: required`);
    }
    const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
    for (const [key, child] of Object.entries(object)) {
      const sub = properties[key];
      if (sub) problems.push(...checkSchema(root, child, sub, `${path}.${key}`));
      else if (schema.additionalProperties === false) problems.push(`${path}.${key}: not allowed`);
      else if (typeof schema.additionalProperties === 'object') {
        problems.push(
          ...checkSchema(root, child, schema.additionalProperties as Schema, `${path}.${key}`),
        );
      }
    }
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems)
      problems.push(`${path}: too short`);
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems)
      problems.push(`${path}: too long`);
    if (Array.isArray(schema.items)) {
      (schema.items as Schema[]).forEach((s, i) => {
        if (i < value.length) problems.push(...checkSchema(root, value[i], s, `${path}[${i}]`));
      });
    } else if (schema.items && typeof schema.items === 'object') {
      value.forEach((v, i) =>
        problems.push(...checkSchema(root, v, schema.items as Schema, `${path}[${i}]`)),
      );
    }
  }
  return problems;
}
