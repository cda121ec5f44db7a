// The routes outside the contract (/__simulator: the simulator's trigger, the sandbox's back office) as one
// declared table matched by one matcher, inside the pipeline (engine/pipeline.ts calls `controlRouter` after the
// local-caller check and CORS). A route is an entry (method, path template, summary, body, handler); the
// matcher answers the 404 and 405 (with Allow), the body goes through the one body reader (body.ts),
// every answer carries `X-Simulator: outside-contract`, and failures go through the error writer.
// The read-only resources under /__sandbox-assets (the sandbox's generated images) are a second table on
// the same matcher (`assetRouter`): no body, GET and HEAD, caching and safety headers added here.
import { createHash } from 'node:crypto';
import { respond, type Exchange } from '../engine/exchange.js';
import { CONTROL_MAX_BODY_BYTES, discardBody, readJsonObject } from './body.js';
import { MockHttpError, replyResponse } from './errors.js';
import type { AssetRoute, ContentReply, ControlRoute, StreamReply, WorkbenchExtension } from './extension.js';
import { traceRequest } from './request-feed.js';
import { matchPath } from '../contract/match.js';
import { workbenchOperations, workbenchOperationsBasePath } from 'storefront-contract/workbench';
import { validateBody, validateParameters } from '../mock/validate-request.js';
import type { OperationModel } from '../mock/spec-model.js';

/** The workbench API's base path, from its document's server (spec/workbench/openapi.yaml): `/__simulator`. */
export const CONTROL_PREFIX = workbenchOperationsBasePath;
/**
 * The console's page and its scripts (workbench/console): control routes too, under the same local-caller
 * guard (engine/pipeline.ts `isControlPath`), on a short path a developer types. Its JSON calls live under /__simulator/console.
 */
export const CONSOLE_PREFIX = '/console';
/**
 * Read-only resources any origin may load (the sandbox's images). Not under CONTROL_PREFIX on purpose: the
 * local-caller guard (local-origin.ts) is decided by that prefix alone and would refuse an <img> of a page
 * on another site; nothing under this prefix changes state or tells more than the storefront API does.
 */
export const ASSETS_PREFIX = '/__sandbox-assets';
/** On every answer under /__simulator, so nobody mistakes it for contract behaviour. */
export const OUTSIDE_CONTRACT: Readonly<Record<string, string>> = { 'x-simulator': 'outside-contract' };

/** A route as the one path matcher (workbench/contract/match.ts) takes it: lower-case method, template. */
interface Compiled<R = ControlRoute> {
  route: R;
  method: string;
  path: string;
}

export type ControlMatch<R = ControlRoute> =
  | { kind: 'match'; route: R; params: Record<string, string> }
  | { kind: 'no-method'; allowed: string[] }
  | { kind: 'none' };

