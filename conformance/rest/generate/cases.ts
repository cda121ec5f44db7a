// The generated requests of one operation, as fast-check arbitraries: valid requests (every optional
// parameter on and off, ids the world knows), requests that each break exactly one constraint, and the
// credential variants. Edge cases (bounds, every enum value, an empty and a full array) are listed
// separately so they run first, before the random ones.
import fc from 'fast-check';
import type { OperationSpec, ParamSpec } from './operation-specs.js';
import type { Credentials, GeneratedRequest } from './request.js';
import { mergeAllOf } from '../../../workbench/contract/model.js';
import { edgeValues, typesOf, valueArbitrary, type JsonSchema } from './schema-arbitrary.js';
import { isIdName, type World } from './world.js';

/** Request bodies above this are refused with 413 by the workbench; 2 MiB is over any usual limit. */
const OVERSIZED_BYTES = 2 * 1024 * 1024;
let oversized: string | undefined;
/** The 2 MiB body, built once per process: every operation with a body gets the same bytes. */
const oversizedBody = () => (oversized ??= JSON.stringify({ padding: 'x'.repeat(OVERSIZED_BYTES) }));

type Parts = Pick<GeneratedRequest, 'pathParams' | 'query' | 'headers' | 'body' | 'unknownIds'>;

/** A value of a parameter as it travels: text, or repeated text for an exploded array. */
function encode(param: ParamSpec, value: unknown): string | string[] | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) {
    const texts = value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
    return param.explode && param.in === 'query' ? texts : texts.join(',');
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function paramArbitrary(op: OperationSpec, param: ParamSpec, world: World): { arb: fc.Arbitrary<unknown>; known: boolean } {
  const known = isIdName(param.name) || param.in === 'path' ? world.values(op.operationId, param.in, param.name) : [];
  if (known.length) return { arb: typesOf(param.schema).includes('array') ? fc.subarray(known, { minLength: 1 }) : fc.constantFrom(...known), known: true };
  return { arb: valueArbitrary(param.schema), known: false };
}

function bodyArbitrary(op: OperationSpec, world: World): { arb: fc.Arbitrary<unknown>; unknownIds: boolean } {
  const schema = mergeAllOf(op.body!.schema);
  const properties = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
  let unknownIds = false;
  const overrides: Record<string, fc.Arbitrary<unknown>> = {};
  for (const name of Object.keys(properties)) {
    if (!isIdName(name)) continue;
    const known = world.values(op.operationId, 'body', name);
    if (known.length) overrides[name] = fc.constantFrom(...known);
    else if (((schema.required as string[] | undefined) ?? []).includes(name)) unknownIds = true;
  }
  const base = valueArbitrary(schema);
  if (!Object.keys(overrides).length) return { arb: base, unknownIds };
  return {
    arb: fc.tuple(base, fc.record(overrides)).map(([value, ids]) => (value && typeof value === 'object' ? { ...(value as object), ...ids } : value)),
    unknownIds,
  };
}

/** Valid requests of the operation (with the run's credentials). */
export function validRequests(op: OperationSpec, world: World): fc.Arbitrary<GeneratedRequest> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  let unknownIds = false;
  // Path parameters the world knows together (a variant and its product) are drawn together.
  const tuples = world.pathTuples(op.operationId);
  if (tuples.length) model['path:*'] = fc.constantFrom(...tuples);
  for (const param of op.params) {
    if (tuples.length && param.in === 'path') continue;
    const { arb, known } = paramArbitrary(op, param, world);
    if (param.in === 'path' && !known) unknownIds = true;
    model[`${param.in}:${param.name}`] = param.required ? arb : fc.option(arb, { nil: undefined, freq: 2 });
  }
  const body = op.body ? bodyArbitrary(op, world) : undefined;
  if (body?.unknownIds) unknownIds = true;
  if (body) model['body:'] = op.body!.required ? body.arb : fc.option(body.arb, { nil: undefined });
  return fc.record(model).map((values) => assemble(op, values, unknownIds));
}

function assemble(op: OperationSpec, values: Record<string, unknown>, unknownIds: boolean): GeneratedRequest {
  const parts: Parts = { pathParams: {}, query: {}, headers: {}, unknownIds };
  const together = values['path:*'] as Record<string, string> | undefined;
  for (const param of op.params) {
    if (param.in === 'path' && together) {
      parts.pathParams[param.name] = together[param.name];
      continue;
    }
    const text = encode(param, values[`${param.in}:${param.name}`]);
    if (param.in === 'path') parts.pathParams[param.name] = String(text ?? '');
    else if (param.in === 'query') parts.query[param.name] = text;
    else parts.headers[param.name] = Array.isArray(text) ? text.join(',') : text;
  }
  if (values['body:'] !== undefined) parts.body = { json: values['body:'] };
  return { kind: 'valid', label: 'valid request', credentials: 'valid', expect: 'accepted', ...parts };
}

