// The work of the validation middleware, loaded only with it (never by a client created without
// validation): content type, one JSON parse, and the operation's validators, which load from the
// API's loader map on the first response of that operation.
import { loadedValidators, loadValidators, type ValidatorLoaders } from '../validators/operation-loader.js';
import type { ValidationIssue } from '../validators/format-errors.js';
import type { ApiName } from '../validators/lookup.js';

/**
 * Checks a response of `operationId` against the contract, handing each violation to `report`
 * (which may throw). Returns the response openapi-fetch should read on: undefined when the body
 * was not read, else an identical copy whose `json()` is the body already parsed.
 */
export async function checkResponse(
  api: ApiName,
  loaders: ValidatorLoaders,
  operationId: string,
  response: Response,
  report: (issues: ValidationIssue[]) => void,
): Promise<Response | undefined> {
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('json')) {
    report([{ path: '/', message: `content type must be JSON, got "${type}"` }]);
    return undefined;
  }
  // Start the import (first use only) while the body downloads.
  const validators = loadedValidators(api, operationId) ?? loadValidators(api, loaders, operationId);
  // Awaited below unless the body is not JSON; a failed import must not go unhandled then.
  if (validators instanceof Promise) validators.catch(() => undefined);
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (body === undefined) {
    report([{ path: '/', message: 'body is not valid JSON' }]);
  } else {
    const loaded = await validators;
    const result = loaded
      ? loaded.validateResponse(response.status, body)
      : { valid: false as const, errors: [{ path: '/', message: `${operationId} is not an operation of the ${api} API` }] };
    if (!result.valid) report(result.errors);
  }
  return parsedResponse(response, text, body);
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
