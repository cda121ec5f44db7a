// Header lookup that works for node:http (`IncomingHttpHeaders`, lowercased names), Fetch `Headers`
// and plain objects written by hand (`{ 'X-SVC-Event': ... }`): names are case-insensitive (RFC 9110).

export type HeaderValue = string | readonly string[] | number | undefined | null;
export type HeaderSource = Headers | { readonly [name: string]: HeaderValue | unknown } | undefined | null;

export const HEADER = {
  event: 'x-svc-event',
  signature: 'x-svc-signature',
  eventId: 'x-svc-event-id',
  deliveryId: 'x-svc-delivery-id',
} as const;

/** The raw value of header `name` (lowercase), as found: a string, an array when repeated, or undefined. */
export function getHeader(headers: HeaderSource, name: string): unknown {
  if (headers === null || typeof headers !== 'object') return undefined;
  // Stryker disable next-line ConditionalExpression: Headers is a global in every supported Node (18+) and browser; the guard is for runtimes without it
  if (typeof Headers !== 'undefined' && headers instanceof Headers) return headers.get(name) ?? undefined;
  const record = headers as Record<string, unknown>;
  if (Object.prototype.hasOwnProperty.call(record, name)) return record[name];
  for (const key of Object.keys(record)) {
    if (key.toLowerCase() === name) return record[key];
  }
  return undefined;
}
