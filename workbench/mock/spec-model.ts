// Reads an OpenAPI document once and turns each operation into the small record the front needs:
// its path template, parameters, body, security and the default (first 2XX, first named example)
// response pre-serialized. Prism gets the same file separately; this model only drives the front.
import $RefParser from '@apidevtools/json-schema-ref-parser';

export type JsonObject = Record<string, any>;

export interface SecurityScheme {
  /** Key in components.securitySchemes, e.g. `ApiKeyAuth`. */
  id: string;
  type: string;
  /** apiKey: where and what it is called. */
  in?: string;
  name?: string;
  /** http: `bearer`, `basic`. */
  scheme?: string;
}

export interface CachedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface OperationModel {
  document: string;
  method: string;
  path: string;
  operationId: string;
  /** Literal segments as strings, parameters as `{ param }`. */
  segments: Array<string | { param: string }>;
  parameters: JsonObject[];
  requestBody?: JsonObject;
  /** Alternatives (OR) of requirements (AND); empty means public. */
  security: SecurityScheme[][];
  responses: Record<string, JsonObject>;
  deprecated: boolean;
  /** The deterministic default answer, or undefined when only Prism can build it. */
  defaultResponse?: CachedResponse;
}

export interface DocumentModel {
  name: string;
  file: string;
  operations: OperationModel[];
  raw: JsonObject;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export async function loadDocumentModel(name: string, file: string): Promise<DocumentModel> {
  // circular: 'ignore' keeps recursive schemas as $ref instead of failing; the contract has none today.
  const raw = (await $RefParser.dereference(file, { dereference: { circular: 'ignore' } })) as JsonObject;
  const schemes: Record<string, JsonObject> = raw.components?.securitySchemes ?? {};
  const operations: OperationModel[] = [];
  for (const [path, item] of Object.entries<JsonObject>(raw.paths ?? {})) {
    if (!item || typeof item !== 'object') continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      operations.push(buildOperation(name, path, method, item, op, raw, schemes));
    }
  }
  return { name, file, operations, raw };
}

function buildOperation(
  document: string,
  path: string,
  method: string,
  item: JsonObject,
  op: JsonObject,
  raw: JsonObject,
  schemes: Record<string, JsonObject>,
): OperationModel {
  // Operation-level parameters override path-level ones with the same name and location.
  const byKey = new Map<string, JsonObject>();
  for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])]) byKey.set(`${p.in}:${p.name}`, p);
  const requirements: JsonObject[] = op.security ?? raw.security ?? [];
  const security = requirements.map((req) =>
    Object.keys(req).map((id) => {
      const s = schemes[id] ?? {};
      return { id, type: s.type, in: s.in, name: s.name, scheme: typeof s.scheme === 'string' ? s.scheme.toLowerCase() : undefined };
    }),
  );
  const model: OperationModel = {
    document,
    method,
    path,
    operationId: op.operationId ?? `${method} ${path}`,
    segments: path
      .split('/')
      .filter(Boolean)
      .map((s) => {
        const m = /^\{(.+)\}$/.exec(s);
        return m ? { param: m[1] } : s;
      }),
    parameters: [...byKey.values()],
    requestBody: op.requestBody,
    security,
    responses: op.responses ?? {},
    deprecated: op.deprecated === true,
  };
  model.defaultResponse = buildDefaultResponse(model);
  return model;
}

/**
 * What Prism answers when nothing is asked for: the lowest 2XX response, its JSON content, the
 * first example. Built here so the hot path never needs Prism; when the response has headers or no
 * example we return undefined and let Prism build (and the front cache) the answer instead.
 * test/mock/controls.test.ts checks this equals Prism's own answer for every operation.
 */
function buildDefaultResponse(op: OperationModel): CachedResponse | undefined {
  const codes = Object.keys(op.responses)
    .filter((c) => /^2\d\d$/.test(c))
    .sort();
  if (codes.length === 0) return undefined;
  const response = op.responses[codes[0]];
  if (response.headers && Object.keys(response.headers).length > 0) return undefined;
  const status = Number(codes[0]);
  const contents: Record<string, JsonObject> = response.content ?? {};
  const mediaType = Object.keys(contents).find((m) => /^application\/(.+\+)?json\b/i.test(m));
  if (!mediaType) return undefined;
  const value = firstExampleValue(contents[mediaType]);
  if (value === undefined) return undefined;
  const headers: Record<string, string> = {};
  if (op.deprecated) headers.deprecation = 'true';
  return { status, headers, body: Buffer.from(JSON.stringify(value)) };
}

export function firstExampleValue(content: JsonObject | undefined): unknown {
  if (!content) return undefined;
  if (content.examples && typeof content.examples === 'object') {
    const first = Object.values<JsonObject>(content.examples)[0];
    if (first && 'value' in first) return first.value;
  }
  return content.example;
}

/** Named examples of a response content, for tests and `Prefer: example=` checks. */
export function exampleNames(op: OperationModel, status: string): string[] {
  const content = op.responses[status]?.content ?? {};
  return Object.values<JsonObject>(content).flatMap((c) => Object.keys(c.examples ?? {}));
}
