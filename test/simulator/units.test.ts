// Small pieces on their own: timing from the delivery rules, the envelope bytes, property overrides,
// custom header checks, error classes and the CLI's --set parser.
import { describe, expect, it } from 'vitest';
import { setPath } from '../../workbench/simulator/cli.js';
import { checkCustomHeaders } from '../../workbench/simulator/custom-headers.js';
import { classify, envelopeBytes, signAttempt } from '../../workbench/simulator/deliver.js';
import { deepMerge, unsetPath } from '../../workbench/simulator/event-builder.js';
import { parseTimeScale } from '../../workbench/simulator/index.js';
import { deliveryRules, isReservedHeader, isSuccess, timing } from '../../workbench/simulator/rules.js';
import { verifySignature } from '../../src/webhooks/verify.js';

describe('timing', () => {
  it('reads the delivery rules and scales every delay and the time-out by one factor', () => {
    expect(timing(1)).toEqual({
      timeScale: 1,
      timeoutMs: deliveryRules.timeoutSeconds * 1000,
      retryDelaysMs: deliveryRules.retryDelaysSeconds.map((s) => s * 1000),
      maxAttempts: deliveryRules.maxAttempts,
    });
    const fast = timing(0.01);
    expect(fast.retryDelaysMs).toEqual(deliveryRules.retryDelaysSeconds.map((s) => s * 10));
    expect(fast.timeoutMs).toBe(deliveryRules.timeoutSeconds * 10);
    expect(() => timing(0)).toThrow(/positive/);
    expect(parseTimeScale(undefined)).toBeUndefined();
    expect(parseTimeScale('0.002')).toBe(0.002);
    expect(() => parseTimeScale('-1')).toThrow(/positive/);
    expect(() => parseTimeScale('fast')).toThrow(/positive/);
  });

  it('2XX only is success', () => {
    expect([200, 204, 299].map(isSuccess)).toEqual([true, true, true]);
    expect([199, 301, 410, 500].map(isSuccess)).toEqual([false, false, false, false]);
  });
});

describe('envelope', () => {
  it('keeps the contract key order, splices the stored payload bytes, and is signed over exactly those bytes', () => {
    const parts = { event: 'order.created', eventId: 'evt_1', deliveryId: 'dlv_1', sentAt: Date.UTC(2025, 10, 14, 5, 0, 0), isTest: false, payloadJson: '{"b":1,"a":"é"}' };
    const bytes = envelopeBytes(parts);
    expect(bytes.toString('utf8')).toBe('{"event":"order.created","event_id":"evt_1","delivery_id":"dlv_1","timestamp":"2025-11-14T05:00:00.000Z","is_test":false,"payload":{"b":1,"a":"é"}}');
    const signed = signAttempt('http://127.0.0.1/x', parts, 'whsec_test', { 'X-Tenant': 't' });
    expect(verifySignature(signed.body, signed.headers[deliveryRules.headers.signature], 'whsec_test')).toEqual({ ok: true, secretIndex: 0 });
    expect(signed.headers).toMatchObject({ 'Content-Type': 'application/json', 'User-Agent': deliveryRules.userAgent, 'X-Tenant': 't', [deliveryRules.headers.deliveryId]: 'dlv_1' });
  });
});

describe('property overrides', () => {
  it.each([
    ['objects merge', { a: { b: 1, c: 2 } }, { a: { c: 3 } }, { a: { b: 1, c: 3 } }],
    ['arrays are replaced', { a: [1, 2, 3] }, { a: [9] }, { a: [9] }],
    ['index keys merge into an array', { a: [{ x: 1, y: 1 }, { x: 2 }] }, { a: { '0': { y: 5 } } }, { a: [{ x: 1, y: 5 }, { x: 2 }] }],
    ['null replaces', { a: { b: 1 } }, { a: null }, { a: null }],
    ['new keys are added', { a: 1 }, { b: 2 }, { a: 1, b: 2 }],
  ])('%s', (_n, base, override, want) => {
    expect(deepMerge(base, override)).toEqual(want);
  });

  it('refuses __proto__ and indexes past the end', () => {
    expect(() => deepMerge({}, JSON.parse('{"__proto__": {"polluted": true}}'))).toThrow(/__proto__/);
    expect(() => deepMerge([1], { '5': 1 })).toThrow(/past the end/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('unset removes a dotted path and reports a missing one', () => {
    const value = { a: { b: 1, c: [{ d: 1 }, { d: 2 }] } };
    expect(unsetPath(value, 'a.b')).toBe(true);
    expect(unsetPath(value, 'a.c.0')).toBe(true);
    expect(value).toEqual({ a: { c: [{ d: 2 }] } });
    expect(unsetPath(value, 'a.zz')).toBe(false);
  });

  it('the CLI --set parser builds nested overrides, values as JSON when they are JSON', () => {
    const out: Record<string, unknown> = {};
    setPath(out, 'order_number=SO-1');
    setPath(out, 'items.0.quantity=3');
    setPath(out, 'flag=true');
    setPath(out, 'code="5"');
    setPath(out, 'url=https://x.example/a=b');
    expect(out).toEqual({ order_number: 'SO-1', items: { '0': { quantity: 3 } }, flag: true, code: '5', url: 'https://x.example/a=b' });
    expect(() => setPath(out, 'novalue')).toThrow(/path=value/);
  });
});

describe('custom headers', () => {
  it('reserved names come from the delivery rules, prefixes and case included', () => {
    expect(isReservedHeader('x-svc-anything')).toBe(true);
    expect(isReservedHeader('X-SVC-Signature')).toBe(true);
    expect(isReservedHeader('TRANSFER-ENCODING')).toBe(true);
    expect(isReservedHeader('X-Service')).toBe(false);
    expect(checkCustomHeaders({ 'X-Tenant': 'a', Authorization: 'Bearer x' })).toEqual([]);
    expect(checkCustomHeaders({ 'X-A': 'a\u0001b' })[0].message).toMatch(/control/);
    expect(checkCustomHeaders({ 'X-A': 'a', 'x-a': 'b' })[0].message).toMatch(/twice/);
    expect(checkCustomHeaders(['x'])[0].name).toBe('custom_headers');
  });
});

describe('error classes', () => {
  it.each([
    [{ code: 'ECONNREFUSED' }, 'connection_refused'],
    [{ code: 'UND_ERR_SOCKET' }, 'connection_reset'],
    [{ code: 'ENOTFOUND' }, 'dns_error'],
    [{ code: 'UND_ERR_CONNECT_TIMEOUT' }, 'timeout'],
    [{ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }, 'tls_error'],
    [{ code: 'ERR_SIMULATOR_BLOCKED_ADDRESS' }, 'blocked_address'],
    [{ message: 'x', cause: { code: 'ECONNRESET' } }, 'connection_reset'],
    [new Error('?'), 'network_error'],
  ])('%o -> %s', (error, want) => {
    expect(classify(error)).toBe(want);
  });
});
