// The helpers every rule of a kind shares (conformance/rules/shared/): how a delivery, a probe, a request
// and a duration are named in findings, and the small judgements (2XX, a header sent once, a window) the
// rules build on. Each is judged at its edges here, once, instead of through every rule that uses it.
import { describe, expect, it } from 'vitest';
import { describeRequest, isObject, jsonType, statusClass } from '../../../conformance/rules/shared/rest.js';
import { answeredInTime, lateAnswerReason, ms, stampDelay, windowFor } from '../../../conformance/rules/shared/timing.js';
import { describeDelivery, field, headerValues, is2xx, perDelivery, perProbe, quote, singleHeader, statusText } from '../../../conformance/rules/shared/webhooks.js';
import { timingModel } from '../../../conformance/webhooks/timing.js';
import { delivery, probe } from './webhooks/fixtures.js';

describe('shared/webhooks', () => {
  it('is2xx: 200 to 299, nothing else, no answer neither', () => {
    expect([199, 200, 204, 299, 300, 410, 500].map(is2xx)).toEqual([false, true, true, true, false, false, false]);
    expect(is2xx(null)).toBe(false);
  });

  it('field reads a property of an object, undefined for anything else', () => {
    expect(field({ a: 1 }, 'a')).toBe(1);
    expect(field({ a: 1 }, 'b')).toBeUndefined();
    expect(field(null, 'a')).toBeUndefined();
    expect(field('text', 'length')).toBeUndefined();
    expect(field(undefined, 'a')).toBeUndefined();
  });

  it('describeDelivery names the sequence, the phase, the event and the delivery_id, leaving out what is not a string', () => {
    const d = delivery(() => {}, { seq: 3, phase: 'retry' });
    expect(describeDelivery(d)).toBe(`delivery #3 (retry, order.created, dlv_attempt_3)`);
    expect(describeDelivery({ ...d, body: { event: 7, delivery_id: null } })).toBe('delivery #3 (retry)');
    expect(describeDelivery({ ...d, body: undefined })).toBe('delivery #3 (retry)');
  });

  it('headerValues finds a header by any case of its name; singleHeader wants it exactly once', () => {
    const d = delivery((e) => {
      e.headers['x-one'] = ['1'];
      e.headers['x-two'] = ['a', 'b'];
    });
    expect(headerValues(d, 'X-One')).toEqual(['1']);
    expect(headerValues(d, 'X-None')).toEqual([]);
    const problems: string[] = [];
    expect(singleHeader(d, 'X-One', problems)).toBe('1');
    expect(singleHeader(d, 'X-Two', problems)).toBeUndefined();
    expect(singleHeader(d, 'X-None', problems)).toBeUndefined();
    expect(problems).toEqual(['X-Two header is sent 2 times', 'X-None header is missing']);
  });

  it('quote shows a value as JSON text, cut at the limit with an ellipsis', () => {
    expect(quote('abc')).toBe('"abc"');
    expect(quote({ a: 1 })).toBe('"{\\"a\\":1}"');
    expect(quote(undefined)).toBe('"undefined"');
    expect(quote('x'.repeat(60))).toBe(`"${'x'.repeat(60)}"`);
    expect(quote('x'.repeat(61))).toBe(`"${'x'.repeat(60)}…"`);
    expect(quote('abcdef', 3)).toBe('"abc…"');
    expect(quote('abc', 3)).toBe('"abc"');
  });

  it('statusText: the status, or the transport error when no HTTP answer came', () => {
    expect(statusText(probe('valid', 'p', 201))).toBe('201');
    expect(statusText(probe('valid', 'p', null))).toBe('no HTTP answer (ECONNRESET)');
    expect(statusText({ ...probe('valid', 'p', null), transportError: undefined })).toBe('no HTTP answer (transport error)');
  });

  it('perDelivery: one finding per problem, on the delivery it names; skipped when nothing arrived', () => {
    const d = delivery(() => {}, { seq: 2, phase: 'retry' });
    expect(perDelivery([d], () => ['one', 'two'])).toEqual([
      { subject: 'delivery #2 (retry, order.created, dlv_attempt_2)', severity: 'error', message: 'one' },
      { subject: 'delivery #2 (retry, order.created, dlv_attempt_2)', severity: 'error', message: 'two' },
    ]);
    expect(perDelivery([d], () => [])).toEqual([]);
    expect(perDelivery([], () => ['never'])).toEqual({ skipped: 'no delivery arrived (see sender-delivers)' });
  });

  it('perProbe: only the probes of the groups given, each finding on its probe; skipped naming the groups when none was sent', () => {
    const probes = [probe('valid', 'v1', 500), probe('bad-signature', 'b1', 200, 'non-2XX'), probe('oversize', 'o1', 200, '413')];
    const names: string[] = [];
    expect(perProbe(probes, ['valid', 'oversize'], (p) => (names.push(p.name), [`saw ${p.status}`]))).toEqual([
      { subject: 'v1', severity: 'error', message: 'saw 500' },
      { subject: 'o1', severity: 'error', message: 'saw 200' },
    ]);
    expect(names).toEqual(['v1', 'o1']);
    expect(perProbe(probes, ['test', 'duplicate'], () => ['never'])).toEqual({ skipped: 'no test or duplicate probe was sent' });
  });
});

