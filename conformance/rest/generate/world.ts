// What the generator knows of the target's data: ids it has seen the target accept or produce. Valid
// requests name these ids (an invented id may rightly be 404); they are learnt from the replayed
// traffic's accepted requests and from the `links` the spec declares on each answer.
import { getPointer } from 'storefront-contract/contract';
import type { LinkSpec, OperationSpec } from './operation-specs.js';

/** An id-like name: its values name data on the server, so they come from the world, not the schema. */
export function isIdName(name: string): boolean {
  return /(^|_)id$/i.test(name);
}

const MAX_PER_POOL = 8;

export class World {
  /** `operationId place name` -> values the target accepted or produced for it. */
  private readonly pools = new Map<string, string[]>();
  /** Credentials the links say an answer carries (`x-security`): the first opens the bearer operations. */
  readonly credentials = new Set<string>();

  private add(key: string, value: unknown): void {
    if (typeof value !== 'string' && typeof value !== 'number') return;
    const text = String(value);
    if (text === '' || text.length > 200) return;
    const pool = this.pools.get(key) ?? [];
    if (pool.includes(text)) return;
    if (pool.length >= MAX_PER_POOL) pool.shift();
    pool.push(text);
    this.pools.set(key, pool);
  }

  /** A whole set of path parameters known together (a variant with its own product), as one pool value. */
  private addTuple(operationId: string, values: Record<string, string>): void {
    if (!Object.keys(values).length || Object.values(values).some((v) => typeof v !== 'string' || v === '')) return;
    this.add(`${operationId} path *`, JSON.stringify(Object.fromEntries(Object.entries(values).sort())));
  }

  /** Whole sets of path parameters the target was seen to hold together, sorted. */
  pathTuples(operationId: string): Array<Record<string, string>> {
    return this.values(operationId, 'path', '*').map((t) => JSON.parse(t) as Record<string, string>);
  }

  /** Values for a parameter or body field of an operation (empty when the world knows none). */
  values(operationId: string, place: string, name: string): string[] {
    // Sorted: the same seed then picks the same values whatever order the answers came in.
    return [...(this.pools.get(`${operationId} ${place} ${name}`) ?? [])].sort();
  }

  /** A request the target accepted: its id-like path, query and body values are known to exist. */
  learnFromAccepted(op: OperationSpec, url: URL, apiBasePath: string, body: unknown): void {
    const { re, names } = pathMatcher(op.path);
    const m = re.exec(url.pathname.slice(apiBasePath.length));
    if (m) {
      names.forEach((n, i) => this.add(`${op.operationId} path ${n}`, decodeURIComponent(m[i + 1])));
      this.addTuple(op.operationId, Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1])])));
    }
    for (const [name, value] of url.searchParams) if (isIdName(name)) this.add(`${op.operationId} query ${name}`, value);
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      for (const [name, value] of Object.entries(body)) if (isIdName(name)) this.add(`${op.operationId} body ${name}`, value);
    }
  }

  /**
   * Follows the links an answer declares: each linked parameter's value, read by its runtime
   * expression from this answer or request, becomes a known value of the target operation.
   */
  learnFromLinks(links: LinkSpec[], status: number, answer: unknown, request: { pathParams: Record<string, string>; query: Record<string, unknown> }, targets: Map<string, OperationSpec>): void {
    for (const link of links) {
      if (link.status !== String(status) && link.status !== `${String(status)[0]}XX`) continue;
      const target = targets.get(link.operationId);
      if (!target) continue;
      const path: Record<string, string> = {};
      for (const [param, expression] of Object.entries(link.parameters)) {
        const value = evaluate(expression, answer, request);
        if (param.startsWith('path.') && typeof value === 'string') path[param.slice(5)] = value;
        const [place, name] = param.includes('.') ? (param.split('.', 2) as [string, string]) : [placeOf(target, param), param];
        for (const v of Array.isArray(value) ? value : [value]) this.add(`${target.operationId} ${place} ${name}`, v);
      }
      if (target.params.filter((p) => p.in === 'path').every((p) => p.name in path)) this.addTuple(target.operationId, path);
      for (const [member, expression] of Object.entries(link.body)) {
        const value = evaluate(expression, answer, request);
        for (const v of Array.isArray(value) ? value : [value]) this.add(`${target.operationId} body ${member}`, v);
      }
      for (const expression of Object.values(link.security)) {
        const value = evaluate(expression, answer, request);
        if (typeof value === 'string' && value) this.credentials.add(value);
      }
    }
  }
}

const matchers = new Map<string, { re: RegExp; names: string[] }>();

/** `/pos/carts/{id}` as a regular expression capturing each parameter, built once per path. */
function pathMatcher(path: string): { re: RegExp; names: string[] } {
  let matcher = matchers.get(path);
  if (!matcher) {
    const names: string[] = [];
    const re = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_, n: string) => (names.push(n), '([^/]+)'))}$`);
    matchers.set(path, (matcher = { re, names }));
  }
  return matcher;
}

function placeOf(op: OperationSpec, name: string): string {
  return op.params.find((p) => p.name === name)?.in ?? 'body';
}

/**
 * An OpenAPI runtime expression: `$response.body#/pointer`, `$request.path.name`,
 * `$request.query.name`. A `*` segment in the pointer collects that place of every array element.
 */
export function evaluate(expression: string, answer: unknown, request: { pathParams: Record<string, string>; query: Record<string, unknown> }): unknown {
  if (expression.startsWith('$response.body#')) return pointerAll(answer, expression.slice('$response.body#'.length));
  if (expression.startsWith('$request.path.')) return request.pathParams[expression.slice('$request.path.'.length)];
  if (expression.startsWith('$request.query.')) return request.query[expression.slice('$request.query.'.length)];
  return undefined;
}

function pointerAll(doc: unknown, pointer: string): unknown {
  const star = pointer.indexOf('/*');
  if (star < 0) return getPointer(doc, pointer);
  const list = getPointer(doc, pointer.slice(0, star));
  if (!Array.isArray(list)) return undefined;
  return list.flatMap((item) => {
    const v = pointerAll(item, pointer.slice(star + 2));
    return Array.isArray(v) ? v : [v];
  });
}
