// The Admin webhook operations (spec/openapi/admin.yaml) and the simulator's own trigger, as functions of
// the store: each takes already-parsed input and returns a Reply. HTTP concerns (auth, body reading) live
// in admin-operations.ts and simulator-routes.ts.
import { validateRequestBody, validateWebhookDelivery } from 'storefront-contract/validators';
import { checkCustomHeaders } from './custom-headers.js';
import { buildEventPayload, type BuildResult } from './event-builder.js';
import { idTime, newDeliveryId, newEventId, newSigningSecret, newWebhookId } from './ids.js';
import { scopeVerdict } from './marketplace.js';
import { toWebhookDelivery, toWebhookSubscription, type WebhookDeliveryView } from './present.js';
import { DEFAULT_PAGE_SIZE, pageWindow, pagination } from '../http/paging.js';
import { fail } from '../http/errors.js';
import { dotted, ok, type ErrorItem, type Reply } from './replies.js';
import { catalogEntry, deliveryRules, webhookEvents } from './rules.js';
import type { AttemptRow, AttemptStatus, EventRecord, NewAttempt, SimulatorStore, Subscription, SubscriptionStatus } from './store.js';
import { checkDestination, checkUrlShape, urlRefusal } from './url-policy.js';
import { describeRetention, type Retention } from './retention.js';

// The ten families of seed 6.1.5 in the seed's order: event types are listed by family, then name (AD-060).
const FAMILY_ORDER = ['orders', 'payments', 'shipping', 'invoices', 'carts', 'catalog', 'coupons-promotions', 'customers', 'store', 'marketplace'];

const DELIVERY_STATUSES: readonly AttemptStatus[] = ['scheduled', 'in_flight', 'succeeded', 'failed', 'cancelled'];
const SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = ['enabled', 'disabled'];

export interface TriggerInput {
  event: string;
  properties?: unknown;
  unset?: readonly string[];
  /**
   * True when `properties` is the event's whole model (a record of the sandbox), not overrides of the
   * catalog example: it replaces the example's properties instead of being merged into them.
   */
  replaceProperties?: boolean;
  /** `payload.user_id` and `payload.admin_user_id`; default: the catalog example's. */
  actor?: { userId: string; adminUserId: string | null };
}

export interface TriggerContent {
  event_id: string;
  event: string;
  store_id: string;
  /** One first attempt per receiving subscription, `scheduled` to be sent at once. */
  deliveries: WebhookDeliveryView[];
  /** Enabled subscriptions listing the event that do not receive it (marketplace scope), with the reason. */
  skipped: Array<{ webhook_id: string; reason: string }>;
}

export class WebhookService {
  constructor(
    private readonly store: SimulatorStore,
    private readonly o: { now: (storeId: string) => number; denyPrivate: boolean; wake: () => void; retention: Retention },
  ) {}

  /** The oldest creation time (store clock) still within the age bound of the retention (AD-051). */
  private floor(storeId: string): number {
    return this.o.now(storeId) - this.o.retention.maxAgeMs;
  }

  /**
   * Why an event or delivery id is not found, when the retention is the reason: its id's time is before the
   * age bound, or at or before the newest event (or attempt) the retention pruned in this store.
   */
  private prunedReason(storeId: string, id: string, kind: 'event' | 'delivery'): string | undefined {
    const t = idTime(id);
    if (t === undefined) return undefined;
    const pruned = this.store.pruned(storeId);
    const bound = pruned && (kind === 'event' ? pruned.before : pruned.logBefore);
    const retention = `the simulator keeps ${describeRetention(this.o.retention)} (--webhook-retention)`;
    if (bound !== undefined && t <= bound) {
      return `${kind === 'event' ? 'Event' : 'Delivery'} ${id} was pruned: ${retention}; ${kind === 'event' ? 'events' : 'deliveries'} of store ${storeId} up to ${new Date(bound).toISOString()} are gone.`;
    }
    if (t < this.floor(storeId)) return `${kind === 'event' ? 'Event' : 'Delivery'} ${id} is older than the retention: ${retention}.`;
    return undefined;
  }

  // ---- createWebhook --------------------------------------------------------------------------------

  async createWebhook(storeId: string, body: unknown): Promise<Reply> {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      return fail(400, 'invalid_body', 'The request body must be a JSON object with url and events.', [{ location: 'body', name: '(body)', message: 'must be an object' }]);
    }
    const input = body as Record<string, unknown>;
    // Custom headers first: these messages name the header and the rule, clearer than a schema error.
    const headerProblems = checkCustomHeaders(input.custom_headers);
    if (headerProblems.length) return fail(400, 'invalid_body', sentence(headerProblems), headerProblems);

