// The workbench's one request pipeline, fetch-standard: `handle(request: Request): Promise<Response>`.
// Routes outside the contract, docs, routing on the real paths, security, validation, body limits, then
// the answer: a live operation of an extension (the Admin webhook API), cached default bytes, or Prism's
// engine when a control, an Accept header or dynamic mode needs it. Every step throws MockHttpError (or a
// handler returns `fail()`); the error writer (http/errors.ts) makes it the contract's envelope. No
// transport here: adapters/ put it on node:http, MSW (Node and the browser) or any fetch runtime.
import { basePathTemplate, splitApiPath, type ApiName } from 'storefront-contract/contract';
import { exchangeOf, dropped, isInProcess, respond, type Exchange } from './exchange.js';
import { checkDeclaredLength, hasBody, matchContentType, parseJsonBody, readBody, readSentBody } from '../http/body.js';
import { assetRouter, CONSOLE_PREFIX, CONTROL_PREFIX, controlRouter } from '../http/control-routes.js';
import { errorResponse, fail, MockHttpError, replyResponse, JSON_CONTENT_TYPE } from '../http/errors.js';
import { liveKey, type Caller, type LiveOperation, type TokenVerdict, type WorkbenchExtension } from '../http/extension.js';
import { refuseForeignCaller } from '../http/local-origin.js';
import type { RequestLogger } from '../http/log.js';
import { captureBody, traceRequest, type RequestFeed } from '../http/request-feed.js';
import { inject, type FaultRegistry } from '../mock/faults.js';
import { hasPreferences, parsePreferences, type Preferences } from '../mock/prefer.js';
import type { AnswerEngine } from '../mock/prism-engine.js';
import { route, type Mount, type RouteMatch } from '../mock/router.js';
import { checkSecurity } from '../mock/security.js';
import { isPaginated, paginate } from '../mock/paginate.js';
import type { CachedResponse, OperationModel } from '../mock/spec-model.js';
import { serveDocs, type SiteFiles } from '../mock/static-docs.js';
import { issuesTokens, type TokenRegistry } from '../mock/tokens.js';
import { invalid, validateBody, validateParameters } from '../mock/validate-request.js';

export interface FrontContext {
  mounts: Map<string, Mount>;
  /** Mount segments whose document failed to load, with the reason (shown in the 404). */
  unavailable: Map<string, string>;
  engines: Map<string, AnswerEngine>;
  extensions: WorkbenchExtension[];
  /** The built docs site served at /docs (a port: adapters/node-files.ts reads a folder); undefined serves none. */
  docs?: SiteFiles;
  maxBodyBytes: number;
  dynamic: boolean;
  strictAuth: boolean;
  /** When set, the only store API keys accepted; otherwise the extensions judge (the sandbox's per-store keys), else any well-formed key is. */
  apiKeys?: readonly string[];
  tokens: TokenRegistry;
  logger: RequestLogger;
  /** False in tests that compare the cached defaults with Prism's own answers. */
  cacheDefaults: boolean;
  /** Fault and latency injection (faults.ts); undefined: off, `Prefer: delay=` ignored (the bench's baseline). */
  faults?: FaultRegistry;
  /** The request log as data (http/request-feed.ts), for the console; undefined: not kept. */
  feed?: RequestFeed;
}

/** /__simulator, the console's page (/console) and the Admin API: control surfaces of a local tool, not for other sites' pages. */
function isControlPath(pathname: string): boolean {
  return (
    pathname === CONTROL_PREFIX ||
    pathname.startsWith(`${CONTROL_PREFIX}/`) ||
    pathname === CONSOLE_PREFIX ||
    pathname.startsWith(`${CONSOLE_PREFIX}/`) ||
    splitApiPath(pathname)?.api === 'admin'
  );
}