/**
 * Edge cases, each a minimal valid request (required parts only) with one parameter set to one of its
 * edge values; plus the request with every optional parameter left out.
 */
export function edgeRequests(op: OperationSpec, world: World, seed: number): GeneratedRequest[] {
  const [minimal] = fc.sample(validRequests(op, world).map(withoutOptional(op)), { numRuns: 1, seed });
  if (!minimal) return [];
  const out: GeneratedRequest[] = [{ ...minimal, label: 'valid: required parameters only' }];
  for (const param of op.params) {
    if (param.in === 'path' || (isIdName(param.name) && world.values(op.operationId, param.in, param.name).length)) continue;
    for (const value of edgeValues(param.schema)) {
      const text = encode(param, value);
      const req: GeneratedRequest = { ...minimal, query: { ...minimal.query }, headers: { ...minimal.headers }, label: `valid: ${param.name}=${JSON.stringify(value)}` };
      if (param.in === 'query') req.query[param.name] = text;
      else req.headers[param.name] = Array.isArray(text) ? text.join(',') : text;
      out.push(req);
    }
  }
  return out;
}

function withoutOptional(op: OperationSpec) {
  return (req: GeneratedRequest): GeneratedRequest => {
    const query = { ...req.query };
    const headers = { ...req.headers };
    for (const p of op.params) {
      if (p.required) continue;
      if (p.in === 'query') query[p.name] = undefined;
      if (p.in === 'header') headers[p.name] = undefined;
    }
    return { ...req, query, headers };
  };
}

/** One broken constraint: applied to a valid request, it makes the request invalid in that one way. */
export interface Violation {
  label: string;
  expect: GeneratedRequest['expect'];
  /** The constraint is designed here (not stated by the platform): a server that differs is advised. */
  designed: boolean;
  apply(req: GeneratedRequest): GeneratedRequest;
}

/** Every single-constraint violation the operation's parameters and body allow. */
export function violationsOf(op: OperationSpec): Violation[] {
  const out: Violation[] = [];
  for (const param of op.params) {
    if (param.in === 'path') continue;
    const set = (value: string | undefined, label: string, designed = param.designed): Violation => ({
      label: `${param.name}: ${label}`,
      expect: 400,
      designed,
      apply: (req) =>
        param.in === 'query'
          ? { ...req, query: { ...req.query, [param.name]: value } }
          : { ...req, headers: { ...req.headers, [param.name]: value } },
    });
    if (param.required) out.push(set(undefined, 'required, left out'));
    for (const [label, value, designedHere] of scalarViolations(param.schema)) out.push(set(value, label, param.designed || designedHere));
  }
  if (op.body) {
    const schema = mergeAllOf(op.body.schema);
    const body = (label: string, expect: Violation['expect'], designed: boolean, raw: string, contentType = 'application/json'): Violation => ({
      label: `body: ${label}`,
      expect,
      designed,
      apply: (req) => ({ ...req, body: { raw, contentType } }),
    });
    const designedStatus = (status: string) => op.designedStatuses.includes(status);
    out.push(body('malformed JSON', 400, designedStatus('400'), '{"broken": '));
    out.push(body('not an object (a JSON array)', 400, designedStatus('400'), '[]'));
    out.push(body('sent as text/plain', 415, true, '{}', 'text/plain'));
    out.push(body(`oversized (${OVERSIZED_BYTES / 1024 / 1024} MiB)`, 413, true, oversizedBody()));
    const properties = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
    for (const name of (schema.required as string[] | undefined) ?? []) {
      out.push({
        label: `body.${name}: required, left out`,
        expect: 400,
        designed: designedStatus('400'),
        apply: (req) => ({ ...req, body: { json: omit(jsonOf(req), name) } }),
      });
    }
    for (const [name, sub] of Object.entries(properties)) {
      const wrong = wrongTypeValue(sub);
      if (wrong !== undefined) {
        out.push({
          label: `body.${name}: wrong type`,
          expect: 400,
          designed: designedStatus('400'),
          apply: (req) => ({ ...req, body: { json: { ...jsonObject(req), [name]: wrong } } }),
        });
      }
      if (typeof sub.pattern === 'string') {
        const bad = notMatching(sub.pattern);
        if (bad !== undefined) {
          out.push({ label: `body.${name}: does not match ${sub.pattern}`, expect: 400, designed: designedStatus('400') || sub['x-contract-source'] === 'inferred', apply: (req) => ({ ...req, body: { json: { ...jsonObject(req), [name]: bad } } }) });
        }
      }
    }
  }
  return out;
}

function jsonOf(req: GeneratedRequest): unknown {
  return req.body && 'json' in req.body ? req.body.json : {};
}

