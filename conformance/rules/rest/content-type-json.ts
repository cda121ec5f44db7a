// content-type-json: every response with a body says it is JSON (`application/json` or `+json`).
import type { Rule } from '../../rest/types.js';

const JSON_RE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

export const contentTypeJson: Rule = {
  id: 'content-type-json',
  severity: 'error',
  summary: 'Responses with a body are served as application/json.',
  check({ live }) {
    if (live.status === 204 || live.status === 304) return [];
    if (!live.contentType) return ['the response has no Content-Type (the contract answers application/json)'];
    return JSON_RE.test(live.contentType) ? [] : [`Content-Type is "${live.contentType}", not application/json`];
  },
};