    // The schema says it too (`events` contains a known name), but this answer names the unknown ones.
    const named = Array.isArray(input.events) && input.events.length > 0 && input.events.every((e) => typeof e === 'string' && e.length > 0 && e.length <= 100) ? (input.events as string[]) : undefined;
    if (named && !named.some((e) => catalogEntry(e))) {
      return fail(400, 'no_known_events', 'None of the event names is known; see GET /webhooks/event-types.', [
        { location: 'body', name: 'events', message: `no known event name (unknown: ${[...new Set(named)].join(', ')})` },
      ]);
    }

    const verdict = validateRequestBody('admin', 'createWebhook', body);
    // The schema's url pattern and urlRefusal accept the same strings (a test holds them together); the
    // refusal says which rule the URL breaks, where the schema only says "must match pattern".
    const urlReason = typeof input.url === 'string' ? urlRefusal(input.url) : undefined;
    if (!verdict.valid) {
      const details: ErrorItem[] = verdict.errors.map((e) => ({ location: 'body', name: dotted(e.path), message: e.path === '/url' && urlReason ? urlReason : e.message }));
      if (typeof input.url === 'string' && details.every((d) => d.name === 'url')) {
        // What the pattern refuses (urlRefusal's reason), or what it does not look at (the length).
        const reason = urlReason ?? details[0].message;
        return fail(400, 'invalid_url', urlMessage(input.url, reason), [{ location: 'body', name: 'url', message: reason }]);
      }
      return fail(400, 'invalid_body', sentence(details), details);
    }

    const url = String(input.url);
    const shape = checkUrlShape(url);
    if (!shape.ok) return fail(400, 'invalid_url', urlMessage(url, shape.reason), [{ location: 'body', name: 'url', message: shape.reason }]);
    const destination = await checkDestination(shape.url, this.o.denyPrivate);
    if (!destination.ok) {
      return fail(400, 'invalid_url', `url is refused: ${destination.reason} (the simulator runs with --deny-private).`, [{ location: 'body', name: 'url', message: destination.reason }]);
    }

    // At least one name is known (checked above, and by the schema's `contains`); the rest are ignored.
    const requested = [...new Set(input.events as string[])];
    const events = requested.filter((e) => catalogEntry(e));
    const ignored = requested.filter((e) => !catalogEntry(e));

