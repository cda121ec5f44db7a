// invalid-input-rejected: input the recording saw rejected (400 invalid, 404 unknown id, 413 too large,
// 415 not JSON) is rejected by the target too, with any 4XX; a server that accepts page 0 fails here.
// The validation rules (page and limit at least 1, sort_by JSON text, user_id required) are stated in
// sections 4.1 to 4.3 and 8 of the platform's interface document.
import { problem, skip } from '../model.js';
import type { RestRule } from '../observations/rest.js';
import { describeRequest } from '../shared/rest.js';

const WHAT: Record<number, string> = { 400: 'invalid input', 404: 'an unknown id', 413: 'an oversized body', 415: 'a body that is not JSON' };

export const invalidInputRejected: RestRule = {
  id: 'invalid-input-rejected',
  target: 'rest',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 4.1 to 4.3, 8' },
  summary: 'Requests the recording saw rejected (400, 404, 413, 415) are rejected with a 4XX.',
  appliesTo: 'replayed',
  check({ step, request, live }) {
    const what = WHAT[step.recorded.status];
    if (!what) return skip('the recording did not reject this request');
    if (live.status >= 400 && live.status < 500) return [];
    return [problem('status', `${describeRequest(request.url, request.method)} sends ${what} (the recording had ${step.recorded.status}) but was answered ${live.status}`)];
  },
};
