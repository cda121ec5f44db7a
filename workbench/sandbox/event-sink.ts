// The sandbox's port to the webhook simulator: how a write raises an event. Its own file, so the type check
// that holds raising to the catalog's names (test/client/workbench-events.check.ts) compiles only this.
import type { WebhookEventName } from 'storefront-contract';
import type { RaisedEvent } from './back-office-api.js';

/** Who an event concerns (`payload.user_id`) and which admin caused it (`payload.admin_user_id`). */
export interface EventActor {
  userId: string;
  adminUserId: string | null;
}

export type { RaisedEvent };

/**
 * Raises an event of the catalog through the simulator; undefined when no simulator is mounted
 * (`webhooks: false`). Typed by the generated event map: a misspelt event name does not compile.
 */
export type EventSink = (storeId: string, event: WebhookEventName, properties: Record<string, unknown>, actor: EventActor) => RaisedEvent | undefined;

/** An event a write raises (Sandbox.commit): its name, its properties (built from the world after the write) and who caused it. */
export type RaiseSpec = readonly [event: WebhookEventName, properties: Record<string, unknown>, actor: EventActor];
