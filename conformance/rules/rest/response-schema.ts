// response-schema: the body is valid against the operation's response schema for the status (the
// models of section 2 of the platform's interface document, as the spec writes them), using the
// generated (precompiled) validators. Undocumented statuses are status-documented's to report.
import { issuesToString, responseValidator, validateResponse } from 'storefront-contract/validators';
import { problem, skip } from '../model.js';
import type { RestRule } from '../observations/rest.js';

const MAX_ISSUES = 5;

export const responseSchema: RestRule = {
  id: 'response-schema',
  target: 'rest',
  severity: 'error',
  source: { kind: 'stated', ref: 'spec/openapi/storefront.yaml#/paths' },
  summary: "The body is valid against the operation's response schema for that status.",
  appliesTo: 'all',
  check({ step, live }) {
    const operationId = step.operation.operationId;
    if (!responseValidator('storefront', operationId, live.status)) return skip(`no schema for status ${live.status} of ${operationId}`);
    if (live.parseError !== undefined) return [problem('body', `the body is not JSON (${live.parseError})`)];
    const result = validateResponse('storefront', operationId, live.status, live.body);
    if (result.valid) return [];
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral,ArithmeticOperator: the generated validators stop at the first error (allErrors: false; a two-branch anyOf adds 3 at most), so no result reaches 6 issues
    const more = result.errors.length > MAX_ISSUES ? ` (and ${result.errors.length - MAX_ISSUES} more)` : '';
    // Stryker disable next-line MethodExpression: at most 3 issues (above): the slice keeps them all
    return [problem('body', `the ${live.status} body does not match the schema: ${issuesToString(result.errors.slice(0, MAX_ISSUES))}${more}`)];
  },
};
