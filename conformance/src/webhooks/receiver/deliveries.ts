// Signed deliveries built the way the contract's sender builds them: the catalog example of an event
// (generated/webhooks/catalog.ts) with fresh ids, serialised once, signed over exactly those bytes.
import { randomBytes } from 'node:crypto';
import { deliveryRules, webhookEvents } from '../../../../generated/webhooks/catalog.js';
import { signPayload } from '../../../../src/webhooks/verify.js';
import type { ProbeRequest } from './send.js';

export type Envelope = {
  event: string;
  event_id: string;
  delivery_id: string;
  timestamp: string;
  is_test: boolean;
  payload: Record<string, any> & { event_id: string; timestamp: string; properties: Record<string, any> };
};

export const newId = (prefix: 'evt' | 'dlv') => `${prefix}_cert_${randomBytes(10).toString('hex')}`;

export function exampleEnvelope(event: string): Envelope {
  const entry = webhookEvents.find((e) => e.event === event);
  if (!entry) throw new Error(`no catalog entry for ${event}`);
  const body = structuredClone(entry.example.payload) as unknown as Envelope;
  body.event_id = body.payload.event_id = newId('evt');
  body.delivery_id = newId('dlv');
  body.timestamp = new Date().toISOString();
  return body;
}

/** The contract headers of a delivery of `body`, signed over `raw` with `secret`. */
export function headersFor(body: Pick<Envelope, 'event' | 'event_id' | 'delivery_id'>, raw: Buffer, secret: string): Record<string, string> {
  const h = deliveryRules.headers;
  return {
    'content-type': deliveryRules.contentType,
    'user-agent': deliveryRules.userAgent,
    [h.event]: body.event,
    [h.signature]: signPayload(raw, secret),
    [h.eventId]: body.event_id,
    [h.deliveryId]: body.delivery_id,
  };
}

/** A delivery of `body` as compact JSON (or the bytes `raw` when given), signed with `secret`. */
export function signed(body: Envelope, secret: string, raw: Buffer = Buffer.from(JSON.stringify(body), 'utf8')): ProbeRequest {
  return { body: raw, headers: headersFor(body, raw, secret) };
}

/** A retry of the same event: same event_id, a new delivery_id, re-serialised and re-signed. */
export function replayOf(body: Envelope, secret: string): { body: Envelope; probe: ProbeRequest } {
  const next = structuredClone(body);
  next.delivery_id = newId('dlv');
  return { body: next, probe: signed(next, secret) };
}
