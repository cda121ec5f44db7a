// Operation metadata of an OpenAPI document (method, path, security, bodies, statuses), generated
// so that the client, the mock and the certifier read the spec's facts instead of restating them.
import { getPointer } from '../../src/contract/json-pointer.js';
import { HTTP_METHODS } from './names.js';
import { withoutAnnotations } from './strip-annotations.js';

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
 * `METHOD /path` -> operationId: what the typed clients' validation (loaded only when it is on)
 * needs to pick an operation's validators.
 */
export function routesModule(apis: Record<string, any>): string {
  const parts: string[] = [];
  for (const [constName, doc] of Object.entries(apis)) {
    const routes = listOperations(doc).map((op) => `  ${JSON.stringify(`${op.method.toUpperCase()} ${op.path}`)}: ${JSON.stringify(op.operationId)},`);
    parts.push(`export const ${constName}: Readonly<Record<string, string>> = {`, ...routes, '};', '');
  }
  return parts.join('\n');
}

/**
 * The security schemes of each route, the one slice of the metadata a typed client reads on every
 * request and so loads with the app: per API the schemes most operations share, and the routes
 * whose schemes differ, so the table stays small as the API grows.
 */
export function securityModule(apis: Record<string, any>): string {
  const parts: string[] = [
    'export interface SecurityTable {',
    '  /** Security scheme names of every route not in `routes`; alternatives, in the order the spec lists them. */',
    '  readonly default: readonly string[];',
    '  /** `METHOD /path` -> its scheme names, for the routes whose security differs from `default`. */',
    '  readonly routes: Readonly<Record<string, readonly string[]>>;',
    '}',
    '',
  ];
  for (const [constName, doc] of Object.entries(apis)) {
    const ops = listOperations(doc);
    const counts = new Map<string, number>();
    for (const op of ops) counts.set(JSON.stringify(op.security), (counts.get(JSON.stringify(op.security)) ?? 0) + 1);
    // The most frequent list; on a tie, the first in code-unit order, so the output is stable.
    const [common] = [...counts].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : a > b ? 1 : 0))[0] ?? ['[]'];
    const routes = ops.filter((op) => JSON.stringify(op.security) !== common).map((op) => `    ${JSON.stringify(`${op.method.toUpperCase()} ${op.path}`)}: ${JSON.stringify(op.security)},`);
    const table = routes.length ? ['  routes: {', ...routes, '  },'] : ['  routes: {},'];
    parts.push(`export const ${constName}: SecurityTable = {`, `  default: ${common},`, ...table, '};', '');
  }
  return parts.join('\n');
}

/**
 * The workbench API's operations as its server validates them (workbench/http/control-routes.ts): for
 * each operation its method, path (the document's, under `basePath`), parameters and request body with
 * every `$ref` resolved and annotations dropped, and the statuses it declares. The same
 * validateParameters/validateBody the contract's operations go through read these, in Node and in a
 * page, without loading the YAML document at run time.
 */
export async function requestModelModule(constName: string, doc: any, basePath: string): Promise<string> {
  const $RefParser = (await import('@apidevtools/json-schema-ref-parser')).default;
  const resolved: any = await $RefParser.dereference(withoutAnnotations(doc), { dereference: { circular: 'ignore' } });
  const ops: Record<string, unknown> = {};
  for (const op of listOperations(resolved)) {
    const item = resolved.paths[op.path];
    const definition = item[op.method];
    const byKey = new Map<string, any>();
    for (const prm of [...(item.parameters ?? []), ...(definition.parameters ?? [])]) byKey.set(`${prm.in}:${prm.name}`, prm);
    const parameters = [...byKey.values()].map(({ description: _d, example: _e, examples: _x, ...prm }) => prm);
    const body = definition.requestBody;
    ops[op.operationId] = {
      operationId: op.operationId,
      method: op.method,
      path: `${basePath}${op.path === '/' ? '' : op.path}`,
      parameters,
      ...(body ? { requestBody: { required: Boolean(body.required), content: Object.fromEntries(Object.entries<any>(body.content ?? {}).map(([type, media]) => [type, { schema: media.schema ?? {} }])) } } : {}),
      responses: Object.fromEntries(op.responses.map((status) => [status, {}])),
    };
  }
  return [
    `/** Where the operations' paths live on the workbench's host. */`,
    `export const ${constName}BasePath = ${JSON.stringify(basePath)};`,
    '',
    `export const ${constName} = ${JSON.stringify(ops, null, 2)} as const;`,
    '',
    `export type ${constName[0].toUpperCase()}${constName.slice(1)}OperationId = keyof typeof ${constName};`,
    '',
  ].join('\n');
}