    const secret = newSigningSecret();
    const now = this.o.now(storeId);
    const max = deliveryRules.maxEnabledWebhooksPerStore;
    const created = this.store.createSubscription(
      {
        id: newWebhookId(now),
        storeId,
        url,
        events,
        customHeaders: (input.custom_headers as Record<string, string> | undefined) ?? {},
        marketplaceId: (input.marketplace_id as string | undefined) ?? null,
        description: (input.description as string | undefined) ?? null,
        secret,
      },
      max,
      now,
    );
    if (!created.ok) {
      return fail(
        409,
        'webhook_limit_reached',
        `Store ${storeId} already has ${created.enabled} enabled webhooks, the maximum is ${max}. A webhook disabled by a ${deliveryRules.disableStatus} answer does not count; no new webhook was created.`,
      );
    }
    return ok(201, 'Webhook created. Store the secret now: it will not be shown again.', {
      webhook: toWebhookSubscription(created.subscription),
      secret,
      ignored_events: ignored,
    });
  }

  // ---- listWebhooks, getWebhook, deleteWebhook (designed: register AD-070 to AD-072) ----------------

  listWebhooks(storeId: string, query: URLSearchParams): Reply {
    const problems: ErrorItem[] = [];
    const page = numberParam(query, 'page', 1, false, problems);
    const limit = numberParam(query, 'limit', DEFAULT_PAGE_SIZE, true, problems);
    const status = query.get('status') ?? undefined;
    if (status !== undefined && !SUBSCRIPTION_STATUSES.includes(status as SubscriptionStatus)) {
      problems.push({ location: 'query', name: 'status', message: `must be one of ${SUBSCRIPTION_STATUSES.join(', ')}` });
    }
    if (problems.length) return fail(400, 'invalid_parameter', sentence(problems), problems);
    const window = pageWindow(page, limit);
    const { subscriptions, total } = this.store.listSubscriptions(storeId, status as SubscriptionStatus | undefined, window.offset, window.limit);
    return ok(200, 'Webhooks fetched successfully', { webhooks: subscriptions.map(toWebhookSubscription), pagination: pagination(window, total) });
  }

  getWebhook(storeId: string, id: string): Reply {
    const sub = this.store.subscription(storeId, id);
    if (!sub) return webhookNotFound(storeId, id);
    return ok(200, 'Webhook fetched successfully', { webhook: toWebhookSubscription(sub) });
  }

  deleteWebhook(storeId: string, id: string): Reply {
    const now = this.o.now(storeId);
    const deleted = this.store.deleteSubscription(storeId, id, now);
    if (!deleted) return webhookNotFound(storeId, id);
    // Cancelled rows may have been the earliest due: let the scheduler re-arm its timer.
    if (deleted.cancelled) this.o.wake();
    const n = deleted.cancelled;
    return ok(200, `Webhook deleted. ${n} scheduled ${n === 1 ? 'delivery was' : 'deliveries were'} cancelled; its attempts stay in the delivery log.`, {
      webhook: toWebhookSubscription(deleted.subscription),
      deleted_at: new Date(now).toISOString(),
      cancelled_deliveries: n,
    });
  }

  // ---- rotateWebhookSecret ---------------------------------------------------------------------------

  rotateSecret(storeId: string, id: string): Reply {
    const secret = newSigningSecret();
    const now = this.o.now(storeId);
    const sub = this.store.rotateSecret(storeId, id, secret, now);
    if (!sub) return webhookNotFound(storeId, id);
    return ok(200, 'Secret rotated. Store the new secret now: it will not be shown again; the previous one signs nothing more.', {
      webhook_id: sub.id,
      secret,
      rotated_at: new Date(now).toISOString(),
    });
  }

  // ---- sendTestWebhook -------------------------------------------------------------------------------

  sendTest(storeId: string, id: string, body: unknown): Reply {
    const sub = this.store.subscription(storeId, id);
    if (!sub) return webhookNotFound(storeId, id);
    if (sub.status === 'disabled') return disabled(sub);
    if (body !== undefined) {
      const verdict = validateRequestBody('admin', 'sendTestWebhook', body);
      if (!verdict.valid) {
        const details: ErrorItem[] = verdict.errors.map((e) => ({ location: 'body', name: dotted(e.path), message: e.message }));
        return fail(400, 'invalid_body', sentence(details), details);
      }
    }
    const event = (body as { event?: string } | undefined)?.event ?? sub.events[0];
    if (!sub.events.includes(event)) {
      return fail(400, 'event_not_subscribed', `Webhook ${sub.id} is not subscribed to ${event}; test one of its events: ${sub.events.join(', ')}.`, [
        { location: 'body', name: 'event', message: 'not subscribed' },
      ]);
    }
    const now = this.o.now(storeId);
    const eventId = newEventId(now);
    const built = buildEventPayload({ storeId, event, eventId, deliveryId: newDeliveryId(now), occurredAt: now, isTest: true });
    // The catalog example is valid by construction (the spec tests check it); a failure here is a spec bug.
    if (!built.ok) throw new Error(`catalog example of ${event} is invalid: ${built.message}`);
    const record: EventRecord = { eventId, storeId, event, isTest: true, payloadJson: JSON.stringify(built.payload), createdAt: now };
    const [row] = this.store.recordEvent(record, [{ deliveryId: newDeliveryId(now), webhookId: sub.id, trigger: 'test', url: sub.url, scheduledAt: now, autoRetry: true }]);
    this.o.wake();
    return ok(202, `Test delivery of ${event} scheduled; follow it in GET /webhooks/deliveries?webhook_id=${sub.id}.`, { delivery: toWebhookDelivery(row) });
  }

  // ---- listWebhookEventTypes -------------------------------------------------------------------------

  listEventTypes(): Reply {
    const rank = (family: string) => (FAMILY_ORDER.indexOf(family) + FAMILY_ORDER.length + 1) % (FAMILY_ORDER.length + 1);
    const eventTypes = webhookEvents
      .map((e) => ({ name: e.event, family: e.family, summary: e.summary, marketplace_scoped: e.marketplaceScoped }))
      .sort((a, b) => rank(a.family) - rank(b.family) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return ok(200, 'Event types fetched successfully', { event_types: eventTypes });
  }

  // ---- listWebhookDeliveries -------------------------------------------------------------------------

  listDeliveries(storeId: string, query: URLSearchParams): Reply {
    const problems: ErrorItem[] = [];
    const page = numberParam(query, 'page', 1, false, problems);
    const limit = numberParam(query, 'limit', DEFAULT_PAGE_SIZE, true, problems);
    const text = (name: string) => {
      const v = query.get(name);
      if (v === '') problems.push({ location: 'query', name, message: 'must not be empty' });
      return v || undefined;
    };
    const webhookId = text('webhook_id');
    const event = text('event');
    const eventId = text('event_id');
    const status = text('status');
    if (status !== undefined && !DELIVERY_STATUSES.includes(status as AttemptStatus)) {
      problems.push({ location: 'query', name: 'status', message: `must be one of ${DELIVERY_STATUSES.join(', ')}` });
    }
    if (problems.length) return fail(400, 'invalid_parameter', sentence(problems), problems);

    const window = pageWindow(page, limit);
    const { rows, total } = this.store.listDeliveries(
      storeId,
      { webhookId, event, eventId, status: status as AttemptStatus | undefined },
      this.floor(storeId),
      window.offset,
      window.limit,
    );
    return ok(200, 'Deliveries fetched successfully', { deliveries: rows.map(toWebhookDelivery), pagination: pagination(window, total) });
  }

  // ---- retryWebhookDelivery --------------------------------------------------------------------------

  retryDelivery(storeId: string, id: string, deliveryId: string): Reply {
    const sub = this.store.subscription(storeId, id);
    if (!sub) return webhookNotFound(storeId, id);
    if (sub.status === 'disabled') return disabled(sub);
    const row = this.store.delivery(storeId, id, deliveryId, this.floor(storeId));
    const event = row && this.store.event(storeId, row.event_id, 0);
    if (!row || !event) {
      const pruned = this.prunedReason(storeId, deliveryId, 'delivery');
      if (pruned) return fail(404, 'not_found', pruned, [{ location: 'path', name: 'delivery_id', message: 'pruned by the retention' }]);
      return fail(404, 'not_found', `Delivery ${deliveryId} of webhook ${id} not found.`, [
        { location: 'path', name: 'delivery_id', message: 'no delivery with this id for this webhook' },
      ]);
    }
    return this.queue(sub, event, 'manual_retry', false);
  }

  // ---- replayWebhookEvent ----------------------------------------------------------------------------

  replayEvent(storeId: string, id: string, eventId: string): Reply {
    const sub = this.store.subscription(storeId, id);
    if (!sub) return webhookNotFound(storeId, id);
    if (sub.status === 'disabled') return disabled(sub);
    const event = this.store.event(storeId, eventId, this.floor(storeId));
    if (!event) {
      const pruned = this.prunedReason(storeId, eventId, 'event');
      if (pruned) return fail(404, 'not_found', pruned, [{ location: 'path', name: 'event_id', message: 'pruned by the retention' }]);
      return fail(404, 'not_found', `Event ${eventId} not found in store ${storeId}.`, [{ location: 'path', name: 'event_id', message: 'no event with this id' }]);
    }
    const scope = scopeVerdict(sub, event.event, JSON.parse(event.payloadJson));
    if (!scope.receives) {
      return fail(400, 'event_not_subscribed', `Event ${eventId} (${event.event}) is not one webhook ${sub.id} receives: ${scope.reason}.`, [
        { location: 'path', name: 'event_id', message: scope.reason === 'event not subscribed' ? 'event type not subscribed' : 'outside the marketplace scope' },
      ]);
    }
    return this.queue(sub, event, 'replay', true);
  }

  private queue(sub: Subscription, event: EventRecord, trigger: 'manual_retry' | 'replay', autoRetry: boolean): Reply {
    const now = this.o.now(sub.storeId);
    const attempt: NewAttempt = { deliveryId: newDeliveryId(now), webhookId: sub.id, trigger, url: sub.url, scheduledAt: now, autoRetry };
    const queued = this.store.queueAttempt(event, attempt, now);
    if (!queued.ok) return inProgress(sub, event, queued.active);
    this.o.wake();
    const what = trigger === 'replay' ? 'Replay' : 'Retry';
    return ok(202, `${what} of event ${event.eventId} to webhook ${sub.id} scheduled.`, { delivery: toWebhookDelivery(queued.row) });
  }

  // ---- the simulator's own event list (outside the contract) -----------------------------------------

  /**
   * The store's events, oldest first, for replays (`webhooks listen --replay-since`, `--replay`): `since`
   * (an ISO date-time; default the retention's start), `delivery_id` (the event of one delivery), `limit`
   * (default 100, at most 1000). The Admin API lists delivery attempts, so events that no subscription
   * received are listed here only; `replayWebhookEvent` delivers any of them to a subscription.
   */
  listEvents(storeId: string, query: URLSearchParams): Reply {
    const problems: ErrorItem[] = [];
    const floor = this.floor(storeId);
    const sinceRaw = query.get('since');
    const since = sinceRaw === null ? floor : Date.parse(sinceRaw);
    if (sinceRaw !== null && (!/^\d{4}-\d{2}-\d{2}T/.test(sinceRaw) || Number.isNaN(since))) {
      problems.push({ location: 'query', name: 'since', message: 'must be an ISO 8601 date-time, e.g. 2026-11-26T10:00:00Z' });
    } else if (sinceRaw !== null) {
      // A replay from a time whose events the retention already pruned would silently miss them: refused.
      const pruned = this.store.pruned(storeId);
      if (pruned && since < pruned.before) {
        const at = new Date(pruned.before).toISOString();
        return fail(400, 'invalid_parameter', `Events of store ${storeId} up to ${at} were pruned: the simulator keeps ${describeRetention(this.o.retention)} (--webhook-retention). Give since ${at} or later, or leave since out for every event kept.`, [
          { location: 'query', name: 'since', message: `must be ${at} or later (older events were pruned)` },
        ]);
      }
    }
    const limit = numberParam(query, 'limit', 100, true, problems);
    if (limit > 1000) problems.push({ location: 'query', name: 'limit', message: 'must be <= 1000' });
    const deliveryId = query.get('delivery_id');
    if (deliveryId === '') problems.push({ location: 'query', name: 'delivery_id', message: 'must not be empty' });
    if (problems.length) return fail(400, 'invalid_parameter', sentence(problems), problems);
    const view = (e: { eventId: string; event: string; isTest: boolean; createdAt: number }) => ({ event_id: e.eventId, event: e.event, is_test: e.isTest, created_at: new Date(e.createdAt).toISOString() });
    if (deliveryId !== null) {
      const row = this.store.attempt(deliveryId);
      const event = row && row.store_id === storeId ? this.store.event(storeId, row.event_id, floor) : undefined;
      if (!event) {
        const pruned = this.prunedReason(storeId, deliveryId, 'delivery');
        return fail(404, 'not_found', pruned ?? `Delivery ${deliveryId} not found in store ${storeId}.`, [{ location: 'query', name: 'delivery_id', message: pruned ? 'pruned by the retention' : 'no delivery with this id' }]);
      }
      return ok(200, `The event of delivery ${deliveryId} (outside the contract)`, { events: [view(event)], has_more: false });
    }
    const rows = this.store.eventsSince(storeId, Math.max(since, floor), limit + 1);
    return ok(200, `Events of store ${storeId} (outside the contract)`, { events: rows.slice(0, limit).map(view), has_more: rows.length > limit });
  }

  // ---- the simulator's own trigger (outside the contract) --------------------------------------------

  /** Raises an event: `content` is set when it was accepted, `reply` is the HTTP answer either way. */
  trigger(storeId: string, input: TriggerInput): { reply: Reply; content?: TriggerContent } {
    const now = this.o.now(storeId);
    const eventId = newEventId(now);
    const built = input.replaceProperties || input.actor ? buildExact(storeId, input, eventId, now) : buildEventPayload({ storeId, event: input.event, eventId, deliveryId: newDeliveryId(now), occurredAt: now, isTest: false, properties: input.properties, unset: input.unset });
    if (!built.ok) return { reply: fail(400, 'invalid_body', built.message, built.details) };

    const attempts: NewAttempt[] = [];
    const skipped: TriggerContent['skipped'] = [];
    for (const sub of this.store.subscriptions(storeId, true)) {
      const scope = scopeVerdict(sub, input.event, built.payload);
      if (scope.receives) attempts.push({ deliveryId: newDeliveryId(now), webhookId: sub.id, trigger: 'event', url: sub.url, scheduledAt: now, autoRetry: true });
      else if (scope.reason !== 'event not subscribed') skipped.push({ webhook_id: sub.id, reason: scope.reason });
    }
    const rows: AttemptRow[] = this.store.recordEvent({ eventId, storeId, event: input.event, isTest: false, payloadJson: JSON.stringify(built.payload), createdAt: now }, attempts);
    if (rows.length) this.o.wake();
    const content: TriggerContent = { event_id: eventId, event: input.event, store_id: storeId, deliveries: rows.map(toWebhookDelivery), skipped };
    return { reply: ok(202, `${input.event} raised in store ${storeId}: ${rows.length} ${rows.length === 1 ? 'delivery' : 'deliveries'} scheduled.`, content), content };
  }
}

