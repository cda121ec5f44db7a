// auth-enforced: a request without valid credentials (the recording had 401 or 403) is refused with
// 401 or 403; a server that answers it fails here. Section 5 of the platform's interface document
// states which credential each operation needs.
import { problem, skip } from '../model.js';
import type { RestRule } from '../observations/rest.js';
import { describeRequest } from '../shared/rest.js';

export const authEnforced: RestRule = {
  id: 'auth-enforced',
  target: 'rest',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 5' },
  summary: 'Requests without valid credentials (recorded 401/403) are refused with 401 or 403.',
  appliesTo: 'replayed',
  check({ step, request, live }) {
    if (step.recorded.status !== 401 && step.recorded.status !== 403) return skip('the recording did not refuse the credentials');
    if (live.status === 401 || live.status === 403) return [];
    const sent = request.headers['authorization'] !== undefined || request.headers['x-api-key'] !== undefined ? 'invalid or insufficient credentials' : 'no credentials';
    return [problem('credentials', `${describeRequest(request.url, request.method)} with ${sent} was answered ${live.status}; the recording had ${step.recorded.status}`)];
  },
};
