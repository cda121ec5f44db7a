// Removes annotation keywords (descriptions, examples, x- extensions...) from the schemas of a
// bundled document before Ajv compiles it. Standalone code embeds the root schema of every
// validation function as a constant, so annotations would otherwise ship as dead weight.
// Only schema positions are touched: a property *named* `description` stays.

const ANNOTATIONS = new Set(['title', 'description', 'examples', 'example', 'default', 'deprecated', 'readOnly', 'writeOnly', '$comment', 'externalDocs', 'xml', 'discriminator']);
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_ONE = ['items', 'additionalItems', 'not', 'if', 'then', 'else', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'propertyNames', 'contains', 'contentSchema'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];

function isObject(value: unknown): value is Record<string, any> {
  return Boolean(value) && typeof value === 'object' && !Array.isArray(value);
}

export function stripSchema(schema: unknown): void {
  if (!isObject(schema)) return;
  for (const key of Object.keys(schema)) if (ANNOTATIONS.has(key) || key.startsWith('x-')) delete schema[key];
  for (const key of SCHEMA_MAPS) if (isObject(schema[key])) for (const sub of Object.values(schema[key])) stripSchema(sub);
  for (const key of SCHEMA_ONE) {
    const sub = schema[key];
    if (Array.isArray(sub)) sub.forEach(stripSchema);
    else stripSchema(sub);
  }
  for (const key of SCHEMA_LISTS) if (Array.isArray(schema[key])) schema[key].forEach(stripSchema);
}

/**
 * A copy of an OpenAPI or AsyncAPI document whose schemas carry no annotations. Schemas live under
 * `schema` (media types, parameters, headers), `components.schemas` and AsyncAPI message `payload`s.
 */
export function withoutAnnotations<T>(doc: T): T {
  const copy = structuredClone(doc);
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'schema' && isObject(value)) stripSchema(value);
      else if (key === 'schemas' && isObject(value)) Object.values(value).forEach(stripSchema);
      else if (key === 'payload' && isObject(value) && !('schemaFormat' in value)) stripSchema(value);
      else visit(value);
    }
  };
  visit(copy);
  return copy;
}
