// storefront-contract/webhooks: verify, de-duplicate and dispatch webhook deliveries in any Node server.
// Framework adapters are separate subpaths (`storefront-contract/webhooks/node`, `/express`, `/fastify`,
// `/fetch`), so this entry loads no framework code or types. Guide: docs/guides/receiving-webhooks.md.
export { verifySignature, signPayload, SIGNATURE_PATTERN } from './verify.js';
export type { RawBody, Secrets, SecretInput, SignatureVerdict, SignatureFailureReason } from './verify.js';
export { parseDelivery } from './parse-delivery.js';
export type { ParseDeliveryInput, ParsedDelivery, AcceptedDelivery, DeliveryRejection, DeliveryRejectReason } from './parse-delivery.js';
export { createWebhookHandler, unsubscribe, DEFAULT_MAX_BODY_BYTES } from './handler.js';
export type { WebhookHandler, WebhookHandlerOptions, EventHandlers, DeliveryContext, HandlerResult, HandleInput, Unsubscribe } from './handler.js';
export type { WebhookReply, ReplyOutcome } from './responses.js';
export { MemoryDedupeStore } from './dedupe.js';
export type { DedupeStore, ClaimResult, MemoryDedupeOptions } from './dedupe.js';
export { createStalenessGuard, MemoryStalenessStore, timestampToNanos } from './staleness.js';
export type { StalenessGuard, StalenessStore, StalenessOutcome } from './staleness.js';
export { getHeader, HEADER } from './headers.js';
export type { HeaderSource } from './headers.js';
export type { DeliveryValidator, DeliveryValidation, ValidationIssue, UnknownWebhookEvent, WebhookEvent, WebhookEventName, WebhookEventOf } from './validation.js';
