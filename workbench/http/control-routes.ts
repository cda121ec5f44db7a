// The routes outside the contract (/__simulator: the simulator's trigger, the sandbox's back office) as one
// declared table matched by one matcher, inside the pipeline (front.ts calls `controlRouter` after the
// local-caller check and CORS). A route is an entry (method, path template, summary, body, handler); the
// matcher answers the 404 and 405 (with Allow), the body goes through the one body reader (body.ts),
// every answer carries `X-Simulator: outside-contract`, and failures go through the error writer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CONTROL_MAX_BODY_BYTES, discardBody, readJsonObject } from './body.js';
import { MockHttpError, writeReply } from './errors.js';
import type { ControlRoute, WorkbenchExtension } from './extension.js';

export const CONTROL_PREFIX = '/__simulator';
/** On every answer under /__simulator, so nobody mistakes it for contract behaviour. */
export const OUTSIDE_CONTRACT: Readonly<Record<string, string>> = { 'x-simulator': 'outside-contract' };

interface Compiled {
  route: ControlRoute;
  pattern: RegExp;
  names: string[];
}

export type ControlMatch =
  | { kind: 'match'; route: ControlRoute; params: Record<string, string> }
  | { kind: 'no-method'; allowed: string[] }
  | { kind: 'none' };

function compile(route: ControlRoute): Compiled {
  const names: string[] = [];
  const source = route.path
    .split('/')
    .map((segment) => {
      const param = /^\{([a-z_][a-z0-9_]*)\}$/i.exec(segment);
      if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(param[1]);
      return '([^/]+)';
    })
    .join('/');
  return { route, pattern: new RegExp(`^${source}$`), names };
}

/** The one matcher: a trailing slash is tolerated; a path parameter with a bad percent-encoding is a 400. */
export function matchControlRoute(table: readonly Compiled[], pathname: string, method: string): ControlMatch {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  const allowed: string[] = [];
  for (const { route, pattern, names } of table) {
    const m = pattern.exec(path);
    if (!m) continue;
    if (route.method !== method) {
      if (!allowed.includes(route.method)) allowed.push(route.method);
      continue;
    }
    const params: Record<string, string> = {};
    names.forEach((name, i) => {
      try {
        params[name] = decodeURIComponent(m[i + 1]);
      } catch {
        throw new MockHttpError(400, 'invalid_parameter', `The path parameter ${name} has an invalid percent-encoding.`, [{ location: 'path', name, message: 'invalid percent-encoding' }]);
      }
    });
    return { kind: 'match', route, params };
  }
  return allowed.length ? { kind: 'no-method', allowed } : { kind: 'none' };
}

export function compileControlRoutes(routes: readonly ControlRoute[]): Compiled[] {
  return routes.map(compile);
}

/** `'POST /__simulator/stores/{store_id}/orders': 'place an order ...'`, for GET /__simulator and the docs. */
export function describeRoutes(routes: ReadonlyArray<Pick<ControlRoute, 'method' | 'path' | 'summary'>>): Record<string, string> {
  return Object.fromEntries(routes.map((r) => [`${r.method} ${r.path}`, r.summary]));
}

/**
 * The pipeline's step for routes outside the contract: false when the path is not under /__simulator (or
 * no extension declares such routes); otherwise it answers (or throws a MockHttpError the pipeline writes).
 */
export function controlRouter(extensions: readonly WorkbenchExtension[]) {
  const table = compileControlRoutes(extensions.flatMap((e) => e.controlRoutes ?? []));
  return async function routeControl(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    if (table.length === 0 || (url.pathname !== CONTROL_PREFIX && !url.pathname.startsWith(`${CONTROL_PREFIX}/`))) return false;
    for (const [name, value] of Object.entries(OUTSIDE_CONTRACT)) res.setHeader(name, value);
    const method = (req.method ?? 'GET').toUpperCase();
    const found = matchControlRoute(table, url.pathname, method);
    if (found.kind === 'none') {
      throw new MockHttpError(404, 'not_found', `No simulator route at ${url.pathname.slice(0, 200)}; see GET /__simulator.`);
    }
    if (found.kind === 'no-method') {
      const allow = found.allowed.join(', ');
      throw new MockHttpError(405, 'method_not_allowed', `${method} is not allowed here; use ${allow}.`, [], { allow });
    }
    let body: Record<string, unknown> | undefined;
    if (found.route.body === 'json-object') body = await readJsonObject(req, CONTROL_MAX_BODY_BYTES);
    else await discardBody(req, CONTROL_MAX_BODY_BYTES);
    const reply = await found.route.handle({ params: found.params, query: url.searchParams, body, headers: req.headers });
    // Answers wait for the writes (and events) they report to be durable, as the live operations' do.
    for (const extension of extensions) {
      const pending = extension.settled?.();
      if (pending) await pending;
    }
    writeReply(res, reply);
    return true;
  };
}
