// Operation metadata of an OpenAPI document (method, path, security, bodies, statuses), generated
// so that the client, the mock and the certifier read the spec's facts instead of restating them.
import { getPointer } from '../../src/contract/json-pointer.js';
import { HTTP_METHODS } from './names.js';

export interface OperationInfo {
  operationId: string;
  method: string;
  path: string;
  tags: string[];
  security: string[];
  securityScopes: Record<string, string[]>;
  requestBody: { required: boolean; contentTypes: string[] } | null;
  responses: string[];
  parameters: Array<{ name: string; in: string; required: boolean }>;
}

function resolveLocal(doc: any, node: any): any {
  return node && typeof node.$ref === 'string' && node.$ref.startsWith('#/') ? resolveLocal(doc, getPointer(doc, node.$ref)) : node;
}

export function listOperations(doc: any): OperationInfo[] {
  const out: OperationInfo[] = [];
  for (const [p, rawItem] of Object.entries<any>(doc.paths ?? {})) {
    const item = resolveLocal(doc, rawItem);
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const security = op.security ?? doc.security ?? [];
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((prm: any) => resolveLocal(doc, prm));
      const body = op.requestBody ? resolveLocal(doc, op.requestBody) : null;
      out.push({
        operationId: op.operationId,
        method,
        path: p,
        tags: op.tags ?? [],
        security: security.flatMap((req: Record<string, string[]>) => Object.keys(req)),
        securityScopes: Object.assign({}, ...security),
        requestBody: body ? { required: Boolean(body.required), contentTypes: Object.keys(body.content ?? {}) } : null,
        responses: Object.keys(op.responses ?? {}),
        parameters: params.map((prm: any) => ({ name: prm.name, in: prm.in, required: Boolean(prm.required) })),
      });
    }
  }
  return out.sort((a, b) => a.operationId.localeCompare(b.operationId));
}

export function operationsModule(constName: string, doc: any): string {
  const ops = Object.fromEntries(listOperations(doc).map((op) => [op.operationId, op]));
  return [
    `export const ${constName} = ${JSON.stringify(ops, null, 2)} as const;`,
    '',
    `export type ${constName[0].toUpperCase()}${constName.slice(1)}OperationId = keyof typeof ${constName};`,
    '',
  ].join('\n');
}

/**
 * `METHOD /path` -> operationId and security schemes: the slice of the metadata the typed clients
 * read on every request, kept apart so a client bundle does not carry the rest.
 */
export function routesModule(apis: Record<string, any>): string {
  const parts: string[] = ["export interface Route {", '  readonly operationId: string;', '  /** Security scheme names; alternatives, in the order the spec lists them. */', '  readonly security: readonly string[];', '}', ''];
  for (const [constName, doc] of Object.entries(apis)) {
    const routes = listOperations(doc).map((op) => `  ${JSON.stringify(`${op.method.toUpperCase()} ${op.path}`)}: { operationId: ${JSON.stringify(op.operationId)}, security: ${JSON.stringify(op.security)} },`);
    parts.push(`export const ${constName}: Readonly<Record<string, Route>> = {`, ...routes, '};', '');
  }
  return parts.join('\n');
}
