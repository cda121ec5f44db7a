// How the workbench's parts plug into its one HTTP pipeline (workbench/mock/front.ts). The storefront
// mock, the live Admin webhook API and the /__simulator routes all go through the same routing, auth,
// body limits, request validation, envelope and log; an extension only supplies answers.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

/** An answer as a plain value, so the same logic serves HTTP, the in-process API and the tests. */
export interface Reply<T = unknown> {
  status: number;
  /** A value to serialize, or a Buffer holding JSON already serialized (sent as is). */
  body: T;
  headers?: Record<string, string>;
}

/** A request that passed the pipeline's checks for its operation (route, security, parameters, body size and type). */
export interface LiveRequest {
  storeId: string;
  /** Decoded path parameters by name. */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON body, or undefined when none was sent. */
  body: unknown;
  headers: IncomingHttpHeaders;
}

export interface LiveOperation {
  /** True when the handler validates the body against the operation's schema itself, with messages of its own. */
  validatesBody?: boolean;
  /** True when a request with a `Prefer` control (or a dynamic-mode workbench) is Prism's to answer from the spec instead. */
  yieldsToControls?: boolean;
  handle(request: LiveRequest): Reply | Promise<Reply>;
}

/** A route outside the contract (tried before the spec's routes); true when it answered. */
export type RouteHook = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;

export interface WorkbenchExtension {
  /** Operations answered live instead of by Prism, keyed `<api>.<operationId>` (e.g. `admin.createWebhook`). */
  operations?: ReadonlyMap<string, LiveOperation>;
  /** Routes outside the contract, such as /__simulator. */
  routes?: RouteHook;
  /**
   * Judges a well-formed bearer token of a security scheme (by its id in the document): true accepts,
   * a string refuses with that reason, undefined leaves the decision to the workbench.
   */
  judgeToken?: (schemeId: string, token: string) => true | string | undefined;
  /** Largest request body per API segment, when it differs from the workbench's default. */
  maxBodyBytes?: Partial<Record<string, number>>;
  /**
   * Resolves once this extension's writes so far are durable (undefined: nothing pending). The pipeline
   * awaits every extension's before writing a live operation's answer, so no answer reports (or shows) a
   * write that a crash could still undo; route hooks await it themselves.
   */
  settled?: () => Promise<void> | undefined;
}

export function liveKey(api: string, operationId: string): string {
  return `${api}.${operationId}`;
}
