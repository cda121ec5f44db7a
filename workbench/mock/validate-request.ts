// Validates parameters and JSON bodies against the operation's schemas (JSON Schema 2020-12, as the
// documents declare) and reports each offending input by name. Prism validates as draft-07 and
// answers with its own problem+json or a static example, so the front validates instead.
import type { RequestHeaders } from '../engine/exchange.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { describeError, relevantErrors } from 'storefront-contract/validators';
import { compile } from './ajv.js';
import { describeItems, MockHttpError, type ErrorItem, type ErrorLocation } from '../http/errors.js';
import type { JsonObject, OperationModel } from './spec-model.js';

interface ParamCheck {
  name: string;
  location: ErrorLocation;
  required: boolean;
  /** Array parameter: every occurrence is an item (form, explode) or one comma list (explode: false). */
  array?: { explode: boolean; itemTypes: string[] };
  types: string[];
  /** The value is JSON text (`content: application/json` or `contentMediaType`); validate the parsed value. */
  json: boolean;
  schema: object;
  /** `contentMediaType` parameters: the string's own keywords (a `pattern`), checked on the text once the value is valid. */
  text?: JsonObject;
  textCompiled?: ValidateFunction;
  /** Compiled on first use: most requests send few parameters, and start-up stays short. */
  compiled?: ValidateFunction;
}

const checksByOperation = new WeakMap<OperationModel, ParamCheck[]>();

function checksFor(op: OperationModel): ParamCheck[] {
  let checks = checksByOperation.get(op);
  if (checks) return checks;
  checks = [];
  for (const p of op.parameters) {
    if (p.in !== 'query' && p.in !== 'path' && p.in !== 'header') continue;
    const jsonContent = p.content && Object.entries<JsonObject>(p.content).find(([m]) => /json/i.test(m))?.[1];
    let schema: JsonObject = jsonContent?.schema ?? p.schema ?? {};
    let json = !!jsonContent;
    let text: JsonObject | undefined;
    if (!json && schema.contentMediaType && /json/i.test(schema.contentMediaType) && schema.contentSchema) {
      // 2020-12 describes "a string holding JSON" this way; Ajv does not enforce contentSchema itself.
      // The string's own keywords still hold: sort_by's pattern refuses JSON a parser takes (a tab, a
      // `\u` escape), and the server must accept exactly what the pattern does.
      const { contentMediaType: _m, contentSchema, ...own } = schema;
      if (Object.keys(own).some((k) => k !== 'type' && k !== 'description' && !k.startsWith('x-'))) text = own;
      schema = contentSchema;
      json = true;
    }
    const types = typesOf(schema);
    checks.push({
      name: p.name,
      location: p.in,
      required: p.required === true || p.in === 'path',
      array: !json && types.includes('array') ? { explode: p.explode ?? (p.style ?? 'form') === 'form', itemTypes: typesOf(schema.items ?? {}) } : undefined,
      types,
      json,
      schema,
      text,
    });
  }
  checksByOperation.set(op, checks);
  return checks;
}

/** Throws the 400 envelope naming every invalid parameter. */
export function validateParameters(
  op: OperationModel,
  pathParams: Record<string, string>,
  query: URLSearchParams,
  headers: RequestHeaders,
): void {
  const checks = checksFor(op);
  if (checks.length === 0) return;
  const items: ErrorItem[] = [];
  for (const check of checks) {
    const raw = rawValues(check, pathParams, query, headers);
    if (raw.length === 0) {
      if (check.required) items.push({ location: check.location, name: check.name, message: 'is required' });
      continue;
    }
    let value: unknown;
    if (check.array) {
      const parts = check.array.explode ? raw : raw.flatMap((r) => r.split(','));
      value = parts.map((v) => coerce(v, check.array!.itemTypes));
    } else if (raw.length > 1 && check.location === 'query') {
      items.push({ location: check.location, name: check.name, message: 'must be given once' });
      continue;
    } else if (check.json) {
      try {
        value = JSON.parse(raw[0]);
      } catch {
        items.push({ location: check.location, name: check.name, message: `must be JSON text (got ${quote(raw[0])})` });
        continue;
      }
    } else {
      value = coerce(raw[0], check.types);
    }
    check.compiled ??= compile(check.schema);
    if (!check.compiled(value)) {
      // A propertyNames failure is reported once, by the key's own error below it.
      for (const e of relevantErrors(check.compiled.errors ?? []).filter((x) => x.keyword !== 'propertyNames')) {
        const { segments: path, message } = describeError(e);
        const got = e.keyword === 'type' && path.length === 0 && !check.json ? ` (got ${quote(raw.join(','))})` : '';
        items.push({ location: check.location, name: check.name, message: path.length ? `property '${path.join('.')}' ${message}` : `${message}${got}` });
      }
    } else if (check.text) {
      check.textCompiled ??= compile(check.text);
      if (!check.textCompiled(raw[0])) {
        // Ajv's pattern message repeats the whole pattern (hundreds of characters for sort_by).
        const first = check.textCompiled.errors![0];
        const message = first.keyword === 'pattern' ? "must match the parameter's pattern" : describeError(first).message;
        items.push({ location: check.location, name: check.name, message: `${message} (got ${quote(raw[0])})` });
      }
    }
  }
  if (items.length) throw invalid(op, 'invalid_parameter', `Invalid request: ${describeItems(items)}.`, items);
}

