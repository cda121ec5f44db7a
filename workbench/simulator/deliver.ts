// One delivery attempt on the wire: the envelope's exact bytes, signed with signPayload (the receiver
// kit's signer) over those same bytes, POSTed with the contract's headers and the subscription's custom
// headers. Redirects are never followed (undici's `request` follows none), the attempt has one deadline
// (the scaled time-out) covering connection, answer and the excerpt of the body, and every failure comes
// back as an error class of the delivery log instead of a throw.
import { signPayload } from 'storefront-contract/webhooks';
import { deliveryRules } from './rules.js';
import type { SignedAttempt } from './sender.js';

// The sending half (./sender.ts) is a module of its own so the sending thread (send-worker.ts) loads only it.
export { classify, createSender, EXCERPT_CHARS, hideWriteOnly, type SendResult, type Sender, type SignedAttempt } from './sender.js';

export interface EnvelopeParts {
  event: string;
  eventId: string;
  deliveryId: string;
  /** When this attempt is sent (outer `timestamp`, register WH-003). */
  sentAt: number;
  isTest: boolean;
  /** The stored `payload` JSON text, identical in every attempt of the event. */
  payloadJson: string;
}

/** The envelope's bytes, keys in the contract's order; the payload text is spliced in, not re-serialised. */
export function envelopeBytes(parts: EnvelopeParts): Buffer {
  return Buffer.from(
    `{"event":${JSON.stringify(parts.event)},"event_id":${JSON.stringify(parts.eventId)},"delivery_id":${JSON.stringify(parts.deliveryId)},` +
      `"timestamp":${JSON.stringify(new Date(parts.sentAt).toISOString())},"is_test":${parts.isTest},"payload":${parts.payloadJson}}`,
    'utf8',
  );
}

/** What the contract's headers name: the event and its ids. */
export type DeliveryIds = Pick<EnvelopeParts, 'event' | 'eventId' | 'deliveryId'>;

/** The request headers of an attempt: contract headers first, then the custom ones (never reserved names). */
export function deliveryHeaders(parts: DeliveryIds, signature: string, custom: Record<string, string>): Record<string, string> {
  const h = deliveryRules.headers;
  return {
    'Content-Type': deliveryRules.contentType,
    'User-Agent': deliveryRules.userAgent,
    [h.event]: parts.event,
    [h.signature]: signature,
    [h.eventId]: parts.eventId,
    [h.deliveryId]: parts.deliveryId,
    ...custom,
  };
}

/** Builds and signs an attempt. The secret is used here and nowhere else; it is never logged. */
export function signAttempt(url: string, parts: EnvelopeParts, secret: string, custom: Record<string, string>): SignedAttempt {
  return signBody(url, envelopeBytes(parts), parts, secret, custom);
}

/**
 * Signs envelope bytes that already exist (a delivery forwarded as received, by `webhooks listen`): the
 * same signature and headers as an attempt of the simulator, over those exact bytes.
 */
export function signBody(url: string, body: Buffer, ids: DeliveryIds, secret: string, custom: Record<string, string>): SignedAttempt {
  const signature = signPayload(body, secret);
  return { url, body, headers: deliveryHeaders(ids, signature, custom), writeOnly: [signature, ...Object.values(custom)] };
}

