// The workbench's one request pipeline: routes outside the contract, docs, routing on the real paths,
// security, validation, body limits, then the answer: a live operation of an extension (the Admin
// webhook API), cached default bytes, or Prism's engine when a control, an Accept header or dynamic
// mode needs it. Every step throws MockHttpError (or a handler returns `fail()`); the error writer
// (http/errors.ts) sends it as the contract's envelope.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basePathTemplate, splitApiPath, type ApiName } from 'storefront-contract/contract';
import { performance } from 'node:perf_hooks';
import { checkDeclaredLength, endAfterBody, hasBody, matchContentType, parseJsonBody, readBody } from '../http/body.js';
import { assetRouter, CONSOLE_PREFIX, controlRouter } from '../http/control-routes.js';
import { fail, MockHttpError, writeError, writeReply, JSON_CONTENT_TYPE } from '../http/errors.js';
import { liveKey, type LiveOperation, type WorkbenchExtension } from '../http/extension.js';
import { refuseForeignCaller } from '../http/local-origin.js';
import type { RequestLogger } from '../http/log.js';
import { captureBody, traceRequest, type RequestFeed } from '../http/request-feed.js';
import { inject, type FaultRegistry } from './faults.js';
import { hasPreferences, parsePreferences, type Preferences } from './prefer.js';
import type { AnswerEngine } from './prism-engine.js';
import { route, type Mount, type RouteMatch } from './router.js';
import { checkSecurity } from './security.js';
import { isPaginated, paginate } from './paginate.js';
import type { CachedResponse, OperationModel } from './spec-model.js';
import { serveDocs } from './static-docs.js';
import { issuesTokens, type TokenRegistry } from './tokens.js';
import { invalid, validateBody, validateParameters } from './validate-request.js';

export interface FrontContext {
  mounts: Map<string, Mount>;
  /** Mount segments whose document failed to load, with the reason (shown in the 404). */
  unavailable: Map<string, string>;
  engines: Map<string, AnswerEngine>;
  extensions: WorkbenchExtension[];
  /** Folder served at /docs; undefined serves none (in process). */
  docsRoot?: string;
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
    pathname === '/__simulator' ||
    pathname.startsWith('/__simulator/') ||
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
  const judgeToken = (api: string, storeId: string, schemeId: string, token: string): true | string => {
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

  return function handle(req: IncomingMessage, res: ServerResponse): void {
    const started = performance.now();
    let logged = false;
    // An injected fault's note ends the log line (faults.ts `inject`).
    let note: string | undefined;
    // The console's copy of this request (headers, bounded bodies), recorded when it finishes.
    const recorded = ctx.feed?.begin(req, res);
    const logOnce = () => {
      if (logged) return;
      logged = true;
      const ms = performance.now() - started;
      ctx.logger.log(req.method ?? '-', req.url ?? '', res.headersSent ? res.statusCode : '-', ms, note);
      // A hint outside the contract for the developer (the sandbox's unknown customer group): logged under its request.
      const warning = res.getHeader('x-sandbox-warning');
      if (warning) ctx.logger.info(`  warning: ${String(warning)}`);
      recorded?.(res.headersSent ? res.statusCode : null, ms, note ?? (warning ? `warning: ${String(warning)}` : undefined));
    };
    res.once('finish', logOnce);
    res.once('close', logOnce);
    pipeline(req, res, (text) => (note = text)).catch((err: unknown) => {
      if (err instanceof MockHttpError) {
        writeError(res, err, err.status === 413 ? (end) => endAfterBody(req, end) : undefined);
        return;
      }
      ctx.logger.info(`mock: internal error on ${req.method} ${(req.url ?? '').split('?')[0].slice(0, 200)}: ${(err as Error)?.message ?? err}`);
      writeError(res, fail(500, 'internal_error', 'The mock failed to build a response; see its log.'));
    });
  };

  async function pipeline(req: IncomingMessage, res: ServerResponse, note: (text: string) => void): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://mock.invalid');
    } catch {
      throw new MockHttpError(400, 'invalid_parameter', 'The request URL is malformed.', [{ location: 'path', name: '(url)', message: 'is not a valid URL' }]);
    }
    const method = (req.method ?? 'GET').toLowerCase();

    // The control surfaces (/__simulator, the Admin API) answer only local callers; see local-origin.ts.
    const control = isControlPath(url.pathname);
    if (control) {
      const refused = refuseForeignCaller(req);
      if (refused) throw new MockHttpError(403, 'forbidden', `${refused.charAt(0).toUpperCase()}${refused.slice(1)}.`);
    }
    const allowOrigin = control ? (req.headers.origin ?? '') : '*';

    if (method === 'options' && req.headers['access-control-request-method']) {
      // Browser preflight: front-end developers call the mock from other origins.
      res.writeHead(204, {
        ...(allowOrigin ? { 'access-control-allow-origin': allowOrigin, vary: 'Origin' } : {}),
        'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
        'access-control-allow-headers': String(req.headers['access-control-request-headers'] ?? '*').slice(0, 500),
        'access-control-max-age': '600',
        'content-length': '0',
      });
      res.end();
      return;
    }
    if (allowOrigin) res.setHeader('access-control-allow-origin', allowOrigin);
    if (control) res.setHeader('vary', 'Origin');

