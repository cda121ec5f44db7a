// Store records -> the contract's response objects (WebhookSubscription, WebhookDelivery). The signing
// secret and custom header values are not in the records handed here, so they cannot leak into a response.
import type { AttemptRow, Subscription } from './store.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function toWebhookSubscription(sub: Subscription) {
  return {
    id: sub.id,
    url: sub.url,
    events: sub.events,
    custom_header_names: Object.keys(sub.customHeaders),
    marketplace_id: sub.marketplaceId,
    description: sub.description,
    status: sub.status,
    disabled_reason: sub.disabledReason,
    disabled_at: iso(sub.disabledAt),
    secret_rotated_at: iso(sub.secretRotatedAt),
    created_at: iso(sub.createdAt)!,
    modified_at: iso(sub.modifiedAt)!,
  };
}

export type WebhookDeliveryView = ReturnType<typeof toWebhookDelivery>;

export function toWebhookDelivery(row: AttemptRow) {
  return {
    delivery_id: row.delivery_id,
    webhook_id: row.webhook_id,
    event_id: row.event_id,
    event: row.event,
    is_test: row.is_test === 1,
    attempt: row.attempt,
    trigger: row.trigger,
    url: row.url,
    status: row.status,
    outcome: row.outcome,
    scheduled_at: iso(row.scheduled_at)!,
    sent_at: iso(row.sent_at),
    completed_at: iso(row.completed_at),
    duration_ms: row.duration_ms,
    response_status: row.response_status,
    error_class: row.error_class,
    response_body_excerpt: row.response_body_excerpt,
    response_body_truncated: row.response_body_truncated === 1,
    next_retry_at: iso(row.next_retry_at),
  };
}
