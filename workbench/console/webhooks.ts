// The console's webhook view: a store's subscriptions and its delivery attempts (the simulator's own
// Admin API answers, listWebhooks and listDeliveries), each sent attempt with the signature header it
// carried and a verdict computed here with the subscription's current secret, by the receiver kit's own
// verifySignature over the exact bytes sent. The secret stays in this process: the page gets the verdict.
import { verifySignature } from 'storefront-contract/webhooks';
import { fail, isErrorReply, type ErrorReply } from '../http/errors.js';
import type { BodyReply, Reply } from '../http/extension.js';
import type { SentAttempt, Simulator, WebhookDeliveryView } from '../simulator/index.js';

/** What the page shows about an attempt's signature. */
export type SignatureVerdict =
  /** The header verifies over the bytes sent with the subscription's secret now. */
  | 'verified'
  /** It does not: the secret was rotated since (the attempt carried the earlier one), or the bytes differ. */
  | 'mismatch'
  /** Not sent yet (scheduled), so no signature exists. */
  | 'not-sent'
  /** Sent by an earlier run of the workbench (or too long ago): the header was not kept. */
  | 'not-kept'
  /** The subscription was deleted: no secret to check with. */
  | 'no-secret';

export interface ConsoleAttempt extends WebhookDeliveryView {
  signature: { header: string | null; verdict: SignatureVerdict; note: string };
}

const NOTES: Record<SignatureVerdict, string> = {
  verified: "verifies with the subscription's current secret (HMAC-SHA256 of the exact bytes sent)",
  mismatch: "does not verify with the subscription's current secret: it was rotated after this attempt was signed",
  'not-sent': 'not sent yet: signed when it is claimed',
  'not-kept': 'sent by an earlier run of the workbench: its signature header was not kept',
  'no-secret': 'the subscription was deleted: its secret is gone',
};

/** The verdict on one attempt, from what the simulator sent (sentAttempt) and the secret now. */
export function signatureVerdict(sent: SentAttempt | undefined, delivery: Pick<WebhookDeliveryView, 'sent_at'>): ConsoleAttempt['signature'] {
  const verdict = judge(sent, delivery);
  return { header: sent?.signature ?? null, verdict, note: NOTES[verdict] };
}

function judge(sent: SentAttempt | undefined, delivery: Pick<WebhookDeliveryView, 'sent_at'>): SignatureVerdict {
  if (delivery.sent_at === null || !sent) return delivery.sent_at === null ? 'not-sent' : 'not-kept';
  if (!sent.signature) return 'not-kept';
  if (!sent.secret) return 'no-secret';
  return verifySignature(sent.body, sent.signature, [sent.secret]).ok ? 'verified' : 'mismatch';
}

/** The store's subscriptions (newest first, at most 100), as listWebhooks answers them. */
export function subscriptions(simulator: Simulator, storeId: string): Reply {
  return simulator.service.listWebhooks(storeId, new URLSearchParams({ limit: '100' }));
}

/**
 * The store's attempts, newest first, with verdicts: listDeliveries' own filters (`webhook_id`, `event`,
 * `event_id`, `status`, `page`, `limit` up to its maximum) and its 400s.
 */
export function attempts(simulator: Simulator, storeId: string, query: URLSearchParams): BodyReply<{ deliveries: ConsoleAttempt[]; pagination: unknown }> | ErrorReply {
  const allowed = new Set(['webhook_id', 'event', 'event_id', 'status', 'page', 'limit']);
  const unknown = [...query.keys()].find((k) => !allowed.has(k));
  if (unknown) return fail(400, 'invalid_parameter', `Unknown query parameter '${unknown.slice(0, 50)}'; filter by ${[...allowed].join(', ')}.`, [{ location: 'query', name: unknown.slice(0, 50), message: 'is not a filter of this route' }]);
  const reply = simulator.service.listDeliveries(storeId, query);
  if (isErrorReply(reply)) return reply;
  const content = (reply.body as { content: { deliveries: WebhookDeliveryView[]; pagination: unknown } }).content;
  const deliveries = content.deliveries.map((d) => ({ ...d, signature: signatureVerdict(simulator.sentAttempt(storeId, d.delivery_id), d) }));
  return { status: 200, body: { deliveries, pagination: content.pagination } };
}
