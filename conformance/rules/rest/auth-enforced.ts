// auth-enforced: a request without valid credentials (the recording had 401 or 403) is refused with
// 401 or 403; a server that answers it fails here. Section 5 of the platform's interface document
// states which credential each operation needs. On traffic observed without a recording (the validating
// proxy, `certify --from-har`) whether a credential is valid cannot be seen, but whether one was sent can:
// a request carrying none of the credentials the operation takes must be refused the same way.
import { problem, skip } from '../model.js';
import { carriesCredential, credentialsOf, describeCredentials } from '../credentials.js';
import type { Exchange, RestRule } from '../observations/rest.js';
import { describeRequest } from '../shared/rest.js';

export const authEnforced: RestRule = {
  id: 'auth-enforced',
  target: 'rest',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 5' },
  summary: 'Requests without valid credentials (recorded 401/403) are refused with 401 or 403.',
  appliesTo: 'all',
  check(exchange) {
    const { step, request, live } = exchange;
    if (exchange.generated) return skip('a generated case (generated-refused judges its credentials)');
    if (exchange.observed) return observedWithout(exchange);
    if (step.recorded.status !== 401 && step.recorded.status !== 403) return skip('the recording did not refuse the credentials');
    if (live.status === 401 || live.status === 403) return [];
    const sent = request.headers['authorization'] !== undefined || request.headers['x-api-key'] !== undefined ? 'invalid or insufficient credentials' : 'no credentials';
    return [problem('credentials', `${describeRequest(request.url, request.method)} with ${sent} was answered ${live.status}; the recording had ${step.recorded.status}`)];
  },
};

/** Observed traffic: only a request that carried no credential at all is known to be unauthenticated. */
function observedWithout({ step, request, live }: Exchange) {
  const alternatives = credentialsOf(step.operation.operationId);
  // Stryker disable next-line StringLiteral,ConditionalExpression: every security scheme of the storefront contract is a header a request shows; no operation reaches this
  if (!alternatives) return skip(`the credentials of ${step.operation.operationId} cannot be seen in a request`);
  if (alternatives.length === 0) return skip('a public operation');
  if (carriesCredential(alternatives, request.headers)) return skip('the request carried credentials (whether they were valid cannot be seen in traffic)');
  if (live.status === 401 || live.status === 403) return [];
  return [problem('credentials', `${describeRequest(request.url, request.method)} carried no credentials (it needs ${describeCredentials(alternatives)}) but was answered ${live.status}`)];
}
