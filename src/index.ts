// storefront-contract: typed clients and the contract's types. Validators and the webhook receiver
// kit are at the subpaths `storefront-contract/validators` and `storefront-contract/webhooks`.
export { createStorefrontClient, storefrontBaseUrl, type StorefrontClient, type StorefrontClientOptions, type AnonymousSession } from './client/storefront.js';
export { createAdminClient, adminBaseUrl, type AdminClient, type AdminClientOptions } from './client/admin.js';
export { StorefrontApiError, MissingCredentialsError, ContractViolationError } from './client/errors.js';
export { unwrap } from './client/unwrap.js';
export { tokenSession, type TokenSession, type TokenSessionOptions, type TokenStore } from './client/token-session.js';
export type { ValidationMode } from './client/middleware.js';

export type { paths as StorefrontPaths, components as StorefrontComponents, operations as StorefrontOperations } from '../generated/types/storefront.js';
export type { paths as AdminPaths, components as AdminComponents, operations as AdminOperations } from '../generated/types/admin.js';
export type { WebhookEvent, WebhookEventName, WebhookEventOf, WebhookEventProperties, WebhookEventMap } from '../generated/types/webhooks.js';
export { storefrontOperations } from '../generated/operations/storefront.js';
export { adminOperations } from '../generated/operations/admin.js';
export { deliveryRules, webhookEvents, type WebhookCatalogEntry } from '../generated/webhooks/catalog.js';
export { isErrorEnvelope, type ErrorEnvelope, type ErrorDetail, type ErrorItem, type ErrorCode } from './contract/envelope.js';
export type { StorefrontClientPaths, AdminClientPaths } from './client/typed-client.js';
export { specInfo } from '../generated/spec-info.js';