function jsonObject(req: GeneratedRequest): Record<string, unknown> {
  const v = jsonOf(req);
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function omit(value: unknown, key: string): unknown {
  if (!value || typeof value !== 'object') return value;
  const { [key]: _gone, ...rest } = value as Record<string, unknown>;
  return rest;
}

/** Texts that break a query or header parameter's schema, each with what it breaks. */
function scalarViolations(input: JsonSchema): Array<[string, string, boolean]> {
  const schema = mergeAllOf(input);
  const types = typesOf(schema);
  const out: Array<[string, string, boolean]> = [];
  const designed = schema['x-contract-source'] === 'inferred';
  if (types.includes('integer') || types.includes('number')) {
    out.push(['not a number', 'abc', designed]);
    if (typeof schema.minimum === 'number') out.push([`below the minimum ${schema.minimum}`, String(schema.minimum - 1), designed]);
    if (typeof schema.maximum === 'number') out.push([`above the maximum ${schema.maximum}`, String(schema.maximum + 1), designed]);
    if (types.includes('integer')) out.push(['not a whole number', '1.5', designed]);
  } else if (types.includes('boolean')) {
    out.push(['not a boolean', 'maybe', designed]);
  } else if (Array.isArray(schema.enum)) {
    out.push(['not one of the enum values', 'sfc-not-in-enum', designed]);
  } else if (schema.contentMediaType === 'application/json') {
    const content = (schema.contentSchema as JsonSchema | undefined) ?? {};
    const names = content.propertyNames as JsonSchema | undefined;
    const field = (names?.enum as string[] | undefined)?.[0] ?? 'name';
    out.push(['malformed JSON text', `{"${field}":`, designed]);
    out.push(['JSON but not an object', `["${field}"]`, designed]);
    out.push(['a direction other than asc or desc', `{"${field}":"upward"}`, designed]);
    if (names?.enum) out.push(['a field the list does not sort on', '{"sfc_unknown_field":"asc"}', names['x-contract-source'] === 'inferred']);
  } else if (types.includes('string') || types.length === 0) {
    if (typeof schema.maxLength === 'number') out.push([`longer than ${schema.maxLength}`, 'x'.repeat(schema.maxLength + 1), designed]);
    if (typeof schema.minLength === 'number' && schema.minLength > 0) out.push([`shorter than ${schema.minLength}`, 'x'.repeat(schema.minLength - 1), designed]);
    if (typeof schema.pattern === 'string') {
      const bad = notMatching(schema.pattern);
      if (bad !== undefined) out.push([`does not match ${schema.pattern}`, bad, designed]);
    }
  }
  return out;
}

function wrongTypeValue(input: JsonSchema): unknown {
  const types = typesOf(mergeAllOf(input));
  if (!types.length) return undefined;
  if (types.includes('string')) return types.includes('object') ? undefined : { not: 'a string' };
  if (types.includes('object')) return 'not an object';
  if (types.includes('array')) return 'not an array';
  return 'not a number or boolean';
}

function notMatching(pattern: string): string | undefined {
  const re = new RegExp(pattern);
  return ['sfc not matching', '!', '', '{}x'].find((c) => !re.test(c));
}

/** A valid request made invalid by one violation. */
export function breaking(req: GeneratedRequest, v: Violation): GeneratedRequest {
  return { ...v.apply(req), kind: 'invalid', label: v.label, expect: v.expect, designed: v.designed };
}

/** A valid request sent with one credential variant. */
export function withCredentials(req: GeneratedRequest, v: CredentialVariant): GeneratedRequest {
  return { ...req, kind: 'security', label: v.label, credentials: v.credentials, expect: 401 };
}

/** Requests breaking one of `violations` each (none: the operation has nothing to break). */
export function invalidRequests(valid: fc.Arbitrary<GeneratedRequest>, violations: Violation[]): fc.Arbitrary<GeneratedRequest> | undefined {
  return violations.length ? fc.tuple(valid, fc.constantFrom(...violations)).map(([req, v]) => breaking(req, v)) : undefined;
}

/** Requests with one of `variants` as credentials each (none: the operation is anonymous). */
export function securityRequests(valid: fc.Arbitrary<GeneratedRequest>, variants: CredentialVariant[]): fc.Arbitrary<GeneratedRequest> | undefined {
  return variants.length ? fc.tuple(valid, fc.constantFrom(...variants)).map(([req, v]) => withCredentials(req, v)) : undefined;
}

export interface CredentialVariant {
  credentials: Credentials;
  label: string;
}

/** The credential variants of an operation that needs credentials: each must be refused. */
export function credentialVariants(op: OperationSpec): CredentialVariant[] {
  if (!op.security.length) return [];
  const bearer = op.security.some((s) => s.kind === 'bearer');
  return [
    { credentials: 'none', label: 'no credentials' },
    { credentials: 'malformed', label: bearer ? 'Authorization: Basic instead of Bearer' : 'a malformed API key' },
    { credentials: 'unknown', label: bearer ? 'a bearer token the server never issued' : 'an API key of no store' },
    ...(bearer ? [{ credentials: 'other-scheme' as const, label: 'the store API key instead of a bearer token' }] : []),
  ];
}
