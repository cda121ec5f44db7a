// generated-refused: a generated request that breaks exactly one constraint of the spec is refused with
// a 4XX, and one without valid credentials with 401 or 403 (sections 4 and 5 of the platform's interface
// document). When the broken constraint is designed here (a body size limit, a content type, a parameter
// the spec adds), accepting it anyway is advice, not a failure.
import { advisory, problem, skip } from '../model.js';
import type { RestRule } from '../observations/rest.js';
import { describeRequest } from '../shared/rest.js';

export const generatedRefused: RestRule = {
  id: 'generated-refused',
  target: 'rest',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 4, 5' },
  summary: 'A generated request breaking one constraint is refused with a 4XX; one without valid credentials with 401 or 403.',
  appliesTo: 'generated',
  check({ generated, request, live }) {
    if (!generated) return skip('no generated cases (run with --generate N)');
    if (generated.kind === 'valid') return skip('not an invalid generated case');
    const what = `${describeRequest(request.url, request.method)} (${generated.label})`;
    if (generated.kind === 'security') {
      if (live.status === 401 || live.status === 403) return [];
      return [problem('credentials', `${what} must be refused with 401 or 403 but was answered ${live.status}`)];
    }
    if (live.status >= 400 && live.status < 500) return [];
    const message = `${what} breaks the spec and must be refused with a 4XX (${generated.expect} expected) but was answered ${live.status}`;
    return [generated.designed && live.status < 500 ? advisory('status', `${message}; the constraint is designed here, not stated by the platform`) : problem('status', message)];
  },
};