export function createFront(ctx: FrontContext) {
  // Defaults Prism had to build (responses with headers or without examples), kept after first use.
  const learned = new WeakMap<OperationModel, CachedResponse>();
  const live = new Map<string, LiveOperation>();
  for (const extension of ctx.extensions) for (const [key, op] of extension.operations ?? []) live.set(key, op);
  // Per-API body limits resolved once (the first extension that sets one wins), not on every request.
  const limits = new Map<string, number>();
  for (const extension of [...ctx.extensions].reverse()) for (const [api, limit] of Object.entries(extension.maxBodyBytes ?? {})) if (limit !== undefined) limits.set(api, limit);
  const bodyLimit = (api: string) => limits.get(api) ?? ctx.maxBodyBytes;
  // Every extension's routes outside the contract (/__simulator), one table, one matcher.
  const routeControl = controlRouter(ctx.extensions);
  // Read-only resources any origin may load (the sandbox's images), outside /__simulator and its guard.
  const routeAssets = assetRouter(ctx.extensions);
  const judgeToken = (api: string, storeId: string, schemeId: string, token: string): Exclude<TokenVerdict, undefined> => {
    for (const extension of ctx.extensions) {
      const verdict = extension.judgeToken?.(schemeId, token, { api, storeId });
      if (verdict !== undefined) return verdict;
    }
    if (ctx.strictAuth && api === 'storefront' && !ctx.tokens.has(token)) {
      return "unknown access token: in strict-auth mode only tokens issued by this mock's POST /auth/anonymous are accepted";
    }
    return true;
  };
  // Fixed keys (--api-key) open every store; otherwise an extension (the sandbox's per-store keys) decides,
  // and without one any well-formed key is accepted.
  const judgeApiKey = (api: string, storeId: string, schemeId: string, key: string): true | string => {
    if (ctx.apiKeys) return ctx.apiKeys.includes(key) ? true : 'unknown store API key: this workbench accepts only the key it was started with (--api-key or STOREFRONT_API_KEY)';
    for (const extension of ctx.extensions) {
      const verdict = extension.judgeApiKey?.(schemeId, key, { api, storeId });
      if (verdict !== undefined) return verdict;
    }
    return true;
  };

  return async function handle(request: Request): Promise<Response> {
    const started = performance.now();
    let x: Exchange;
    try {
      x = exchangeOf(request);
    } catch (error) {
      // A URL or header a Request cannot hold (an adapter's request of its own making).
      return errorResponse(undefined, fail(400, 'invalid_parameter', `The request cannot be read: ${(error as Error)?.message ?? error}`));
    }
    // An injected fault's note ends the log line (faults.ts `inject`).
    let note: string | undefined;
    // The console's copy of this request (headers, bounded bodies), recorded once it is answered.
    const recorded = ctx.feed?.begin(x);
    let response: Response;
    try {
      response = await pipeline(x, (text) => (note = text));
    } catch (err: unknown) {
      if (err instanceof MockHttpError) response = errorResponse(x, err);
      else {
        ctx.logger.info(`mock: internal error on ${x.method} ${x.url.pathname.slice(0, 200)}: ${(err as Error)?.message ?? err}`);
        response = errorResponse(x, fail(500, 'internal_error', 'The mock failed to build a response; see its log.'));
      }
    }
    const ms = performance.now() - started;
    const status = response.type === 'error' ? null : response.status;
    ctx.logger.log(x.method, x.target, status ?? '-', ms, note);
    // A hint outside the contract for the developer (the sandbox's unknown customer group): logged under its request.
    const warning = response.headers.get('x-sandbox-warning');
    if (warning) ctx.logger.info(`  warning: ${warning}`);
    recorded?.(status, ms, note ?? (warning ? `warning: ${warning}` : undefined), response.headers);
    return response;
  };

  async function pipeline(x: Exchange, note: (text: string) => void): Promise<Response> {
    const url = x.url;
    const method = x.method.toLowerCase();

    // The control surfaces (/__simulator, the Admin API) answer only local callers; see local-origin.ts.
    const control = isControlPath(url.pathname);
    if (control) {
      const refused = refuseForeignCaller(x.headers, isInProcess(x));
      if (refused) throw new MockHttpError(403, 'forbidden', `${refused.charAt(0).toUpperCase()}${refused.slice(1)}.`);
    }
    const allowOrigin = control ? (x.headers.origin ?? '') : '*';

    if (method === 'options' && x.headers['access-control-request-method']) {
      // Browser preflight: front-end developers call the mock from other origins.
      return respond(x, 204, {
        ...(allowOrigin ? { 'access-control-allow-origin': allowOrigin, vary: 'Origin' } : {}),
        'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
        'access-control-allow-headers': String(x.headers['access-control-request-headers'] ?? '*').slice(0, 500),
        'access-control-max-age': '600',
        'content-length': '0',
      });
    }
    if (allowOrigin) x.out['access-control-allow-origin'] = allowOrigin;
    if (control) x.out.vary = 'Origin';

    // Browsers ask every origin for /favicon.ico (a tab on /docs or on a JSON answer): no icon here, and no
    // 404 in the log for it. The console's page carries its own icon inline, so it never asks.
    if (url.pathname === '/favicon.ico' && (method === 'get' || method === 'head')) {
      if (ctx.feed) traceRequest(x, { api: 'other', own: true });
      return respond(x, 204, { 'cache-control': 'max-age=86400' });
    }
    const outside = (await routeControl(x)) ?? (await routeAssets(x)) ?? (ctx.docs ? await serveDocs(ctx.docs, x, url.pathname) : undefined);
    if (outside) return outside;

    const result = route(ctx.mounts, url.pathname, method);
    const mount = result.kind === 'match' ? result.match.mount : result.kind === 'no-mount' ? undefined : result.mount;
    checkDeclaredLength(x, mount ? bodyLimit(mount.segment) : ctx.maxBodyBytes);
    if (result.kind === 'no-mount') throw notFound(ctx, method, url.pathname);
    if (result.kind === 'no-path') {
      throw new MockHttpError(404, 'not_found', `No ${result.mount.segment} operation at ${result.innerPath.slice(0, 200)} (${method.toUpperCase()} ${url.pathname.slice(0, 200)}).`);
    }
    if (result.kind === 'no-method') {
      throw new MockHttpError(405, 'method_not_allowed', `${method.toUpperCase()} is not allowed on ${result.innerPath}; allowed: ${result.allowed.join(', ')}.`, [], {
        allow: result.allowed.join(', '),
      });
    }
    const match = result.match;
    const op = match.operation;
    const prefs = parsePreferences(x.headers.prefer, url.searchParams);

    const api = match.mount.segment;
    if (ctx.feed) traceRequest(x, { api, store: match.storeId, operation: op.operationId });
    // Security first, before any `Prefer` control picks who answers: a token of another store (judged by
    // the extension that issued it) is refused here for the sandbox and Prism alike.
    // The caller is resolved here, once (issue 39 item 2): handlers get it as `caller` and read no credential header.
    const security = checkSecurity(op, x.headers, url.searchParams, {
      judgeToken: (scheme, token) => judgeToken(api, match.storeId, scheme.id, token),
      bearerHint: api === 'storefront' ? 'get one from POST /auth/anonymous' : undefined,
      judgeApiKey: (scheme, key) => judgeApiKey(api, match.storeId, scheme.id, key),
    });
    if (security.denied) throw security.denied;
    const caller: Caller = { storeId: match.storeId, ...security.credentials };
    validateParameters(op, match.pathParams, url.searchParams, x.headers);
    let liveOperation = live.get(liveKey(api, op.operationId));
    // `Prefer: code=..., example=...` (and dynamic mode) ask for the spec's own answers: Prism's to give.
    if (liveOperation?.yieldsToControls && (ctx.dynamic || hasPreferences(prefs))) liveOperation = undefined;
    const body = await readRequestBody(x, op, bodyLimit(api), !liveOperation?.validatesBody);

    // Faults and delays (faults.ts): here, once the request is one the operation answers, before the answer.
    // A dropped connection (or a client gone during the delay) is fetch's network error.
    const injection = ctx.faults?.decide(match.storeId, op.operationId, prefs.delay);
    if (injection && !(await inject(injection, { x, storeId: match.storeId, operationId: op.operationId, registry: ctx.faults, note }))) return dropped();

    if (liveOperation) {
      const reply = await liveOperation.handle({ storeId: match.storeId, caller, params: match.pathParams, query: url.searchParams, body, headers: x.headers });
      for (const extension of ctx.extensions) {
        const pending = extension.settled?.();
        if (pending) await pending;
      }
      return replyResponse(x, reply);
    }

    const fastPath = ctx.cacheDefaults && !ctx.dynamic && !hasPreferences(prefs) && acceptsJson(x.headers.accept);
    let response = fastPath ? op.defaultResponse ?? learned.get(op) : undefined;
    if (!response) {
      response = await askPrism(x, match, body, prefs);
      if (fastPath && response.status >= 200 && response.status < 300) learned.set(op, response);
    }
    // Paging over the example's set, unless a control asked for a specific answer.
    if (!ctx.dynamic && !hasPreferences(prefs) && isPaginated(op)) response = paginate(response, url.searchParams);
    if (ctx.strictAuth && match.mount.segment === 'storefront' && issuesTokens(op.method, op.path) && response.status < 300) {
      response = { ...response, body: ctx.tokens.rewriteAuthBody(response.body) };
    }
    return send(x, response);
  }

  async function readRequestBody(x: Exchange, op: OperationModel, limit: number, validate: boolean): Promise<unknown> {
    // A fetch Request made in process says nothing of its body's length: its stream is read first (within
    // the limit) to know whether a body was sent at all; an empty one is none, as on the wire.
    const unsaid = x.headers['content-length'] === undefined && x.headers['transfer-encoding'] === undefined;
    const early = unsaid ? await readSentBody(x, limit) : undefined;
    if (unsaid ? early === undefined : !hasBody(x)) {
      if (op.requestBody?.required) {
        throw invalid(op, 'invalid_body', 'Request body is required (send JSON with Content-Type: application/json).', [
          { location: 'body', name: '(body)', message: 'is required' },
        ]);
      }
      return undefined;
    }
    if (!op.requestBody) {
      // The operation takes no body (e.g. POST /auth/anonymous): read within the limit and ignore it.
      if (!unsaid) await readBody(x, limit);
      return undefined;
    }
    const mediaType = matchContentType(op, x.headers['content-type']);
    const bytes = early ?? (await readBody(x, limit));
    if (ctx.feed) traceRequest(x, { body: bytes });
    if (bytes.length === 0) {
      if (op.requestBody.required) {
        throw invalid(op, 'invalid_body', 'Request body is required and was empty.', [{ location: 'body', name: '(body)', message: 'is required' }]);
      }
      return undefined;
    }
    if (!/json/i.test(mediaType)) return bytes.toString('utf8');
    const parsed = parseJsonBody(op, bytes);
    if (validate) validateBody(op, mediaType, parsed);
    return parsed;
  }

  async function askPrism(x: Exchange, match: RouteMatch, body: unknown, prefs: Preferences): Promise<CachedResponse> {
    const url = x.url;
    const engine = ctx.engines.get(match.mount.segment)!;
    const query: Record<string, string | string[]> = {};
    for (const key of new Set(url.searchParams.keys())) {
      const all = url.searchParams.getAll(key);
      query[key] = all.length === 1 ? all[0] : all;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(x.headers)) if (v !== undefined) headers[k] = v;
    return engine.respond(
      match.operation,
      { method: match.operation.method, path: match.innerPath, query, headers, body },
      prefs,
      ctx.dynamic,
    );
  }
}

