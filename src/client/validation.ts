// The response validation of a typed client, in the chunk its API's validation module loads with
// (storefront-validation.ts, admin-validation.ts): it finds the operation of each response and
// checks the response against that operation's validators, loaded from the API's own map.
import type { ApiName } from '../validators/lookup.js';
import type { ValidationIssue } from '../validators/format-errors.js';
import type { ValidatorLoaders } from '../validators/operation-loader.js';
import type { ContractViolationError } from './errors.js';
import type { CheckResponse } from './middleware.js';
import { routeFinder } from './operation-index.js';
import { checkResponse } from './response-check.js';

export function responseChecker(
  api: ApiName,
  loaders: ValidatorLoaders,
  routes: Readonly<Record<string, string>>,
  onViolation: (error: ContractViolationError) => void = (e) => console.warn(e.message),
): CheckResponse {
  const find = routeFinder(routes);
  return async ({ request, response, schemaPath }, mode) => {
    const operationId = find(request.method, schemaPath);
    if (!operationId) return undefined;
    let violations: ValidationIssue[] | undefined;
    const checked = await checkResponse(api, loaders, operationId, response, (issues) => (violations = issues));
    if (violations) {
      // Loaded, not imported, and only for a violation: the class is in the chunk of the clients' other
      // error classes (`errors()` in middleware.ts).
      const { ContractViolationError } = await import('./errors.js');
      const error = new ContractViolationError(operationId, response.status, violations);
      if (mode === 'strict') throw error;
      onViolation(error);
    }
    return checked;
  };
}
