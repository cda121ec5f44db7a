// response-schema: the body is valid against the operation's response schema for the status, using
// the generated (precompiled) validators. Undocumented statuses are status-documented's to report.
import { issuesToString, responseValidator, validateResponse } from '../../../src/validators/index.js';
import type { Rule } from '../../rest/types.js';

const MAX_ISSUES = 5;

export const responseSchema: Rule = {
  id: 'response-schema',
  severity: 'error',
  summary: "The body is valid against the operation's response schema for that status.",
  check({ step, live }) {
    const operationId = step.operation.operationId;
    if (!responseValidator('storefront', operationId, live.status)) return [];
    if (live.parseError !== undefined) return [`the body is not JSON (${live.parseError})`];
    const result = validateResponse('storefront', operationId, live.status, live.body);
    if (result.valid) return [];
    const more = result.errors.length > MAX_ISSUES ? ` (and ${result.errors.length - MAX_ISSUES} more)` : '';
    return [`the ${live.status} body does not match the schema: ${issuesToString(result.errors.slice(0, MAX_ISSUES))}${more}`];
  },
};
