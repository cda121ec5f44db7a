// The one reader of the date-times the back office takes from a body (a cart's `expires_at`, a store
// clock's `now`): RFC 3339 with `T` and an offset, and a date and time that exist. `Date.parse` alone
// rolls an impossible date over to another day (`2026-02-30` is 2 March, `T24:00:00` the next day), so
// each part is checked against the calendar first; what does not exist is refused, never moved.

// Stryker disable next-line Regex: without ^ or $ the extra text makes V8's Date.parse answer NaN, refused below all the same
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|[+-](\d{2}):(\d{2}))$/i;

/** How a refusal describes what is wanted (after the field's name). */
export const DATE_TIME_WANTED = 'must be an RFC 3339 date-time that exists, with an offset, such as 2026-12-01T10:00:00Z';

/** The instant `value` names (ms since the epoch), or undefined when it is not a date-time that exists. */
export function parseDateTime(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = RFC3339.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second, offsetHours = 0, offsetMinutes = 0] = m.slice(1).map((part) => Number(part ?? 0));
  // V8's Date.parse refuses a month or a day 0 out of range, a minute, second or offset past its end (NaN,
  // refused below), but not a day past the month's end nor hour 24: checked here, all of them, so that the
  // reader does not lean on one engine's parser.
  // Stryker disable next-line ConditionalExpression,LogicalOperator: V8's Date.parse refuses these too (NaN), so no test under Node can tell
  if (month < 1 || month > 12 || day < 1) return undefined;
  if (day > daysIn(year, month)) return undefined;
  if (hour > 23) return undefined;
  // 23:59:60 (a leap second) is not an instant Date can hold: refused like any other second past 59.
  // Stryker disable next-line ConditionalExpression,LogicalOperator: V8's Date.parse refuses these too (NaN), so no test under Node can tell
  if (minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
