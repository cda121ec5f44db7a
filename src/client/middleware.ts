// openapi-fetch middleware shared by both clients: credentials per the operation's security
// requirement, and the opt-in contract validation of responses.
import type { Middleware } from 'openapi-fetch';
import { validateResponse, type ApiName } from '../validators/index.js';
import { ContractViolationError, MissingCredentialsError } from './errors.js';
import type { OperationMeta } from './operation-index.js';

export type ValidationMode = 'off' | 'warn' | 'strict';

export interface Credentials {
  /** Header credentials per security scheme name, computed when a request needs them. */
  headersFor(scheme: string, op: OperationMeta): Record<string, string> | undefined;
}

export function authMiddleware(find: (m: string, p: string) => OperationMeta | undefined, credentials: Credentials): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      const op = find(request.method, schemaPath);
      if (!op || op.security.length === 0) return undefined;
      // Security requirements are alternatives; the first one we hold a credential for wins.
      for (const scheme of op.security) {
        const headers = credentials.headersFor(scheme, op);
        if (headers) {
          for (const [name, value] of Object.entries(headers)) request.headers.set(name, value);
          return request;
        }
      }
      throw new MissingCredentialsError(
        `${op.operationId} needs ${op.security.join(' or ')}; ` +
          (op.security.includes('bearerAuth') ? 'pass accessToken or call signInAnonymously() first' : 'pass the credential in the client options'),
      );
    },
  };
}

export function validationMiddleware(
  api: ApiName,
  find: (m: string, p: string) => OperationMeta | undefined,
  mode: ValidationMode,
  onViolation: (error: ContractViolationError) => void = (e) => console.warn(e.message),
): Middleware {
  return {
    async onResponse({ request, response, schemaPath }) {
      const op = find(request.method, schemaPath);
      if (!op) return undefined;
      const type = response.headers.get('content-type') ?? '';
      if (!type.includes('json')) {
        const error = new ContractViolationError(op.operationId, response.status, [{ path: '/', message: `content type must be JSON, got "${type}"` }]);
        if (mode === 'strict') throw error;
        onViolation(error);
        return undefined;
      }
      const text = await response.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      const result = body === undefined
        ? { valid: false as const, errors: [{ path: '/', message: 'body is not valid JSON' }] }
        : validateResponse(api, op.operationId, response.status, body);
      if (!result.valid) {
        const error = new ContractViolationError(op.operationId, response.status, result.errors);
        if (mode === 'strict') throw error;
        onViolation(error);
      }
      return parsedResponse(response, text, body);
    },
  };
}

/**
 * The body stream was consumed; hand openapi-fetch an identical response whose `json()` returns the
 * object already parsed, so validation costs one parse, not two. `Content-Length` is set because
 * openapi-fetch reads `text()` and parses again when it is absent.
 */
function parsedResponse(original: Response, text: string, body: unknown): Response {
  const headers = new Headers(original.headers);
  if (!headers.has('content-length')) headers.set('content-length', String(new TextEncoder().encode(text).byteLength));
  const response = new Response(text, { status: original.status, statusText: original.statusText, headers });
  if (body !== undefined) Object.defineProperty(response, 'json', { value: async () => body });
  return response;
}