/** Throws the 400 envelope naming every invalid body field. */
export function validateBody(op: OperationModel, mediaType: string, body: unknown): void {
  const schema = op.requestBody?.content?.[mediaType]?.schema;
  if (!schema) return;
  const validate = compile(schema);
  if (validate(body)) return;
  const items: ErrorItem[] = (relevantErrors(validate.errors ?? []) as ErrorObject[]).slice(0, 20).map((e) => {
    const { segments: path, message } = describeError(e);
    // An empty PATCH: what it may change, in words.
    const said = e.keyword === 'minProperties' && fieldsOf(e.parentSchema).length ? `must give at least ${e.params.limit} of its fields (${fieldsOf(e.parentSchema).join(', ')})` : `${message}${fieldsHint(e)}`;
    return { location: 'body', name: path.join('.') || '(body)', message: said };
  });
  throw invalid(op, 'invalid_body', `Invalid request body: ${describeItems(items)}.`, items);
}

/**
 * What a closed object takes, after an unknown field: ` (fields: name, short_description, ...)` from the
 * schema the error came from (Ajv's `verbose` gives it), its allOf parts included; '' for any other error.
 */
function fieldsHint(e: ErrorObject): string {
  if (e.keyword !== 'additionalProperties' && e.keyword !== 'unevaluatedProperties') return '';
  const fields = fieldsOf(e.parentSchema);
  return fields.length ? ` (fields: ${fields.join(', ')})` : '';
}

function fieldsOf(schema: unknown, depth = 0): string[] {
  if (!schema || typeof schema !== 'object' || depth > 4) return [];
  const s = schema as JsonObject;
  const own = s.properties && typeof s.properties === 'object' ? Object.keys(s.properties) : [];
  const parts = Array.isArray(s.allOf) ? s.allOf.flatMap((part: unknown) => fieldsOf(part, depth + 1)) : [];
  return [...new Set([...parts, ...own])];
}

/** The contract documents 400 for bad input; a document that uses 422 instead gets 422. */
export function invalidStatus(op: OperationModel): number {
  return op.responses['400'] || !op.responses['422'] ? 400 : 422;
}

export function invalid(op: OperationModel, code: 'invalid_parameter' | 'invalid_body' | 'malformed_json', message: string, items: ErrorItem[]): MockHttpError {
  return new MockHttpError(invalidStatus(op), code, message, items);
}

function rawValues(check: ParamCheck, pathParams: Record<string, string>, query: URLSearchParams, headers: RequestHeaders): string[] {
  if (check.location === 'path') return check.name in pathParams ? [pathParams[check.name]] : [];
  if (check.location === 'query') return query.getAll(check.name);
  const h = headers[check.name.toLowerCase()];
  return h === undefined ? [] : Array.isArray(h) ? h : [h];
}

function typesOf(schema: JsonObject): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (typeof schema.type === 'string') return [schema.type];
  return [];
}

const INTEGER_RE = /^-?\d+$/;
const NUMBER_RE = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Strings from the URL become the type the schema wants when they spell one; else stay strings for Ajv to reject. */
function coerce(raw: string, types: string[]): unknown {
  if (types.includes('string') || types.length === 0) return raw;
  if (types.includes('integer') && INTEGER_RE.test(raw)) return Number(raw);
  if (types.includes('number') && NUMBER_RE.test(raw)) return Number(raw);
  if (types.includes('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  if (types.includes('null') && raw === '') return null;
  return raw;
}

function quote(v: string): string {
  return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
}
