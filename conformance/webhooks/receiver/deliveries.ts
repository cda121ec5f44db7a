// Signed deliveries built the way the contract's sender builds them: the catalog example of an event
// (generated/webhooks/catalog.ts) with fresh ids, serialised once, signed over exactly those bytes.
import { randomBytes } from 'node:crypto';
import { exampleEnvelope as catalogExample, headersFor, type Envelope } from '../../vectors/webhook-fixtures.js';
import type { ProbeRequest } from './send.js';

export type { Envelope };
export { headersFor };

export const newId = (prefix: 'evt' | 'dlv') => `${prefix}_cert_${randomBytes(10).toString('hex')}`;

/** The catalog example of `event` with fresh ids and the attempt time of now. */
export function exampleEnvelope(event: string): Envelope {
  const body = catalogExample(event);
  body.event_id = body.payload.event_id = newId('evt');
  body.delivery_id = newId('dlv');
  body.timestamp = new Date().toISOString();
  return body;
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