function send(x: Exchange, response: CachedResponse): Response {
  const noBody = response.status === 204 || response.status === 304;
  if (!noBody) captureBody(x, response.status, response.body);
  return respond(
    x,
    response.status,
    {
      ...response.headers,
      ...(noBody ? {} : { 'content-type': response.headers['content-type'] ?? JSON_CONTENT_TYPE, 'content-length': String(response.body.length) }),
    },
    noBody ? null : response.body,
  );
}

/** Default answers are JSON; any Accept that admits JSON gets the cached bytes, others go to Prism. */
function acceptsJson(accept: string | undefined): boolean {
  if (!accept) return true;
  const a = accept.toLowerCase();
  // An explicit refusal (`q=0`) is Prism's negotiation to judge.
  if (/q=0(\.0*)?\s*(,|;|$)/.test(a)) return false;
  return a.includes('application/json') || a.includes('*/*') || a.includes('application/*');
}

function notFound(ctx: FrontContext, method: string, pathname: string): MockHttpError {
  const api = splitApiPath(pathname)?.api;
  const reason = api ? ctx.unavailable.get(api) : undefined;
  if (reason) return new MockHttpError(404, 'not_found', `The ${api} API is not available in this mock: ${reason}`);
  const bases = [...ctx.mounts.keys()].map((s) => `${basePathTemplate[s as ApiName] ?? s}/...`).join(', ');
  return new MockHttpError(404, 'not_found', `No route for ${method.toUpperCase()} ${pathname.slice(0, 200)}. This mock serves ${bases}${ctx.docs ? ' and /docs' : ''}.`);
}
