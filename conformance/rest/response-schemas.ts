// What the spec says about a place in a response body: the response schema of an operation and status,
// read from the spec's YAML files as written ($refs followed on demand, files read once), and the
// questions rules ask of a schema node: which properties it declares, and whether it is a free-form map
// (its keys are data, such as `metadata` or `associated_options`, not part of the contract).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { getPointer } from 'storefront-contract/contract';
import { documents } from '../../workbench/contract/files.js';

/** A schema node and the file it was read from (its $refs are relative to it). */
export interface SchemaNode {
  node: Record<string, unknown>;
  file: string;
}

/** The schema at a place in a body: every node that applies there (allOf members, merged properties). */
export type Schema = SchemaNode[];

const files = new Map<string, unknown>();

function readYaml(file: string): unknown {
  if (!files.has(file)) files.set(file, YAML.parse(readFileSync(file, 'utf8')));
  return files.get(file);
}

function resolve(node: unknown, file: string): SchemaNode | undefined {
  let at = node;
  let where = file;
  for (let hops = 0; at && typeof at === 'object' && typeof (at as { $ref?: unknown }).$ref === 'string'; hops++) {
    if (hops > 32) return undefined;
    const [target, pointer = ''] = ((at as { $ref: string }).$ref).split('#');
    if (target) where = path.resolve(path.dirname(where), target);
    at = getPointer(readYaml(where), pointer);
  }
  return at && typeof at === 'object' ? { node: at as Record<string, unknown>, file: where } : undefined;
}

const child = (parent: SchemaNode, value: unknown) => resolve(value, parent.file);

let operations: Map<string, SchemaNode> | undefined;

function operationsById(): Map<string, SchemaNode> {
  if (operations) return operations;
  operations = new Map();
  const doc = { node: readYaml(documents.storefront) as Record<string, unknown>, file: documents.storefront };
  for (const item of Object.values((doc.node.paths ?? {}) as Record<string, unknown>)) {
    const pathItem = child(doc, item);
    if (!pathItem) continue;
    for (const op of Object.values(pathItem.node)) {
      const operation = child(pathItem, op);
      const id = operation?.node.operationId;
      if (operation && typeof id === 'string') operations.set(id, operation);
    }
  }
  return operations;
}

const schemas = new Map<string, Schema | undefined>();

/** The JSON schema of the storefront response `operationId` answers with `status`, if documented. */
export function responseSchemaOf(operationId: string, status: number): Schema | undefined {
  const key = `${operationId} ${status}`;
  if (!schemas.has(key)) {
    const operation = operationsById().get(operationId);
    const responses = operation && child(operation, operation.node.responses);
    const code = String(status);
    const response = responses && child(responses, responses.node[code] ?? responses.node[`${code[0]}XX`] ?? responses.node.default);
    const media = response && child(response, response.node.content);
    const json = media && child(media, media.node['application/json']);
    const schema = json && child(json, json.node.schema);
    schemas.set(key, schema && [schema]);
  }
  return schemas.get(key);
}

/** Every node a schema stands for: its nodes and, transitively, their allOf / oneOf / anyOf members. */
function members(schema: Schema): SchemaNode[] {
  const seen = new Set<unknown>();
  const out: SchemaNode[] = [];
  const visit = (s: SchemaNode) => {
    if (seen.has(s.node)) return;
    seen.add(s.node);
    out.push(s);
    for (const key of ['allOf', 'oneOf', 'anyOf']) {
      const list = s.node[key];
      if (!Array.isArray(list)) continue;
      for (const m of list) {
        const resolved = child(s, m);
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
    const props = m.node.properties as Record<string, unknown> | undefined;
    const resolved = props && key in props ? child(m, props[key]) : undefined;
    return resolved ? [resolved] : [];
  });
  if (declared.length) return declared;
  const values = all.flatMap((m) => {
    const extra = m.node.additionalProperties;
    const resolved = extra && typeof extra === 'object' ? child(m, extra) : undefined;
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
    const resolved = m.node.items && typeof m.node.items === 'object' ? child(m, m.node.items) : undefined;
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
  const declares = all.some((m) => m.node.properties && Object.keys(m.node.properties as object).length > 0);
  const objectLike = all.some((m) => m.node.type === 'object' || (Array.isArray(m.node.type) && m.node.type.includes('object')) || m.node.additionalProperties !== undefined);
  return objectLike && !declares;
}
