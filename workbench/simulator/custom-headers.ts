// Checks a subscription's `custom_headers` against the delivery rules before anything is stored
// (x-delivery-rules.customHeaders, register WH-005): they are sent on every attempt, so a reserved name
// would override the contract's own headers and a CR or LF would inject headers of its own.
import { deliveryRules, isReservedHeader } from './rules.js';
import type { ErrorItem } from './replies.js';

const rules = deliveryRules.customHeaders;
// RFC 9110 token characters: what an HTTP field name may contain.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FORBIDDEN_IN_VALUE = /[\r\n\0]/;
// What HTTP/1.1 (and undici, the sender) can carry in a field value and deliver unchanged (RFC 9110 5.5):
// tab, visible ASCII and Latin-1 obs-text, not starting or ending with a space or tab (every HTTP parser
// strips those). The same set as the spec's pattern for a value (CreateWebhookRequest.custom_headers);
// test/simulator/custom-headers.test.ts holds the two together and sends each kind of value with undici.
const BEYOND_LATIN_1 = /[^\x00-\xff]/u;
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;
const EDGE_WHITESPACE = /^[\t ]|[\t ]$/;

/** One ErrorItem per problem (empty when the headers are acceptable); names are quoted as given. */
export function checkCustomHeaders(headers: unknown): ErrorItem[] {
  if (headers === undefined) return [];
  if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) {
    return [{ location: 'body', name: 'custom_headers', message: 'must be an object of header name to string value' }];
  }
  const problems: ErrorItem[] = [];
  const entries = Object.entries(headers as Record<string, unknown>);
  if (entries.length > rules.maxCount) {
    problems.push({ location: 'body', name: 'custom_headers', message: `has ${entries.length} headers; at most ${rules.maxCount} are allowed` });
  }
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    const at = `custom_headers.${name}`;
    if (name.length > rules.maxNameLength) problems.push({ location: 'body', name: at, message: `header name is longer than ${rules.maxNameLength} characters` });
    if (!TOKEN.test(name)) problems.push({ location: 'body', name: at, message: 'header name must be an HTTP token (letters, digits and !#$%&\'*+.^_`|~-)' });
    else if (isReservedHeader(name)) {
      problems.push({ location: 'body', name: at, message: `reserved header name (${rules.reserved.join(', ')} cannot be set)` });
    }
    if (seen.has(name.toLowerCase())) problems.push({ location: 'body', name: at, message: 'the same header name is given twice (names are case-insensitive)' });
    seen.add(name.toLowerCase());
    if (typeof value !== 'string') problems.push({ location: 'body', name: at, message: 'value must be a string' });
    else {
      if (value.length > rules.maxValueLength) problems.push({ location: 'body', name: at, message: `value is longer than ${rules.maxValueLength} characters` });
      const problem = valueProblem(value);
      if (problem) problems.push({ location: 'body', name: at, message: problem });
    }
  }
  return problems;
}

/** Why a header value cannot be sent as it is, or undefined. */
export function valueProblem(value: string): string | undefined {
  if (FORBIDDEN_IN_VALUE.test(value)) return 'value must not contain CR, LF or NUL';
  const beyond = BEYOND_LATIN_1.exec(value);
  if (beyond) {
    return `value has ${codePoint(beyond[0])} (at character ${beyond.index + 1}), beyond Latin-1, which an HTTP header cannot carry; encode it in ASCII (for example percent-encoding or base64)`;
  }
  const control = CONTROL.exec(value);
  if (control) return `value has the control character ${codePoint(control[0])} (at character ${control.index + 1}), which an HTTP header cannot carry`;
  if (EDGE_WHITESPACE.test(value)) return 'value starts or ends with a space or tab, which HTTP strips from a header value (it would not arrive unchanged)';
  return undefined;
}

const codePoint = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
