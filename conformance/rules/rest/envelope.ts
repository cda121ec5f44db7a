// envelope: every body is the storefront envelope: `success` true on 2XX and false on 4XX/5XX,
// `message` a string.
import type { Rule } from '../../rest/types.js';
import { isObject } from './util.js';

export const envelope: Rule = {
  id: 'envelope',
  severity: 'error',
  summary: '`success` is true on 2XX and false on 4XX/5XX; `message` is a string.',
  check({ live }) {
    if (live.status === 204 || live.status === 304) return [];
    if (!isObject(live.body)) return [`the body is not an envelope object (${live.parseError ? 'not JSON' : typeof live.body})`];
    const problems: string[] = [];
    const want = live.status >= 200 && live.status < 300;
    if (live.body.success !== want) problems.push(`success is ${JSON.stringify(live.body.success)} on a ${live.status}; it must be ${want}`);
    if (typeof live.body.message !== 'string') problems.push(`message is ${live.body.message === undefined ? 'missing' : typeof live.body.message}; it must be a string`);
    return problems;
  },
};
