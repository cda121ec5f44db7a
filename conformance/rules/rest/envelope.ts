// envelope: every body is the storefront envelope: `success` true on 2XX and false on 4XX/5XX,
// `message` a string (sections 2.1 and 7 of the platform's interface document).
import { problem, skip, type Finding } from '../model.js';
import type { RestRule } from '../observations/rest.js';
import { isObject } from '../shared/rest.js';

export const envelope: RestRule = {
  id: 'envelope',
  target: 'rest',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 2.1, 7' },
  summary: '`success` is true on 2XX and false on 4XX/5XX; `message` is a string.',
  appliesTo: 'all',
  check({ live }) {
    if (live.status === 204 || live.status === 304) return skip(`a ${live.status} has no body`);
    if (!isObject(live.body)) return [problem('body', `the body is not an envelope object (${live.parseError ? 'not JSON' : typeof live.body})`)];
    const findings: Finding[] = [];
    const want = live.status >= 200 && live.status < 300;
    if (live.body.success !== want) findings.push(problem('success', `success is ${JSON.stringify(live.body.success)} on a ${live.status}; it must be ${want}`));
    if (typeof live.body.message !== 'string') findings.push(problem('message', `message is ${live.body.message === undefined ? 'missing' : typeof live.body.message}; it must be a string`));
    return findings;
  },
};
