// Checks a subscription's `custom_headers` against the delivery rules before anything is stored
// (x-delivery-rules.customHeaders, register WH-005): they are sent on every attempt, so a reserved name
// would override the contract's own headers and a CR or LF would inject headers of its own.
import { deliveryRules, isReservedHeader } from './rules.js';
import type { ErrorItem } from './replies.js';

const rules = deliveryRules.customHeaders;
// RFC 9110 token characters: what an HTTP field name may contain.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FORBIDDEN_IN_VALUE = /[\r\n\0]/;
// What HTTP/1.1 (and undici) can carry in a field value. The spec forbids only CR, LF and NUL; other
// control characters would make every attempt fail on the sender's side, so they are refused here too.
const NOT_SENDABLE = /[^\t\x20-\x7e\x80-\xff]/;

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
      if (FORBIDDEN_IN_VALUE.test(value)) problems.push({ location: 'body', name: at, message: 'value must not contain CR, LF or NUL' });
      else if (NOT_SENDABLE.test(value)) {
        problems.push({ location: 'body', name: at, message: 'value has a control or non-Latin-1 character, which an HTTP header cannot carry' });
      }
    }
  }
  return problems;
}
