// content-type-json: every response with a body says it is JSON (`application/json` or `+json`), the
// media type the spec gives every response.
import { problem, skip } from '../model.js';
import type { RestRule } from '../observations/rest.js';

const JSON_RE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

export const contentTypeJson: RestRule = {
  id: 'content-type-json',
  target: 'rest',
  severity: 'error',
  source: { kind: 'stated', ref: 'spec/openapi/storefront.yaml#/paths' },
  summary: 'Responses with a body are served as application/json.',
  appliesTo: 'all',
  check({ live }) {
    if (live.status === 204 || live.status === 304) return skip(`a ${live.status} has no body`);
    if (!live.contentType) return [problem('Content-Type', 'the response has no Content-Type (the contract answers application/json)')];
    return JSON_RE.test(live.contentType) ? [] : [problem('Content-Type', `Content-Type is "${live.contentType}", not application/json`)];
  },
};
