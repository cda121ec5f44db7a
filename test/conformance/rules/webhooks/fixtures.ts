// Observations for the webhook rule tests. Sender side: a delivery exactly as the contract describes it
// (the catalog's example of order.created, compact JSON, signed, every header), changed one thing at a
// time, and phases of attempts with arrival and end times. Receiver side: probe answers.
import { signPayload } from '../../../../src/webhooks/verify.js';
import { deliveryRules } from '../../../../generated/webhooks/catalog.js';
import { exampleEnvelope, headersFor } from '../../../../conformance/vectors/webhook-fixtures.js';
import { timingModel } from '../../../../conformance/webhooks/timing.js';
import type { CapturedDelivery, Expectation, PhaseName, PhaseRecord, ProbeGroup, ProbeResult, ReceiverObservations, SenderObservations } from '../../../../conformance/rules/observations/webhooks.js';

export const SECRET = 'whsec_rules_test';
export const SIGNATURE = deliveryRules.signature.header.toLowerCase();
/** The custom header every sender observation registers. */
export const CUSTOM_HEADERS = { 'X-Tenant': 't-1' };

export interface Editable {
  body: Record<string, any>;
  /** The bytes sent; when unset, the compact JSON of `body`. */
  raw?: Buffer;
  headers: Record<string, string[]>;
  method: string;
}
export type Change = (d: Editable) => void;

/** A contract delivery with one change, as the certifier's subscriber captured it. */
export function delivery(change: Change = () => {}, at: Partial<CapturedDelivery> = {}): CapturedDelivery {
  const body = exampleEnvelope('order.created') as unknown as Record<string, any>;
  if (at.seq !== undefined) body.delivery_id = `dlv_attempt_${at.seq}`;
  const raw = Buffer.from(JSON.stringify(body));
  const headers = Object.fromEntries(Object.entries({ ...headersFor(body as never, raw, SECRET), ...CUSTOM_HEADERS }).map(([k, v]) => [k.toLowerCase(), [v]]));
  const d: Editable = { body, raw, headers, method: 'POST' };
  change(d);
  const bytes = d.raw ?? Buffer.from(JSON.stringify(d.body));
  return { seq: 1, phase: 'delivered', method: d.method, path: '/', headers: d.headers, raw: bytes, body: JSON.parse(bytes.toString()), receivedAt: 0, endedAt: 1, answer: 200, ...at };
}

/** Re-signs the body after a change to it, so only the change is wrong. */
export const resign: Change = (d) => {
  d.raw = Buffer.from(JSON.stringify(d.body));
  d.headers[SIGNATURE] = [signPayload(d.raw, SECRET)];
};

/** A change to the body only, sent re-signed. */
export function body(mutate: (body: Record<string, any>) => void): Change {
  return (d) => {
    mutate(d.body);
    resign(d);
  };
}

/** Attempts of one event: [receivedAt, endedAt] each, in ms, same event_id, a new delivery_id each. */
export function attempts(phase: PhaseName, times: Array<[number, number | undefined]>, more: Partial<CapturedDelivery> = {}): CapturedDelivery[] {
  return times.map(([receivedAt, endedAt], i) => delivery(() => {}, { seq: i + 1, phase, receivedAt, endedAt, ...more }));
}

export function phase(name: PhaseName, deliveries: CapturedDelivery[], more: Partial<PhaseRecord> = {}): PhaseRecord {
  return { name, deliveries, notes: [], ...more };
}

/** What the sender rules see. Timing at time scale 1 unless given. */
export function sender(deliveries: CapturedDelivery[], more: Partial<SenderObservations> = {}): SenderObservations {
  return { secret: SECRET, customHeaders: CUSTOM_HEADERS, deliveries, phases: {}, timing: timingModel(), ...more };
}

/** What the sender rules see when the run had these phases (their deliveries are the observation's). */
export function phases(...records: PhaseRecord[]): SenderObservations {
  return sender(
    records.flatMap((r) => r.deliveries),
    { phases: Object.fromEntries(records.map((r) => [r.name, r])) },
  );
}

export function probe(group: ProbeGroup, name: string, status: number | null, expect: Expectation = '2XX', eventId?: string): ProbeResult {
  return { group, name, expect, status, durationMs: 1, ...(status === null ? { transportError: 'ECONNRESET' } : {}), ...(eventId ? { eventId } : {}) };
}

/** What the receiver rules see. */
export function receiver(probes: ProbeResult[], more: Partial<ReceiverObservations> = {}): ReceiverObservations {
  return { probes, duplicateEventIds: [], testEventIds: [], ...more };
}

/**
 * One change each to a contract delivery, and the rule that must name it. Every per-delivery rule's test
 * runs all of them: its own defects must be found, the others' must not (one defect, one rule).
 */
export const DEFECTS: Array<[string, { rule: string | null; change: Change }]> = [
  ['a contract delivery', { rule: null, change: () => {} }],
  ['GET instead of POST', { rule: 'sender-method-post', change: (d) => (d.method = 'GET') }],
  ['upper-case hex digest', { rule: 'sender-signature-format', change: (d) => (d.headers[SIGNATURE] = [`sha256=${d.headers[SIGNATURE][0].slice(7).toUpperCase()}`]) }],
  ['signature header twice', { rule: 'sender-signature-format', change: (d) => d.headers[SIGNATURE].push(d.headers[SIGNATURE][0]) }],
  ['signed over compact JSON, sent indented', { rule: 'sender-signature-raw-body', change: (d) => (d.raw = Buffer.from(JSON.stringify(d.body, null, 2))) }],
  ['signed with another secret', { rule: 'sender-signature-raw-body', change: (d) => (d.headers[SIGNATURE] = [signPayload(d.raw!, 'other')]) }],
  ['X-SVC-Delivery-ID differs from the body', { rule: 'sender-identity-headers', change: (d) => (d.headers['x-svc-delivery-id'] = ['dlv_other']) }],
  ['another User-Agent', { rule: 'sender-user-agent', change: (d) => (d.headers['user-agent'] = ['node']) }],
  ['text/plain', { rule: 'sender-content-type', change: (d) => (d.headers['content-type'] = ['text/plain']) }],
  ['application/json; charset=utf-8 is fine', { rule: null, change: (d) => (d.headers['content-type'] = ['application/json; charset=utf-8']) }],
  ['custom header missing', { rule: 'sender-custom-headers', change: (d) => delete d.headers['x-tenant'] }],
  [
    'is_test a string (re-signed)',
    {
      rule: 'sender-envelope-schema',
      change: (d) => {
        d.body.is_test = 'false';
        resign(d);
      },
    },
  ],
];

/** The DEFECTS table for one rule: `want` is the findings given for its own defects, [] for the rest. */
export function defectTable<W>(ruleId: string, own: Record<string, W>, none: W): Array<[string, { given: SenderObservations; want: W }]> {
  const mine = DEFECTS.filter(([, d]) => d.rule === ruleId).map(([name]) => name);
  const missing = mine.filter((name) => !(name in own));
  if (missing.length) throw new Error(`${ruleId}: no expected findings for its defects ${missing.join(', ')}`);
  return DEFECTS.map(([name, d]) => [name, { given: sender([delivery(d.change)]), want: d.rule === ruleId ? own[name] : none }]);
}