/** The contract routes' matcher over this table: a trailing slash is tolerated; a path parameter with a bad percent-encoding is a 400. */
export function matchControlRoute<R>(table: readonly Compiled<R>[], pathname: string, method: string): ControlMatch<R> {
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

export function compileControlRoutes<R extends { method: string; path: string }>(routes: readonly R[]): Compiled<R>[] {
  return routes.map((route) => ({ route, method: route.method.toLowerCase(), path: route.path }));
}

/** `'POST /__simulator/stores/{store_id}/orders': 'place an order ...'`, for GET /__simulator and the docs. */
export function describeRoutes(routes: ReadonlyArray<Pick<ControlRoute, 'method' | 'path' | 'summary'>>): Record<string, string> {
  return Object.fromEntries(routes.map((r) => [`${r.method} ${r.path}`, r.summary]));
}

/**
 * The workbench API's operations (spec/workbench/openapi.yaml, through the generated table) by
 * `METHOD /path template`, as the contract's operations are: the same validateParameters and validateBody
 * judge a route's path and query parameters and its body before its handler runs, with the same 400
 * envelope naming each invalid input. test/workbench-api/routes-match-document.test.ts holds every route
 * under /__simulator to an operation of the document, and every operation to a route.
 */
export const workbenchApiOperations: ReadonlyMap<string, OperationModel> = new Map(
  Object.values(workbenchOperations).map((op) => [
    `${op.method.toUpperCase()} ${op.path}`,
    { document: 'workbench', method: op.method, path: op.path, operationId: op.operationId, parameters: op.parameters as unknown as OperationModel['parameters'], requestBody: 'requestBody' in op ? (op.requestBody as OperationModel['requestBody']) : undefined, security: [], responses: op.responses, deprecated: false },
  ]),
);

/**
 * The pipeline's step for routes outside the contract: false when the path is not under /__simulator (or
 * no extension declares such routes); otherwise it answers (or throws a MockHttpError the pipeline writes).
 */
export function controlRouter(extensions: readonly WorkbenchExtension[]) {
  const table = compileControlRoutes(extensions.flatMap((e) => e.controlRoutes ?? []).map((route) => ({ ...route, operation: workbenchApiOperations.get(`${route.method} ${route.path}`) })));
  return async function routeControl(x: Exchange): Promise<Response | undefined> {
    const url = x.url;
    if (table.length === 0 || !(underPrefix(url.pathname, CONTROL_PREFIX) || underPrefix(url.pathname, CONSOLE_PREFIX))) return undefined;
    Object.assign(x.out, OUTSIDE_CONTRACT);
    const method = x.method;
    const found = matchControlRoute(table, url.pathname, method);
    if (found.kind === 'none') {
      throw new MockHttpError(404, 'not_found', `No simulator route at ${url.pathname.slice(0, 200)}; see GET /__simulator.`);
    }
    if (found.kind === 'no-method') {
      const allow = found.allowed.join(', ');
      throw new MockHttpError(405, 'method_not_allowed', `${method} is not allowed here; use ${allow}.`, [], { allow });
    }
    const operation = found.route.operation;
    let body: Record<string, unknown> | undefined;
    // Traced as the route's, refused or not: the console's log names the store and the route of a request
    // the document refused, as of one the handler refused.
    const trace = () => traceRequest(x, { api: 'back-office', store: found.params.store_id, operation: `${method} ${found.route.path}`, body, own: method === 'GET' || method === 'HEAD' });
    try {
      if (operation) validateParameters(operation, found.params, url.searchParams, x.headers);
      if (found.route.body === 'json-object') body = await readJsonObject(x, CONTROL_MAX_BODY_BYTES);
      else await discardBody(x, CONTROL_MAX_BODY_BYTES);
      if (operation && body !== undefined) validateBody(operation, 'application/json', body);
    } catch (e) {
      trace();
      throw e;
    }
    trace();
    const reply = await found.route.handle({ params: found.params, query: url.searchParams, body, headers: x.headers });
    if ('stream' in reply) return respond(x, reply.status, reply.headers, reply.stream);
    if ('bytes' in reply) return writeContent(x, reply);
    // Answers wait for the writes (and events) they report to be durable, as the live operations' do.
    for (const extension of extensions) {
      const pending = extension.settled?.();
      if (pending) await pending;
    }
    return replyResponse(x, reply);
  };
}

function underPrefix(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

/**
 * A page or script of the console: its media type, a strong ETag (If-None-Match -> 304), `no-cache`,
 * `nosniff`, and a CSP allowing only this origin's own scripts, styles, images and connections (the page
 * has no inline script), no framing.
 */
function writeContent(x: Exchange, reply: ContentReply): Response {
  return sendBytes(x, reply, {
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
  });
}

/**
 * Bytes with a strong ETag of their content (If-None-Match -> 304), `Cache-Control: no-cache` and the
 * caller's security headers; the body is left out for HEAD. Pages of the console and sandbox assets alike.
 */
function sendBytes(x: Exchange, reply: Pick<ContentReply, 'bytes' | 'contentType' | 'headers'>, policy: Record<string, string>): Response {
  const etag = `"${createHash('sha256').update(reply.bytes).digest('base64url').slice(0, 27)}"`;
  const headers: Record<string, string> = { ...reply.headers, etag, 'cache-control': ASSET_CACHE_CONTROL, ...policy };
  if (matchesEtag(x.headers['if-none-match'], etag)) return respond(x, 304, headers);
  return respond(x, 200, { ...headers, 'content-type': reply.contentType, 'content-length': String(reply.bytes.length) }, reply.bytes);
}

export type { ContentReply, StreamReply };

/** Every use revalidates (a renamed product changes its image under the same URL); unchanged, it is a 304. */
const ASSET_CACHE_CONTROL = 'no-cache';

/**
 * The pipeline's step for /__sandbox-assets: false when the path is elsewhere (or no extension serves
 * assets); otherwise it answers. GET and HEAD only (405 with Allow otherwise); a request body is drained
 * and ignored. A success carries its media type, a strong ETag of its bytes (If-None-Match -> 304),
 * `Cache-Control: no-cache`, `X-Content-Type-Options: nosniff`, a CSP that allows nothing but inline style
 * (an SVG opened as a page runs nothing), `Cross-Origin-Resource-Policy: cross-origin` (pages with COEP may
 * embed it) and `X-Simulator: outside-contract`; failures are the envelope, through the error writer.
 */
export function assetRouter(extensions: readonly WorkbenchExtension[]) {
  const table = compileControlRoutes(extensions.flatMap((e) => e.assetRoutes ?? []));
  return async function routeAssets(x: Exchange): Promise<Response | undefined> {
    const url = x.url;
    if (table.length === 0 || (url.pathname !== ASSETS_PREFIX && !url.pathname.startsWith(`${ASSETS_PREFIX}/`))) return undefined;
    Object.assign(x.out, OUTSIDE_CONTRACT);
    const method = x.method;
    const found = matchControlRoute<AssetRoute>(table, url.pathname, method === 'HEAD' ? 'GET' : method);
    if (found.kind === 'none') throw new MockHttpError(404, 'not_found', `No asset at ${url.pathname.slice(0, 200)}; see GET /__simulator.`);
    if (found.kind === 'no-method') throw new MockHttpError(405, 'method_not_allowed', `${method} is not allowed here; use GET or HEAD.`, [], { allow: 'GET, HEAD' });
    await discardBody(x, CONTROL_MAX_BODY_BYTES);
    const reply = found.route.handle({ params: found.params, query: url.searchParams, body: undefined, headers: x.headers });
    if (reply.error) return replyResponse(x, reply);
    return sendBytes(x, reply, {
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      'cross-origin-resource-policy': 'cross-origin',
    });
  };
}

/** If-None-Match against a strong ETag: `*`, or a list whose entries compare weakly (RFC 9110 13.1.2). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
