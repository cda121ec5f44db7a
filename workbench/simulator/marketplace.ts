// Who receives an event (seed 6.1.4, 6.4; x-marketplace-scoped in spec/extensions.md). An ordinary
// subscription receives every event it lists, `seller.order.*` and `seller.shipment.*` included. A
// subscription created with `marketplace_id` receives an event only when the message is marked
// marketplace-scoped AND `payload.properties.marketplace_listing[]` has an entry whose `marketplace_id`
// equals its own; a missing or empty list reaches no scoped subscription (`missingField: not-delivered`).
import { catalogEntry, deliveryRules } from './rules.js';
import type { Subscription } from './store.js';

const scope = deliveryRules.marketplaceScope;
// `payload.properties.marketplace_listing` is a path into the delivered envelope.
const fieldPath = scope.field.split('.');

function at(value: unknown, keys: readonly string[]): unknown {
  let here = value;
  for (const key of keys) {
    if (here === null || typeof here !== 'object' || Array.isArray(here)) return undefined;
    here = (here as Record<string, unknown>)[key];
  }
  return here;
}

/** Whether the event's listing names this marketplace. `envelopePayload` is the envelope's `payload`. */
export function listsMarketplace(envelopePayload: unknown, marketplaceId: string): boolean {
  const listing = at({ payload: envelopePayload }, fieldPath);
  if (!Array.isArray(listing)) return false;
  return listing.some((entry) => entry !== null && typeof entry === 'object' && (entry as Record<string, unknown>)[scope.matchKey] === marketplaceId);
}

export type ScopeVerdict = { receives: true } | { receives: false; reason: string };

/** Whether `sub` receives `event` with this payload: it lists the event and, if scoped, the scope matches. */
export function scopeVerdict(sub: Pick<Subscription, 'events' | 'marketplaceId'>, event: string, envelopePayload: unknown): ScopeVerdict {
  if (!sub.events.includes(event)) return { receives: false, reason: 'event not subscribed' };
  if (sub.marketplaceId === null) return { receives: true };
  if (!catalogEntry(event)?.marketplaceScoped) {
    return { receives: false, reason: `${event} is not marketplace-scoped, so a subscription scoped to ${sub.marketplaceId} never receives it` };
  }
  if (!listsMarketplace(envelopePayload, sub.marketplaceId)) {
    return { receives: false, reason: `${scope.field}[] does not contain ${scope.matchKey} ${sub.marketplaceId}` };
  }
  return { receives: true };
}
