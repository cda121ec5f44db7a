// status-documented: the live status is of the class the recording had (a request the contract serves
// is served, one it refuses is refused) and is a status the spec documents for the operation. The
// operations are stated; their exact status codes are designed by the spec (register SF-005 to
// SF-010), so another code of the right class (422 for 400) is advice, not a failure. Traffic observed
// without a recording (the validating proxy, `certify --from-har`) has no recorded class: there a status of
// a class the operation documents no code of (a 500 where only 2XX and 4XX are documented) is the failure,
// and another code of a documented class is advice.
import { problem, advisory } from '../model.js';
import type { RestRule } from '../observations/rest.js';
import { statusClass } from '../shared/rest.js';

export const statusDocumented: RestRule = {
  id: 'status-documented',
  target: 'rest',
  severity: 'error',
  source: { kind: 'stated', ref: 'spec/openapi/storefront.yaml#/paths' },
  summary: 'The status is of the class the recording had; a code the spec does not document for the operation is advisory.',
  appliesTo: 'all',
  check({ step, live, observed }) {
    const documented: readonly string[] = step.operation.responses;
    const code = String(live.status);
    const cls = statusClass(live.status);
    const classMatches = observed ? documented.some((d) => statusClass(Number(d[0]) * 100) === cls) : cls === statusClass(step.recorded.status);
    // (A documented `default` covers every status: nothing below is reported then, whatever the class.)
    const findings = [];
    if (!documented.includes(code) && !documented.includes(cls) && !documented.includes('default')) {
      const message = `status ${code} is not documented for ${step.operation.operationId} (documented: ${documented.join(', ')})`;
      findings.push(classMatches ? advisory('status', message) : problem('status', observed ? `${message}: the contract documents no ${cls} status for it` : message));
    }
    if (!classMatches && !observed) {
      findings.push(problem('status', `status ${code} is not of the recorded class ${statusClass(step.recorded.status)} (the recording had ${step.recorded.status})`));
    }
    return findings;
  },
};