/**
 * The envelope of an event whose properties are given whole (and whose actor is known): the catalog
 * example supplies only the envelope's other fields; the result is validated against the event's schema
 * like every other event.
 */
function buildExact(storeId: string, input: TriggerInput, eventId: string, now: number): BuildResult {
  const base = buildEventPayload({ storeId, event: input.event, eventId, deliveryId: newDeliveryId(now), occurredAt: now, isTest: false, properties: input.replaceProperties ? undefined : input.properties, unset: input.unset });
  if (!base.ok) return base;
  const payload: Record<string, unknown> = {
    ...base.payload,
    ...(input.actor ? { user_id: input.actor.userId, admin_user_id: input.actor.adminUserId } : {}),
    ...(input.replaceProperties ? { properties: input.properties } : {}),
  };
  if (input.replaceProperties && (payload.properties === null || typeof payload.properties !== 'object' || Array.isArray(payload.properties))) {
    return { ok: false, message: 'properties must be a JSON object (the event\'s model).', details: [{ location: 'body', name: 'properties', message: 'must be an object' }] };
  }
  const timestamp = new Date(now).toISOString();
  const verdict = validateWebhookDelivery({ event: input.event, event_id: eventId, delivery_id: newDeliveryId(now), timestamp, is_test: false, payload });
  if (!verdict.valid) {
    const details: ErrorItem[] = verdict.errors.map((issue) => ({ location: 'body', name: dotted(issue.path, '/payload'), message: issue.got !== undefined ? `${issue.message} (got ${issue.got})` : issue.message }));
    return { ok: false, message: `The ${input.event} event is not valid against its schema: ${details.slice(0, 3).map((d) => `${d.name} ${d.message}`).join('; ')}.`, details };
  }
  return { ok: true, payload };
}