    // Browsers ask every origin for /favicon.ico (a tab on /docs or on a JSON answer): no icon here, and no
    // 404 in the log for it. The console's page carries its own icon inline, so it never asks.
    if (url.pathname === '/favicon.ico' && (method === 'get' || method === 'head')) {
      if (ctx.feed) traceRequest(req, { api: 'other', own: true });
      res.writeHead(204, { 'cache-control': 'max-age=86400' });
      res.end();
      return;
    }
    if (await routeControl(req, res, url)) return;
    if (await routeAssets(req, res, url)) return;
    if (ctx.docsRoot && (await serveDocs(ctx.docsRoot, req, res, url.pathname))) return;

    const result = route(ctx.mounts, url.pathname, method);
    const mount = result.kind === 'match' ? result.match.mount : result.kind === 'no-mount' ? undefined : result.mount;
    checkDeclaredLength(req, mount ? bodyLimit(mount.segment) : ctx.maxBodyBytes);
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
    const prefs = parsePreferences(req.headers.prefer, url.searchParams);

    const api = match.mount.segment;
    if (ctx.feed) traceRequest(req, { api, store: match.storeId, operation: op.operationId });
    // Security first, before any `Prefer` control picks who answers: a token of another store (judged by
    // the extension that issued it) is refused here for the sandbox and Prism alike.
    const denied = checkSecurity(op, req.headers, url.searchParams, {
      judgeToken: (scheme, token) => judgeToken(api, match.storeId, scheme.id, token),
      bearerHint: api === 'storefront' ? 'get one from POST /auth/anonymous' : undefined,
      judgeApiKey: (scheme, key) => judgeApiKey(api, match.storeId, scheme.id, key),
    });
    if (denied) throw denied;
    validateParameters(op, match.pathParams, url.searchParams, req.headers);
    let liveOperation = live.get(liveKey(api, op.operationId));
    // `Prefer: code=..., example=...` (and dynamic mode) ask for the spec's own answers: Prism's to give.
    if (liveOperation?.yieldsToControls && (ctx.dynamic || hasPreferences(prefs))) liveOperation = undefined;
    const body = await readRequestBody(req, op, bodyLimit(api), !liveOperation?.validatesBody);

    // Faults and delays (faults.ts): here, once the request is one the operation answers, before the answer.
    const injection = ctx.faults?.decide(match.storeId, op.operationId, prefs.delay);
    if (injection && !(await inject(injection, { req, res, storeId: match.storeId, operationId: op.operationId, registry: ctx.faults, note }))) return;

    if (liveOperation) {
      const reply = await liveOperation.handle({ storeId: match.storeId, params: match.pathParams, query: url.searchParams, body, headers: req.headers });
      for (const extension of ctx.extensions) {
        const pending = extension.settled?.();
        if (pending) await pending;
      }
      writeReply(res, reply);
      return;
    }

    const fastPath = ctx.cacheDefaults && !ctx.dynamic && !hasPreferences(prefs) && acceptsJson(req.headers.accept);
    let response = fastPath ? op.defaultResponse ?? learned.get(op) : undefined;
    if (!response) {
      response = await askPrism(req, url, match, body, prefs);
      if (fastPath && response.status >= 200 && response.status < 300) learned.set(op, response);
    }
    // Paging over the example's set, unless a control asked for a specific answer.
    if (!ctx.dynamic && !hasPreferences(prefs) && isPaginated(op)) response = paginate(response, url.searchParams);
    if (ctx.strictAuth && match.mount.segment === 'storefront' && issuesTokens(op.method, op.path) && response.status < 300) {
      response = { ...response, body: ctx.tokens.rewriteAuthBody(response.body) };
    }
    send(res, response);
  }

  async function readRequestBody(req: IncomingMessage, op: OperationModel, limit: number, validate: boolean): Promise<unknown> {
    if (!hasBody(req)) {
      if (op.requestBody?.required) {
        throw invalid(op, 'invalid_body', 'Request body is required (send JSON with Content-Type: application/json).', [
          { location: 'body', name: '(body)', message: 'is required' },
        ]);
      }
      return undefined;
    }
    if (!op.requestBody) {
      // The operation takes no body (e.g. POST /auth/anonymous): read within the limit and ignore it.
      await readBody(req, limit);
      return undefined;
    }
    const mediaType = matchContentType(op, req.headers['content-type']);
    const bytes = await readBody(req, limit);
    if (ctx.feed) traceRequest(req, { body: bytes });
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

  async function askPrism(req: IncomingMessage, url: URL, match: RouteMatch, body: unknown, prefs: Preferences): Promise<CachedResponse> {
    const engine = ctx.engines.get(match.mount.segment)!;
    const query: Record<string, string | string[]> = {};
    for (const key of new Set(url.searchParams.keys())) {
      const all = url.searchParams.getAll(key);
      query[key] = all.length === 1 ? all[0] : all;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    return engine.respond(
      match.operation,
      { method: match.operation.method, path: match.innerPath, query, headers, body },
      prefs,
      ctx.dynamic,
    );
  }
}

function send(res: ServerResponse, response: CachedResponse): void {
  const noBody = response.status === 204 || response.status === 304;
  if (!noBody) captureBody(res, response.status, response.body);
  res.writeHead(response.status, {
    ...response.headers,
    ...(noBody ? {} : { 'content-type': response.headers['content-type'] ?? JSON_CONTENT_TYPE, 'content-length': String(response.body.length) }),
  });
  res.end(noBody ? undefined : response.body);
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
  return new MockHttpError(404, 'not_found', `No route for ${method.toUpperCase()} ${pathname.slice(0, 200)}. This mock serves ${bases}${ctx.docsRoot ? ' and /docs' : ''}.`);
}
