// How the workbench's parts plug into its one HTTP pipeline (workbench/engine/pipeline.ts). The storefront
// mock, the live Admin webhook API and the /__simulator routes all go through the same routing, auth,
// body limits, request validation, envelope and log; an extension only supplies answers.
import type { RequestHeaders } from '../engine/exchange.js';
import type { ErrorReply } from './errors.js';

export type { ErrorReply };

/** A successful answer as a plain value. */
export interface BodyReply<T = unknown> {
  status: number;
  /** A value to serialize, or a Buffer holding JSON already serialized (sent as is). */
  body: T;
  headers?: Record<string, string>;
  error?: undefined;
}

/**
 * An answer as a plain value, so the same logic serves HTTP, the in-process API and the tests: a body,
 * or a failure (`fail()` of errors.ts) that only the error writer turns into the envelope.
 */
export type Reply<T = unknown> = BodyReply<T> | ErrorReply;

/**
 * Who is calling, resolved once by the pipeline from the operation's `security` before any handler runs
 * (issue 39 item 2): the store of the path, the API key and the bearer token that opened the operation,
 * and the identity the extension that judged the token resolved it to. Handlers read this and never parse
 * the credentials' headers again.
 */
export interface Caller {
  storeId: string;
  /** The store API key the request was accepted with (X-Api-Key), when the operation asks for one. */
  apiKey?: string;
  /** The bearer token the request was accepted with, when the operation asks for one. */
  token?: string;
  /**
   * The token's holder as the extension that accepted it knows it (`judgeToken` answered `{ identity }`):
   * the sandbox's Identity (its user, the customer it reads as). Undefined when no extension knew the
   * token (a lenient workbench accepts any well-formed one) or the operation takes none.
   */
  identity?: unknown;
}

/** An extension's verdict on a token: accepted (with the holder it resolved, if any), refused with a reason, or undefined (not its to judge). */
export type TokenVerdict = true | { identity: unknown } | string | undefined;

/** A request that passed the pipeline's checks for its operation (route, security, parameters, body size and type). */
export interface LiveRequest {
  storeId: string;
  /** The caller, resolved once by the pipeline. */
  caller: Caller;
  /** Decoded path parameters by name. */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON body, or undefined when none was sent. */
  body: unknown;
  headers: RequestHeaders;
}

export interface LiveOperation {
  /** True when the handler validates the body against the operation's schema itself, with messages of its own. */
  validatesBody?: boolean;
  /** True when a request with a `Prefer` control (or a dynamic-mode workbench) is Prism's to answer from the spec instead. */
  yieldsToControls?: boolean;
  handle(request: LiveRequest): Reply | Promise<Reply>;
}

/** A request to a route outside the contract, after the pipeline matched it and read its body. */
export interface ControlRequest {
  /** Decoded path parameters by name (`{store_id}` -> `params.store_id`). */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The JSON object sent, when the route declares `body: 'json-object'`; otherwise undefined. */
  body: Record<string, unknown> | undefined;
  headers: RequestHeaders;
}

/**
 * A control route's answer that is not JSON: a page or a script of the console (workbench/console), sent
 * with its media type and the page's security headers by the control router.
 */
export interface ContentReply {
  status: 200;
  bytes: Buffer;
  contentType: string;
  headers?: Record<string, string>;
  error?: undefined;
  body?: undefined;
}

/**
 * A control route's answer written over time (the console's Server-Sent Events): its headers and a
 * stream of bytes, the body of the Response; the transport pulls from it as the connection takes data
 * and cancels it when the connection closes.
 */
export interface StreamReply {
  status: 200;
  headers: Record<string, string>;
  stream: ReadableStream<Uint8Array>;
  error?: undefined;
  body?: undefined;
}

/**
 * One route outside the contract (under /__simulator, or the console's page under /console), declared as data: the pipeline matches every
 * extension's routes with one matcher (workbench/http/control-routes.ts), answers 404/405 for them, reads
 * the body with the one body reader (http/body.ts) and writes the Reply, errors through http/errors.ts.
 */
export interface ControlRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A path template: `/__simulator/stores/{store_id}/orders/{order_number}/status`. */
  path: string;
  /** One line for GET /__simulator and the docs. */
  summary: string;
  /** `json-object`: the body must be a JSON object (400 otherwise). Unset: a body sent is read within the limit and ignored. */
  body?: 'json-object';
  /** A JSON Reply; the console's page and its stream answer with a ContentReply or a StreamReply. */
  handle(request: ControlRequest): Reply | ContentReply | StreamReply | Promise<Reply | ContentReply | StreamReply>;
}

/** A successful answer that is not JSON (a generated image): its bytes and media type. */
export interface AssetReply {
  status: 200;
  bytes: Buffer;
  contentType: string;
  headers?: Record<string, string>;
  error?: undefined;
}

/**
 * A read-only route outside the contract and outside /__simulator (under /__sandbox-assets): resources a
 * page on any origin may load, as the storefront API may be called from any origin (the sandbox's
 * images, which <img> tags of front-ends on other origins fetch). Matched by the same matcher as the
 * control routes (http/control-routes.ts `assetRouter`), GET and HEAD only; the router adds the caching
 * headers (ETag, 304) and the safety headers of a static file.
 */
export interface AssetRoute {
  method: 'GET';
  /** A path template under /__sandbox-assets. */
  path: string;
  summary: string;
  handle(request: ControlRequest): AssetReply | ErrorReply;
}

/** Where a bearer token is being used: the API segment (`storefront`, `admin`) and the store id of the path. */
export interface TokenTarget {
  api: string;
  storeId: string;
}

export interface WorkbenchExtension {
  /** Operations answered live instead of by Prism, keyed `<api>.<operationId>` (e.g. `admin.createWebhook`). */
  operations?: ReadonlyMap<string, LiveOperation>;
  /** Routes outside the contract, under /__simulator (tried before the spec's routes). */
  controlRoutes?: readonly ControlRoute[];
  /** Read-only resources under /__sandbox-assets that any origin may load (the sandbox's images). */
  assetRoutes?: readonly AssetRoute[];
  /**
   * Judges a well-formed bearer token of a security scheme (by its id in the document) for the API and
   * store the request names: true (or `{ identity }`, the holder it resolved, handed to the handlers as
   * `caller.identity`) accepts, a string refuses with that reason (401 with its challenge), undefined
   * leaves the decision to the workbench. It runs before any `Prefer` control, so a token refused here is
   * refused whoever answers; it is the only place a token is resolved.
   */
  judgeToken?: (schemeId: string, token: string, target: TokenTarget) => TokenVerdict;
  /**
   * Judges a well-formed API key (X-Api-Key) the same way, for the API and store of the request. Not asked
   * when the workbench was started with fixed keys (`apiKeys`, `--api-key`): those open every store.
   */
  judgeApiKey?: (schemeId: string, key: string, target: TokenTarget) => true | string | undefined;
  /** Largest request body per API segment, when it differs from the workbench's default. */
  maxBodyBytes?: Partial<Record<string, number>>;
  /**
   * Resolves once this extension's writes so far are durable (undefined: nothing pending). The pipeline
   * awaits every extension's before writing a live operation's answer, so no answer reports (or shows) a
   * write that a crash could still undo (a control route's answer too).
   */
  settled?: () => Promise<void> | undefined;
}

export function liveKey(api: string, operationId: string): string {
  return `${api}.${operationId}`;
}
