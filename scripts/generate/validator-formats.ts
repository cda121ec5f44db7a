// The string formats the spec uses, as single regular expressions. ajv-formats' "full" `uri` is a
// large RFC 3986 regex that costs more than the rest of a product list's validation together, and
// its `date`/`date-time` are functions, which standalone code can only reach by importing
// ajv-formats at run time. A RegExp is emitted inline, so the generated modules import nothing.
//
// Same verdicts as ajv-formats "full" (test/generated/formats.test.ts), with one documented
// difference: a leap second (`:60`) is accepted at any minute, not only at 23:59 UTC.

const DATE =
  String.raw`(?:\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|02-(?:0[1-9]|1\d|2[0-8]))` +
  // February 29th: years divisible by 4, except centuries not divisible by 400.
  String.raw`|(?:\d\d(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29)`;
const TIME = String.raw`(?:[01]\d|2[0-3]):[0-5]\d:(?:[0-5]\d|60)(?:\.\d+)?(?:z|[+-](?:[01]\d|2[0-3])(?::?[0-5]\d)?)`;
// RFC 3986 unreserved + reserved characters; `%` only as a percent-encoded octet. The loop is
// unrolled around `%` so a long invalid string cannot backtrack exponentially.
const URI_CHAR = String.raw`[\w\-.~:/?#[\]@!$&'()*+,;=]`;

export const fastFormats: Readonly<Record<string, RegExp>> = {
  date: new RegExp(`^${DATE}$`),
  'date-time': new RegExp(`^${DATE}[t\\s]${TIME}$`, 'i'),
  uri: new RegExp(`^[a-z][a-z0-9+.-]*:${URI_CHAR}*(?:%[0-9a-f]{2}${URI_CHAR}*)*$`, 'i'),
};
