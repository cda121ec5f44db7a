// Signed deliveries for the webhook tests and the receiver certifier, built from the contract's own
// example bodies (the generated catalog) so they stay valid as the schemas evolve.
import { randomUUID } from 'node:crypto';
import { deliveryRules, webhookEvents } from 'storefront-contract';
import { signPayload } from 'storefront-contract/webhooks';

// Test-only secrets (never real ones). Names say their role in rotation and multi-subscription vectors.
export const SECRET = 'whsec_test_current_6f1d2a9c';
export const PREVIOUS_SECRET = 'whsec_test_previous_0b7e44d1';
export const OTHER_SUBSCRIPTION_SECRET = 'whsec_test_other_subscription_93ac';

export type Envelope = {
  event: string;
  event_id: string;
  delivery_id: string;
  timestamp: string;
  is_test: boolean;
  payload: { event: string; event_id: string; timestamp: string; store_id: string; properties: Record<string, any> } & Record<string, any>;
} & Record<string, any>;

/** The catalog's example envelope of `event` (generated from spec/asyncapi/examples), as a fresh copy. */
export function exampleEnvelope(event: string): Envelope {
  const entry = webhookEvents.find((e) => e.event === event);
  if (!entry?.example?.payload) throw new Error(`no example for ${event} in the webhook catalog (generated/webhooks/catalog.ts)`);
  return structuredClone(entry.example.payload) as unknown as Envelope;
}

let counter = 0;
export function newId(prefix: 'evt' | 'dlv'): string {
  counter += 1;
  return `${prefix}_test_${counter.toString(36)}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
}

export interface DeliveryOptions {
  event?: string;
  eventId?: string;
  deliveryId?: string;
  isTest?: boolean;
  /** `payload.timestamp`: when the event happened (orders updates by it). */
  eventTime?: string;
  secret?: string;
  /** Changes the body object before it is serialised and signed. */
  mutate?: (body: Envelope) => void;
}

export interface Delivery {
  body: Envelope;
  raw: Buffer;
  headers: Record<string, string>;
}

/** A delivery exactly as the service sends it: compact JSON, signed, with the headers of section 6.2 of the platform's interface document. */
export function buildDelivery(options: DeliveryOptions = {}): Delivery {
  const body = exampleEnvelope(options.event ?? 'order.created');
  body.event_id = body.payload.event_id = options.eventId ?? newId('evt');
  body.delivery_id = options.deliveryId ?? newId('dlv');
  if (options.isTest !== undefined) body.is_test = options.isTest;
  if (options.eventTime !== undefined) body.payload.timestamp = options.eventTime;
  options.mutate?.(body);
  const raw = Buffer.from(JSON.stringify(body), 'utf8');
  return { body, raw, headers: headersFor(body, raw, options.secret ?? SECRET) };
}

/** The contract's delivery headers (names and values from `deliveryRules`), signed over `raw`. */
export function headersFor(body: Pick<Envelope, 'event' | 'event_id' | 'delivery_id'>, raw: Buffer | string, secret: string): Record<string, string> {
  const h = deliveryRules.headers;
  return {
    'content-type': deliveryRules.contentType,
    'user-agent': deliveryRules.userAgent,
    [h.event.toLowerCase()]: body.event,
    [h.signature.toLowerCase()]: signPayload(raw, secret),
    [h.eventId.toLowerCase()]: body.event_id,
    [h.deliveryId.toLowerCase()]: body.delivery_id,
  };
}

/** A retry of `delivery`: same event_id and body content, new delivery_id and attempt time, re-signed. */
export function retryOf(delivery: Delivery, secret = SECRET): Delivery {
  const body = structuredClone(delivery.body);
  body.delivery_id = newId('dlv');
  const raw = Buffer.from(JSON.stringify(body), 'utf8');
  return { body, raw, headers: headersFor(body, raw, secret) };
}

/**
 * Grows the body to about `targetBytes` by repeating an element of the largest array in
 * `payload.properties` (order_items for orders), so the result is still valid for the event's schema.
 */
export function padTo(body: Envelope, targetBytes: number): void {
  const arrays = Object.values(body.payload.properties).filter((v): v is unknown[] => Array.isArray(v) && v.length > 0);
  const list = arrays.sort((a, b) => JSON.stringify(b).length - JSON.stringify(a).length)[0];
  if (!list) throw new Error(`padTo: ${body.event} has no array in payload.properties to grow`);
  const unit = JSON.stringify(list[0]).length + 1;
  const missing = targetBytes - JSON.stringify(body).length;
  for (let i = 0; i < Math.ceil(missing / unit); i++) list.push(structuredClone(list[0]));
}
