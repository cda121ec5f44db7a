// The front's view of an OpenAPI document: each operation of the contract model (read once per process,
// workbench/contract/model.ts) with what the hot path needs beside it: its security schemes resolved and
// the default (first 2XX, first named example) response pre-serialized. Prism reads the same model.
import { loadDocument, type ContractDocument, type ContractOperation, type JsonObject } from '../contract/model.js';

export type { JsonObject };

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
  /** The dereferenced document (the contract model's; do not mutate). */
  raw: JsonObject;
  /** The contract model the operations come from. */
  contract: ContractDocument;
}

const built = new WeakMap<ContractDocument, DocumentModel>();

/** The front's model of the document in `file`: the contract model's (read once per process), built once. */
export async function loadDocumentModel(name: string, file: string): Promise<DocumentModel> {
  const contract = await loadDocument(file, name);
  let model = built.get(contract);
  if (!model) {
    model = { name, file, operations: contract.operations.map((op) => buildOperation(name, op, contract.securitySchemes)), raw: contract.document, contract };
    built.set(contract, model);
  }
  return model;
}

function buildOperation(document: string, op: ContractOperation, schemes: Record<string, JsonObject>): OperationModel {
  const security = op.security.map((req) =>
    Object.keys(req).map((id) => {
      const s = schemes[id] ?? {};
      return { id, type: s.type, in: s.in, name: s.name, scheme: typeof s.scheme === 'string' ? s.scheme.toLowerCase() : undefined };
    }),
  );
  const model: OperationModel = {
    document,
    method: op.method,
    path: op.path,
    operationId: op.operationId,
    parameters: op.parameters,
    requestBody: op.requestBody,
    security,
    responses: op.responses,
    deprecated: op.deprecated,
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
