// openapi-fetch middleware shared by both clients: credentials per the operation's security
// requirement, and the opt-in contract validation of responses.
import type { Middleware } from 'openapi-fetch';
import type { ApiName } from '../validators/lookup.js';
import { ContractViolationError, MissingCredentialsError } from './errors.js';
import type { FindOperation, OperationMeta } from './operation-index.js';

export type ValidationMode = 'off' | 'warn' | 'strict';

export interface Credentials {
  /** Header credentials per security scheme name, computed when a request needs them. */
  headersFor(scheme: string, op: OperationMeta): Record<string, string> | undefined;
}

export function authMiddleware(find: FindOperation, credentials: Credentials): Middleware {
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

// A dynamic import: the validation code and the validators stay out of a client (and its bundle)
// until a response is to be checked.
let responseCheck: Promise<typeof import('./response-check.js')> | undefined;
function loadResponseCheck() {
  responseCheck ??= import('./response-check.js').catch((error: unknown) => {
    responseCheck = undefined;
    throw error;
  });
  return responseCheck;
}

export function validationMiddleware(
  api: ApiName,
  find: FindOperation,
  mode: Exclude<ValidationMode, 'off'>,
  onViolation: (error: ContractViolationError) => void = (e) => console.warn(e.message),
): Middleware {
  return {
    async onResponse({ request, response, schemaPath }) {
      const op = find(request.method, schemaPath);
      if (!op) return undefined;
      const { checkResponse } = await loadResponseCheck();
      return checkResponse(api, op.operationId, response, (issues) => {
        const error = new ContractViolationError(op.operationId, response.status, issues);
        if (mode === 'strict') throw error;
        onViolation(error);
      });
    },
  };
}
