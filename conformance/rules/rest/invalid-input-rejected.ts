// invalid-input-rejected: input the recording saw rejected (400 invalid, 404 unknown id, 413 too large,
// 415 not JSON) is rejected by the target too; a server that accepts page 0 fails here.
import type { Rule } from '../../rest/types.js';
import { describeRequest } from './util.js';

const WHAT: Record<number, string> = { 400: 'invalid input', 404: 'an unknown id', 413: 'an oversized body', 415: 'a body that is not JSON' };

export const invalidInputRejected: Rule = {
  id: 'invalid-input-rejected',
  severity: 'error',
  summary: 'Requests the recording saw rejected (400, 404, 413, 415) are rejected with a 4XX.',
  check({ step, request, live }) {
    const what = WHAT[step.recorded.status];
    if (!what || (live.status >= 400 && live.status < 500)) return [];
    return [`${describeRequest(request.url, request.method)} sends ${what} (the recording had ${step.recorded.status}) but was answered ${live.status}`];
  },
};