function webhookNotFound(storeId: string, id: string): Reply {
  return fail(404, 'not_found', `Webhook ${id} not found in store ${storeId}.`, [{ location: 'path', name: 'id', message: 'no webhook with this id' }]);
}

function disabled(sub: Subscription): Reply {
  const when = sub.disabledAt === null ? '' : ` on ${new Date(sub.disabledAt).toISOString()}`;
  return fail(
    409,
    'webhook_disabled',
    `Webhook ${sub.id} is disabled: its endpoint answered ${deliveryRules.disableStatus} Gone${when}, which disables a webhook permanently. Create a new webhook to receive events again.`,
  );
}

function inProgress(sub: Subscription, event: EventRecord, active: AttemptRow): Reply {
  const when = active.status === 'scheduled' ? `next at ${new Date(active.scheduled_at).toISOString()}` : 'in flight now';
  return fail(
    409,
    'delivery_in_progress',
    `An attempt of event ${event.eventId} to webhook ${sub.id} is already scheduled or in flight (${when}, delivery ${active.delivery_id}). Wait for it to finish, then retry.`,
  );
}

/** "url <the url, shortened> is refused: it <reason>." */
function urlMessage(url: string, reason: string): string {
  const shown = url.length > 200 ? `${url.slice(0, 200)}…` : url;
  return `url ${JSON.stringify(shown)} is refused: it ${reason}.`;
}

function numberParam(query: URLSearchParams, name: string, fallback: number, integer: boolean, problems: ErrorItem[]): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n)) problems.push({ location: 'query', name, message: `must be a number, got "${raw.slice(0, 40)}"` });
  else if (integer && !Number.isInteger(n)) problems.push({ location: 'query', name, message: 'must be an integer' });
  else if (n < 1) problems.push({ location: 'query', name, message: 'must be >= 1' });
  return n;
}


function sentence(items: ErrorItem[]): string {
  const parts = items.slice(0, 3).map((i) => `${i.location === 'query' ? 'query parameter' : 'body field'} '${i.name}' ${i.message}`);
  return `${parts.join('; ')}${items.length > 3 ? ` (and ${items.length - 3} more)` : ''}.`.replace(/^./, (c) => c.toUpperCase());
}
