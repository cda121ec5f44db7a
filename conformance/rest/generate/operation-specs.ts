// What request generation needs to know of each operation, taken from the contract model (the document
// read and dereferenced once per process, workbench/contract/model.ts): its parameters with their
// schemas, its JSON body, its security, its documented statuses and the `links` its responses declare
// (how ids produced by one answer feed later requests).
import { documents } from '../../../workbench/contract/files.js';
import { loadDocument } from '../../../workbench/contract/model.js';
import type { JsonSchema } from './schema-arbitrary.js';

export type ParamPlace = 'path' | 'query' | 'header';

export interface ParamSpec {
  name: string;
  in: ParamPlace;
  required: boolean;
  schema: JsonSchema;
  /** Arrays in the query: `name=a&name=b` (form, explode: the OpenAPI default) or `name=a,b`. */
  explode: boolean;
  /** Marked `x-contract-source: inferred`: designed here, not stated by the platform. */
  designed: boolean;
}

export interface LinkSpec {
  /** The status whose answer declares the link. */
  status: string;
  name: string;
  operationId: string;
  /** Parameter name -> runtime expression (`$response.body#/content/id`, `$request.path.id`). */
  parameters: Record<string, string>;
  /** Body member -> runtime expression (a `requestBody` object whose values are `{$...}` expressions). */
  body: Record<string, string>;
  /** Security scheme -> runtime expression of its credential (`x-security`, spec/extensions.md). */
  security: Record<string, string>;
}

export type SecurityKind = { kind: 'apiKey'; in: 'header' | 'query'; name: string } | { kind: 'bearer' };

export interface OperationSpec {
  operationId: string;
  method: string;
  /** Inside the API's base path, `{name}` placeholders. */
  path: string;
  params: ParamSpec[];
  body?: { required: boolean; schema: JsonSchema; contentType: string };
  /** The first alternative of `security` (each scheme of it required); [] when anonymous. */
  security: SecurityKind[];
  /** Documented status codes (`200`, `4XX`, `default`). */
  statuses: string[];
  /** Statuses whose response is designed here (`x-contract-source: inferred`). */
  designedStatuses: string[];
  /** The first documented 2XX. */
  successStatus: number;
  links: LinkSpec[];
}

/** Every operation of the document (default: the storefront's), in path order. */
export async function loadOperationSpecs(documentFile: string = documents.storefront): Promise<OperationSpec[]> {
  const doc = await loadDocument(documentFile);
  const out: OperationSpec[] = [];
  for (const op of doc.operations) {
    if (!op.definition.operationId) continue;
    const params = toParamSpecs(op.parameters);
    const requirement = op.security[0] ?? {};
    const security: SecurityKind[] = Object.keys(requirement).map((name) => {
      const s = doc.securitySchemes[name] ?? {};
      if (s.type === 'apiKey') return { kind: 'apiKey', in: s.in === 'query' ? 'query' : 'header', name: s.name ?? name };
      return { kind: 'bearer' };
    });
    type Link = { operationId?: string; parameters?: Record<string, string>; requestBody?: unknown; 'x-security'?: Record<string, string> };
    const responses = op.responses as Record<string, { 'x-contract-source'?: string; links?: Record<string, Link> }>;
    const statuses = Object.keys(responses);
    const links: LinkSpec[] = [];
    for (const [status, response] of Object.entries(responses)) {
      for (const [name, link] of Object.entries(response?.links ?? {})) {
        if (!link.operationId) continue;
        const body: Record<string, string> = {};
        if (link.requestBody && typeof link.requestBody === 'object') {
          for (const [member, value] of Object.entries(link.requestBody)) if (typeof value === 'string') body[member] = value.replace(/^\{(.*)\}$/, '$1');
        }
        links.push({ status, name, operationId: link.operationId, parameters: { ...(link.parameters ?? {}) }, body, security: { ...(link['x-security'] ?? {}) } });
      }
    }
    const rb = op.requestBody as { required?: boolean; content?: Record<string, { schema?: JsonSchema }> } | undefined;
    const json = rb?.content && Object.entries(rb.content).find(([type]) => /json/i.test(type));
    out.push({
      operationId: op.operationId,
      method: op.method,
      path: op.path,
      params,
      body: json ? { required: rb?.required === true, schema: json[1].schema ?? {}, contentType: json[0] } : undefined,
      security,
      statuses,
      designedStatuses: statuses.filter((s) => responses[s]?.['x-contract-source'] === 'inferred'),
      successStatus: Number(statuses.find((s) => /^2\d\d$/.test(s)) ?? 200),
      links,
    });
  }
  return out;
}

/** The model's merged parameters (path, query, header) as generation needs them. */
function toParamSpecs(parameters: Array<Record<string, unknown>>): ParamSpec[] {
  const byKey = new Map<string, ParamSpec>();
  for (const raw of parameters) {    const place = raw.in as string;
    if (place !== 'path' && place !== 'query' && place !== 'header') continue;
    const name = String(raw.name);
    byKey.set(`${place}:${name.toLowerCase()}`, {
      name,
      in: place,
      required: place === 'path' || raw.required === true,
      schema: (raw.schema as JsonSchema | undefined) ?? { type: 'string' },
      explode: raw.explode !== false && (raw.style === undefined || raw.style === 'form'),
      designed: raw['x-contract-source'] === 'inferred' || (raw.schema as JsonSchema | undefined)?.['x-contract-source'] === 'inferred',
    });
  }
  return [...byKey.values()];
}

/** True for a documented status (exact code, its class `4XX`, or `default`). */
export function isDocumented(op: OperationSpec, status: number): boolean {
  return op.statuses.includes(String(status)) || op.statuses.includes(`${String(status)[0]}XX`) || op.statuses.includes('default');
}
