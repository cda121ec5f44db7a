// The per-delivery sender rules, one defect at a time: a delivery exactly as the contract describes it
// passes every rule; each case changes one thing and must fail exactly the rule named.
import { describe, expect, it } from 'vitest';
import { senderRules } from '../../conformance/rules/webhooks/index.js';
import { runRules } from '../../conformance/webhooks/run-rules.js';
import { timingModel, windowFor } from '../../conformance/webhooks/timing.js';
import type { CapturedDelivery, SenderObservations } from '../../conformance/webhooks/types.js';
import { exampleEnvelope, headersFor } from '../../conformance/webhooks/receiver/deliveries.js';
import { signPayload } from '../../src/webhooks/verify.js';
import { deliveryRules } from '../../generated/webhooks/catalog.js';

const SECRET = 'whsec_rules_test';
const PER_DELIVERY = ['sender-method-post', 'sender-signature-format', 'sender-signature-raw-body', 'sender-identity-headers', 'sender-user-agent', 'sender-content-type', 'sender-envelope-schema', 'sender-delivery-id-unique', 'sender-custom-headers'];

function delivery(change: (d: { body: Record<string, any>; raw?: Buffer; headers: Record<string, string[]>; method: string }) => void = () => {}): CapturedDelivery {
  const body = exampleEnvelope('order.created') as unknown as Record<string, any>;
  const raw = Buffer.from(JSON.stringify(body));
  const headers = Object.fromEntries(Object.entries({ ...headersFor(body as never, raw, SECRET), 'X-Tenant': 't-1' }).map(([k, v]) => [k.toLowerCase(), [v]]));
  const d = { body, raw: raw as Buffer | undefined, headers, method: 'POST' };
  change(d);
  const bytes = d.raw ?? Buffer.from(JSON.stringify(d.body));
  return { seq: 1, phase: 'delivered', method: d.method, path: '/', headers: d.headers, raw: bytes, body: JSON.parse(bytes.toString()), receivedAt: 0, endedAt: 1, answer: 200 };
}

function failingPerDelivery(d: CapturedDelivery): string[] {
  const o: SenderObservations = { secret: SECRET, customHeaders: { 'X-Tenant': 't-1' }, deliveries: [d], phases: {}, timing: timingModel() };
  return runRules(senderRules, o).filter((r) => PER_DELIVERY.includes(r.id) && r.status === 'fail').map((r) => r.id);
}

const sig = deliveryRules.signature.header.toLowerCase();
const CASES: Array<[string, { change: Parameters<typeof delivery>[0]; want: string[] }]> = [
  ['a contract delivery', { change: () => {}, want: [] }],
  ['GET instead of POST', { change: (d) => (d.method = 'GET'), want: ['sender-method-post'] }],
  ['upper-case hex digest', { change: (d) => (d.headers[sig] = [`sha256=${d.headers[sig][0].slice(7).toUpperCase()}`]), want: ['sender-signature-format'] }],
  ['signature header twice', { change: (d) => d.headers[sig].push(d.headers[sig][0]), want: ['sender-signature-format'] }],
  ['signed over compact JSON, sent indented', { change: (d) => (d.raw = Buffer.from(JSON.stringify(d.body, null, 2))), want: ['sender-signature-raw-body'] }],
  ['signed with another secret', { change: (d) => (d.headers[sig] = [signPayload(d.raw!, 'other')]), want: ['sender-signature-raw-body'] }],
  ['X-SVC-Delivery-ID differs from the body', { change: (d) => (d.headers['x-svc-delivery-id'] = ['dlv_other']), want: ['sender-identity-headers'] }],
  ['another User-Agent', { change: (d) => (d.headers['user-agent'] = ['node']), want: ['sender-user-agent'] }],
  ['text/plain', { change: (d) => (d.headers['content-type'] = ['text/plain']), want: ['sender-content-type'] }],
  ['application/json; charset=utf-8 is fine', { change: (d) => (d.headers['content-type'] = ['application/json; charset=utf-8']), want: [] }],
  ['custom header missing', { change: (d) => delete d.headers['x-tenant'], want: ['sender-custom-headers'] }],
  ['is_test a string (re-signed)', {
    change: (d) => {
      d.body.is_test = 'false';
      d.raw = Buffer.from(JSON.stringify(d.body));
      d.headers[sig] = [signPayload(d.raw, SECRET)];
    },
    want: ['sender-envelope-schema'],
  }],
];

describe('sender rules on one delivery', () => {
  it.each(CASES)('%s', (_name, { change, want }) => {
    expect(failingPerDelivery(delivery(change))).toEqual(want);
  });

  it('a custom header value that differs is reported without the value', () => {
    const o: SenderObservations = { secret: SECRET, customHeaders: { 'X-Tenant': 'secret-value' }, deliveries: [delivery()], phases: {}, timing: timingModel() };
    const result = runRules(senderRules, o).find((r) => r.id === 'sender-custom-headers')!;
    expect(result.status).toBe('fail');
    expect(JSON.stringify(result)).not.toContain('secret-value');
    expect(JSON.stringify(result)).not.toContain('t-1');
  });
});

describe('timing model', () => {
  it('reads the contract numbers and scales them', () => {
    const t = timingModel({ timeScale: 0.01 });
    expect(t.timeoutMs).toBeCloseTo(deliveryRules.timeoutSeconds * 10);
    expect(t.retryDelaysMs).toEqual(deliveryRules.retryDelaysSeconds.map((s) => s * 10));
    expect(t.maxAttempts).toBe(deliveryRules.maxAttempts);
  });

  it.each([
    [5000, { min: 4735, max: 8500 }],
    [300_000, { min: 284_985, max: 451_000 }],
  ])('window around %d ms', (expected, want) => {
    const w = windowFor(timingModel(), expected);
    expect(w.min).toBeCloseTo(want.min);
    expect(w.max).toBeCloseTo(want.max);
  });
});

describe('rule files and docs', () => {
  it('every rule has its own file named by its id and one README line', async () => {
    const { readFileSync, existsSync } = await import('node:fs');
    const { receiverRules } = await import('../../conformance/rules/webhooks/index.js');
    const readme = readFileSync(new URL('../../conformance/rules/webhooks/README.md', import.meta.url), 'utf8');
    for (const rule of [...senderRules, ...receiverRules]) {
      expect(existsSync(new URL(`../../conformance/rules/webhooks/${rule.id}.ts`, import.meta.url))).toBe(true);
      expect(readme.split('\n').filter((l) => l.startsWith(`- \`${rule.id}\`:`))).toHaveLength(1);
    }
  });
});
