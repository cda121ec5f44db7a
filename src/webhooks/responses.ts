// The small JSON answers the receiver sends. The sender only reads the status (2XX = delivered, 410 =
// disable, anything else = retry, seed 3.2); the body is for people reading logs on either side.
import type { DeliveryRejection } from './parse-delivery.js';

export type ReplyOutcome =
  | 'handled'
  | 'duplicate'
  | 'test'
  | 'ignored'
  | 'unknown-event'
  | 'unsubscribed'
  | 'in-flight'
  | 'handler-error'
  | 'dedupe-unavailable'
  | 'secrets-unavailable'
  | 'method-not-allowed'
  | DeliveryRejection['reason'];

export interface WebhookReply {
  status: number;
  headers: Record<string, string>;
  /** JSON text. */
  body: string;
  outcome: ReplyOutcome;
}

const MAX_ERRORS_IN_BODY = 10;

export function reply(status: number, outcome: ReplyOutcome, fields: Record<string, unknown> = {}, headers: Record<string, string> = {}): WebhookReply {
  const ok = status >= 200 && status < 300;
  return {
    status,
    outcome,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
    body: JSON.stringify(ok ? { ok, status: outcome, ...fields } : { ok, reason: outcome, ...fields }),
  };
}

export function rejectionReply(rejection: DeliveryRejection): WebhookReply {
  const fields: Record<string, unknown> = { message: rejection.message };
  if (rejection.header) fields.header = rejection.header;
  if (rejection.errors) fields.errors = rejection.errors.slice(0, MAX_ERRORS_IN_BODY);
  // 413 closes the connection: the unread rest of the body must not be parsed as a next request.
  const headers: Record<string, string> = rejection.status === 413 ? { connection: 'close' } : {};
  return reply(rejection.status, rejection.reason, fields, headers);
}

export function tooLargeReply(maxBodyBytes: number): WebhookReply {
  return rejectionReply({ ok: false, status: 413, reason: 'too-large', message: `body is larger than ${maxBodyBytes} bytes` });
}

export function methodNotAllowedReply(): WebhookReply {
  return reply(405, 'method-not-allowed', { message: 'deliveries are POST requests' }, { allow: 'POST' });
}