describe('shared/timing', () => {
  const t = timingModel();

  it('windowFor never goes below zero, however early the tolerance', () => {
    expect(windowFor(t, 10)).toEqual({ min: 0, max: 10 * 1.5 + 1000 });
    expect(windowFor(t, 0, 50)).toEqual({ min: 0, max: 1050 });
  });

  it('stampDelay is the longest stall of the deliveries given, 0 for none or unknown', () => {
    expect(stampDelay()).toBe(0);
    expect(stampDelay(undefined, {})).toBe(0);
    expect(stampDelay({ stampDelayMs: 5 }, { stampDelayMs: 40 }, {})).toBe(40);
    expect(stampDelay({ stampDelayMs: -3 })).toBe(0);
  });

  it('answeredInTime: an answer ending just before the earliest accepted time-out is in time, at it is not', () => {
    const earliest = windowFor(t, t.timeoutMs).min; // 28 485 ms at time scale 1
    expect(answeredInTime(t, { receivedAt: 100, endedAt: 100 + earliest - 1 })).toBe(true);
    expect(answeredInTime(t, { receivedAt: 100, endedAt: 100 + earliest })).toBe(false);
    expect(answeredInTime(t, { receivedAt: 100, endedAt: 100 + earliest - 1, stampDelayMs: 1 })).toBe(false);
  });

  it('lateAnswerReason says how long the answer took, the stall and the time-out, and what to do', () => {
    expect(lateAnswerReason(t, { seq: 4, receivedAt: 0, endedAt: 29_000, stampDelayMs: 12.4 })).toBe(
      "our answer to delivery #4 took 29 s, with a 12 ms stall of the certifier's event loop around it: too close to the sender's 30 s time-out to tell (use a larger --time-scale)",
    );
    expect(lateAnswerReason(t, { seq: 1, receivedAt: 0 })).toBe(
      "our answer to delivery #1 did not end, with a 0 ms stall of the certifier's event loop around it: too close to the sender's 30 s time-out to tell (use a larger --time-scale)",
    );
  });

  it('ms: whole ms under a second, seconds to the ms from one second up', () => {
    expect([0, 999.4, 999.6, 1000, 1234.5678, 28_484, 451_000, 7_200_000].map(ms)).toEqual(['0 ms', '999 ms', '1000 ms', '1 s', '1.235 s', '28.484 s', '451 s', '7200 s']);
  });
});

describe('shared/rest', () => {
  it('statusClass names the class of a status', () => {
    expect([200, 404, 503].map(statusClass)).toEqual(['2XX', '4XX', '5XX']);
  });

  it('isObject: a plain object only', () => {
    expect([{}, { a: 1 }, [], null, undefined, 'x', 0].map(isObject)).toEqual([true, true, false, false, false, false, false]);
  });

  it('jsonType names JSON types, null and array apart from object', () => {
    expect([null, [], {}, 'x', 1, true].map(jsonType)).toEqual(['null', 'array', 'object', 'string', 'number', 'boolean']);
  });

  it('describeRequest drops the storefront prefix of any store and keeps the query', () => {
    expect(describeRequest('http://h/api/v1/store-9/storefront/catalog/products?page=0', 'GET')).toBe('GET /catalog/products?page=0');
    expect(describeRequest('http://h/api/v1/s/storefront/orders', 'POST')).toBe('POST /orders');
    expect(describeRequest('http://h/other/api/v1/s/storefront/orders', 'GET')).toBe('GET /other/api/v1/s/storefront/orders');
    expect(describeRequest('http://h/api/v1//storefront/x', 'GET')).toBe('GET /api/v1//storefront/x');
  });
});
