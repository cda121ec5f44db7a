// The routes outside the contract (/__simulator: the simulator's trigger, the sandbox's back office) as one
// declared table matched by one matcher, inside the pipeline (front.ts calls `controlRouter` after the
// local-caller check and CORS). A route is an entry (method, path template, summary, body, handler); the
// matcher answers the 404 and 405 (with Allow), the body goes through the one body reader (body.ts),
// every answer carries `X-Simulator: outside-contract`, and failures go through the error writer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CONTROL_MAX_BODY_BYTES, discardBody, readJsonObject } from './body.js';
import { MockHttpError, writeReply } from './errors.js';
import type { ControlRoute, WorkbenchExtension } from './extension.js';
import { matchPath } from '../contract/match.js';

export const CONTROL_PREFIX = '/__simulator';
/** On every answer under /__simulator, so nobody mistakes it for contract behaviour. */
export const OUTSIDE_CONTRACT: Readonly<Record<string, string>> = { 'x-simulator': 'outside-contract' };

/** A route as the one path matcher (workbench/contract/match.ts) takes it: lower-case method, template. */
interface Compiled {
  route: ControlRoute;
  method: string;
  path: string;
}

export type ControlMatch =
  | { kind: 'match'; route: ControlRoute; params: Record<string, string> }
  | { kind: 'no-method'; allowed: string[] }
  | { kind: 'none' };

/** The contract routes' matcher over this table: a trailing slash is tolerated; a path parameter with a bad percent-encoding is a 400. */
export function matchControlRoute(table: readonly Compiled[], pathname: string, method: string): ControlMatch {
  const found = matchPath(table, method, pathname);
  if (found.kind === 'no-path') return { kind: 'none' };
  if (found.kind === 'no-method') return { kind: 'no-method', allowed: found.allowed };
  const params: Record<string, string> = {};
  for (const [name, raw] of Object.entries(found.rawParams)) {
    try {
      params[name] = decodeURIComponent(raw);
    } catch {
      throw new MockHttpError(400, 'invalid_parameter', `The path parameter ${name} has an invalid percent-encoding.`, [{ location: 'path', name, message: 'invalid percent-encoding' }]);
    }
  }
  return { kind: 'match', route: found.operation.route, params };
}

export function compileControlRoutes(routes: readonly ControlRoute[]): Compiled[] {
  return routes.map((route) => ({ route, method: route.method.toLowerCase(), path: route.path }));
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
