// What the spec says about a place in a response body: the response schema of an operation and status,
// from the contract model's storefront document (read and dereferenced once per process), and the
// questions rules ask of a schema node: which properties it declares, and whether it is a free-form map
// (its keys are data, such as `metadata` or `associated_options`, not part of the contract).
import { contractModel, type JsonObject } from '../../workbench/contract/model.js';

/** A schema node of the dereferenced document. */
export type SchemaNode = Record<string, unknown>;

/** The schema at a place in a body: every node that applies there (allOf members, merged properties). */
export type Schema = SchemaNode[];

// Loaded before any rule runs (rules judge synchronously); the model reads the document once per process.
const storefront = await contractModel('storefront');

const node = (value: unknown): SchemaNode | undefined => (value && typeof value === 'object' ? (value as SchemaNode) : undefined);

const schemas = new Map<string, Schema | undefined>();

/** The JSON schema of the storefront response `operationId` answers with `status`, if documented. */
export function responseSchemaOf(operationId: string, status: number): Schema | undefined {
  const key = `${operationId} ${status}`;
  if (!schemas.has(key)) {
    const responses: Record<string, JsonObject> = storefront.operation(operationId)?.responses ?? {};
    const code = String(status);
    const response = responses[code] ?? responses[`${code[0]}XX`] ?? responses.default;
    const schema = node(response?.content?.['application/json']?.schema);
    schemas.set(key, schema && [schema]);
  }
  return schemas.get(key);
}

/** Every node a schema stands for: its nodes and, transitively, their allOf / oneOf / anyOf members. */
function members(schema: Schema): SchemaNode[] {
  const seen = new Set<unknown>();
  const out: SchemaNode[] = [];
  const visit = (s: SchemaNode) => {
    if (seen.has(s)) return;
    seen.add(s);
    out.push(s);
    for (const key of ['allOf', 'oneOf', 'anyOf']) {
      const list = s[key];
      if (!Array.isArray(list)) continue;
      for (const m of list) {
        const resolved = node(m);
        if (resolved) visit(resolved);
      }
    }
  };
  schema.forEach(visit);
  return out;
}

// Answers per schema, kept: every exchange walks the same schemas, and a cached answer is the same array
// each time, so the walk one level down hits the cache too (certify spends its rule time here otherwise).
const byProperty = new WeakMap<Schema, Map<string, Schema | undefined>>();
const byItems = new WeakMap<Schema, Schema | undefined>();
const freeForm = new WeakMap<Schema, boolean>();

/** The schema of `key` inside an object: every member's declared property, else the map's value schema. */
export function propertySchema(schema: Schema | undefined, key: string): Schema | undefined {
  if (!schema) return undefined;
  let known = byProperty.get(schema);
  if (!known) byProperty.set(schema, (known = new Map()));
  if (!known.has(key)) known.set(key, findPropertySchema(schema, key));
  return known.get(key);
}

function findPropertySchema(schema: Schema, key: string): Schema | undefined {
  const all = members(schema);
  const declared = all.flatMap((m) => {
    const props = m.properties as Record<string, unknown> | undefined;
    const resolved = props && key in props ? node(props[key]) : undefined;
    return resolved ? [resolved] : [];
  });
  if (declared.length) return declared;
  const values = all.flatMap((m) => {
    const resolved = node(m.additionalProperties);
    return resolved ? [resolved] : [];
  });
  return values.length ? values : undefined;
}

export function itemSchema(schema: Schema | undefined): Schema | undefined {
  if (!schema) return undefined;
  if (!byItems.has(schema)) byItems.set(schema, findItemSchema(schema));
  return byItems.get(schema);
}

function findItemSchema(schema: Schema): Schema | undefined {
  const items = members(schema).flatMap((m) => {
    const resolved = node(m.items);
    return resolved ? [resolved] : [];
  });
  return items.length ? items : undefined;
}

/** An object whose keys are data: no member declares a property (additionalProperties true, a value schema, or nothing). */
export function isFreeFormMap(schema: Schema | undefined): boolean {
  if (!schema) return false;
  if (!freeForm.has(schema)) freeForm.set(schema, findFreeFormMap(schema));
  return freeForm.get(schema)!;
}

function findFreeFormMap(schema: Schema): boolean {
  const all = members(schema);
  const declares = all.some((m) => m.properties && Object.keys(m.properties as object).length > 0);
  const objectLike = all.some((m) => m.type === 'object' || (Array.isArray(m.type) && m.type.includes('object')) || m.additionalProperties !== undefined);
  return objectLike && !declares;
}
