// auth-enforced: a request without valid credentials (the recording had 401 or 403) is refused with
// 401 or 403; a server that answers it fails here.
import type { Rule } from '../../rest/types.js';
import { describeRequest } from './util.js';

export const authEnforced: Rule = {
  id: 'auth-enforced',
  severity: 'error',
  summary: 'Requests without valid credentials (recorded 401/403) are refused with 401 or 403.',
  check({ step, request, live }) {
    if (step.recorded.status !== 401 && step.recorded.status !== 403) return [];
    if (live.status === 401 || live.status === 403) return [];
    const sent = request.headers['authorization'] !== undefined || request.headers['x-api-key'] !== undefined ? 'invalid or insufficient credentials' : 'no credentials';
    return [`${describeRequest(request.url, request.method)} with ${sent} was answered ${live.status}; the recording had ${step.recorded.status}`];
  },
};
