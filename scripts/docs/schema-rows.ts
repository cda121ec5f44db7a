// Turns a dereferenced JSON Schema into the rows of a field table: one row per field, nested fields
// under their parent (`payload.properties.order_items[].sku`), with the type, whether it is required,
// the description, an example and the element's provenance. `allOf` is merged first, so a message's
// payload (the envelope narrowed to one event) reads as one object instead of "AllOf" placeholders.
import { PROVENANCE, type JsonObject, type Provenance } from './provenance.js';

export interface FieldRow {
  path: string;
  depth: number;
  type: string;
  required: boolean;
  description: string;
  example?: string;
  provenance?: Provenance;
}

const isObject = (v: unknown): v is JsonObject => !!v && typeof v === 'object' && !Array.isArray(v);

/** Merges `allOf` (recursively, properties deep-merged) into one schema; the outer schema wins on conflicts. */
export function mergeAllOf(schema: JsonObject, seen = new Set<JsonObject>()): JsonObject {
  if (!isObject(schema) || seen.has(schema)) return schema;
  if (!Array.isArray(schema.allOf)) return schema;
  seen.add(schema);
  const { allOf, ...own } = schema;
  let merged: JsonObject = {};
  for (const part of allOf as JsonObject[]) merged = mergeTwo(merged, mergeAllOf(part, seen));
  seen.delete(schema);
  return mergeTwo(merged, own);
}

function mergeTwo(base: JsonObject, over: JsonObject): JsonObject {
  const out: JsonObject = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (key === 'properties' && isObject(base.properties) && isObject(value)) {
      const props: JsonObject = { ...base.properties };
      for (const [name, sub] of Object.entries(value)) props[name] = props[name] ? mergeTwo(mergeAllOf(props[name]), mergeAllOf(sub as JsonObject)) : sub;
      out.properties = props;
    } else if (key === 'required' && Array.isArray(base.required) && Array.isArray(value)) {
      out.required = [...new Set([...base.required, ...value])];
    } else if (value !== undefined && !(key === 'description' && !value)) {
      out[key] = value;
    }
  }
  return out;
}

/** `anyOf`/`oneOf` of one schema and `null` is a nullable schema; returns the non-null part and the flag. */
function unwrapNullable(schema: JsonObject): { schema: JsonObject; nullable: boolean } {
  for (const key of ['anyOf', 'oneOf'] as const) {
    const variants = schema[key];
    if (Array.isArray(variants) && variants.length === 2) {
      const nonNull = variants.filter((v: JsonObject) => !(v?.type === 'null'));
      if (nonNull.length === 1) {
        const { [key]: _drop, ...rest } = schema;
        return { schema: mergeTwo(mergeAllOf(nonNull[0]), rest), nullable: true };
      }
    }
  }
  return { schema, nullable: false };
}

function baseType(schema: JsonObject): string {
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const named = types.filter((t: string) => t !== 'null');
  let label = named.length ? named.join(' | ') : schema.properties ? 'object' : schema.items ? 'array' : 'any';
  if (named.includes('array') && isObject(schema.items)) label = `array of ${typeLabel(mergeAllOf(schema.items))}`;
  if (schema.format) label += ` (${schema.format})`;
  return label;
}

/** A short type for a table cell: `string (date-time) | null`, `array of object`, `"order.created"`. */
export function typeLabel(raw: JsonObject): string {
  const { schema, nullable } = unwrapNullable(mergeAllOf(raw));
  let label: string;
  if (schema.const !== undefined) label = `${JSON.stringify(schema.const)}`;
  else if (Array.isArray(schema.oneOf ?? schema.anyOf)) label = (schema.oneOf ?? schema.anyOf).map((v: JsonObject) => typeLabel(v)).join(' or ');
  else label = baseType(schema);
  if (Array.isArray(schema.enum)) label += `, one of ${schema.enum.map((v: unknown) => JSON.stringify(v)).join(', ')}`;
  const types = Array.isArray(schema.type) ? schema.type : [];
  if (nullable || types.includes('null')) label += ' | null';
  return label;
}

/** The example instance's value when there is one (it belongs to this event), else the schema's own. */
function exampleOf(schema: JsonObject, fromInstance: unknown): string | undefined {
  const value = fromInstance !== undefined ? fromInstance : Array.isArray(schema.examples) ? schema.examples[0] : schema.example;
  if (value === undefined || isObject(value) || (Array.isArray(value) && value.some((v) => typeof v === 'object'))) return undefined;
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

const childInstance = (instance: unknown, key: string) => (isObject(instance) ? instance[key] : undefined);
const firstItem = (instance: unknown) => (Array.isArray(instance) ? instance[0] : undefined);

interface Walk {
  rows: FieldRow[];
  stack: Set<JsonObject>;
  maxDepth: number;
}

function walkObject(schema: JsonObject, prefix: string, depth: number, instance: unknown, w: Walk): void {
  if (depth > w.maxDepth || w.stack.has(schema)) return;
  w.stack.add(schema);
  const required = new Set<string>(Array.isArray(schema.required) ? schema.required : []);
  for (const [name, sub] of Object.entries<JsonObject>(schema.properties ?? {})) {
    addField(sub, prefix ? `${prefix}.${name}` : name, depth, required.has(name), childInstance(instance, name), w);
  }
  if (isObject(schema.additionalProperties)) {
    const declared = new Set(Object.keys(schema.properties ?? {}));
    const key = Object.keys(isObject(instance) ? instance : {}).find((k) => !declared.has(k));
    addField(schema.additionalProperties, prefix ? `${prefix}.{key}` : '{key}', depth, false, key ? childInstance(instance, key) : undefined, w);
  }
  w.stack.delete(schema);
}

function addField(raw: JsonObject, path: string, depth: number, required: boolean, instance: unknown, w: Walk): void {
  const merged = mergeAllOf(raw);
  const { schema } = unwrapNullable(merged);
  w.rows.push({
    path,
    depth,
    type: typeLabel(merged),
    required,
    description: String(merged.description ?? schema.description ?? '').trim(),
    example: exampleOf(schema, instance),
    provenance: merged[PROVENANCE] ?? raw[PROVENANCE],
  });
  expand(schema, path, depth + 1, instance, w);
}

function expand(schema: JsonObject, path: string, depth: number, instance: unknown, w: Walk): void {
  if (schema.properties || isObject(schema.additionalProperties)) walkObject(schema, path, depth, instance, w);
  else if (isObject(schema.items)) {
    const items = unwrapNullable(mergeAllOf(schema.items)).schema;
    if (items.properties || isObject(items.additionalProperties)) walkObject(items, `${path}[]`, depth, firstItem(instance), w);
  } else {
    const variants = schema.oneOf ?? schema.anyOf;
    if (Array.isArray(variants)) {
      for (const v of variants) {
        const m = mergeAllOf(v);
        if (m.properties) walkObject(m, path, depth, instance, w);
      }
    }
  }
}

/** The field rows of an object schema; `instance` (an example) fills examples the schema lacks. */
export function fieldRows(schema: JsonObject, instance?: unknown, maxDepth = 8): FieldRow[] {
  const w: Walk = { rows: [], stack: new Set(), maxDepth };
  walkObject(unwrapNullable(mergeAllOf(schema)).schema, '', 0, instance, w);
  return w.rows;
}
