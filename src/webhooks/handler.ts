// createWebhookHandler: the framework-free core. It turns (raw body, headers) into a reply and runs the
// application's handler at most once per event_id. The status policy follows seed 3.2: 2XX means
// "delivered, stop"; any other status means "retry" (three retries within about 6 minutes); 410 disables
// the subscription forever, so it is sent only when the application returns `unsubscribe()`.
import { MemoryDedupeStore, type DedupeStore } from './dedupe.js';
import type { HeaderSource } from './headers.js';
import { parseDelivery, type DeliveryRejection } from './parse-delivery.js';
import { methodNotAllowedReply, rejectionReply, reply, tooLargeReply, type WebhookReply } from './responses.js';
import { resolveValidator, type DeliveryValidator, type UnknownWebhookEvent, type WebhookEvent, type WebhookEventName, type WebhookEventOf } from './validation.js';
import { normalizeSecrets, type Secrets } from './verify.js';

const UNSUBSCRIBE = Symbol.for('storefront-contract.webhooks.unsubscribe');

/** Returned from a handler, it makes the receiver answer 410, which disables the subscription permanently. */
export interface Unsubscribe {
  readonly [UNSUBSCRIBE]: true;
}

/** The explicit, and only, way to answer 410 Gone. The sender then never delivers to this subscription again. */
export function unsubscribe(): Unsubscribe {
  return Object.freeze({ [UNSUBSCRIBE]: true as const });
}

function isUnsubscribe(value: unknown): value is Unsubscribe {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[UNSUBSCRIBE] === true;
}

export interface DeliveryContext {
  eventId: string;
  deliveryId: string;
  /** Which configured secret matched; > 0 means the sender still signs with an older secret. */
  secretIndex: number;
}

export type HandlerResult = void | Unsubscribe | Promise<void | Unsubscribe>;

export type EventHandlers = {
  [N in WebhookEventName]?: ((event: WebhookEventOf<N>, context: DeliveryContext) => HandlerResult) | undefined;
};

export interface WebhookHandlerOptions {
  /** Signing secret(s): during a rotation, list the new one and the previous one. A function is read per delivery. */
  secrets: Secrets | (() => Secrets | Promise<Secrets>);
  /** Business handlers by event name. Their failure (throw or rejection) answers 500 so the sender retries. */
  on?: EventHandlers | undefined;
  /** Test deliveries (`is_test: true`) go here and never to `on`. Without it they are acknowledged. */
  onTest?: ((event: WebhookEvent, context: DeliveryContext) => HandlerResult) | undefined;
  /** Verified events with no entry in `on`. Without it they are acknowledged with 200 (never 4XX, which would only cause retries). */
  onUnhandled?: ((event: WebhookEvent, context: DeliveryContext) => HandlerResult) | undefined;
  /**
   * A verified delivery of an event outside this kit's catalog (a newer contract), its shared envelope
   * valid: `'acknowledge'` (the default) answers 200 and hands it to `onUnknown`; `'reject'` answers 400.
   * Acknowledging is the default because the sender retries every non-2XX (three more attempts, then the
   * delivery fails) and a 400 for an unknown name can never turn into a 2XX on a retry.
   */
  unknownEvents?: 'acknowledge' | 'reject' | undefined;
  /** Verified events outside the catalog, when acknowledged (`unknownEvents`): log them here. A throw answers 500. */
  onUnknown?: ((event: UnknownWebhookEvent, context: DeliveryContext) => HandlerResult) | undefined;
  /** Where processed event_ids are remembered; default an in-memory store (24 h). `false` turns de-duplication off. */
  dedupe?: DedupeStore | false | undefined;
  /** Largest accepted body; default 1 MiB. */
  maxBodyBytes?: number | undefined;
  /** Defaults to the generated validators (src/validators). */
  validate?: DeliveryValidator | undefined;
  /** Called with what a handler, the dedupe store or the secrets function threw. Do your logging here. */
  onError?: ((error: unknown, info: { stage: 'handler' | 'dedupe' | 'secrets'; eventId?: string; event?: string }) => void) | undefined;
  /** Called for every refused delivery (401, 400, 413): for security monitoring. Never receives a secret. */
  onReject?: ((rejection: DeliveryRejection) => void) | undefined;
}

export interface HandleInput {
  rawBody: unknown;
  headers: HeaderSource;
  /** When given and not POST, the reply is 405. */
  method?: string | undefined;
}

/**
 * The framework-free handler. Adapters turn it into a server's handler, each from its own subpath:
 * `storefront-contract/webhooks/node`, `/express`, `/fastify`, `/fetch`. They import this module, never
 * the reverse, so a receiver pulls in only the framework code it uses.
 */
export interface WebhookHandler {
  readonly maxBodyBytes: number;
  handle(input: HandleInput): Promise<WebhookReply>;
  /** The reply for a body refused by size before it was read. */
  tooLarge(): WebhookReply;
  /** Reports a rejection that an adapter produced itself (size, unparsed body). */
  reportRejection(rejection: DeliveryRejection): void;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

type AnyHandler = (event: WebhookEvent, context: DeliveryContext) => HandlerResult;

export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0) throw new TypeError('createWebhookHandler: maxBodyBytes must be a positive integer');
  // Configuration errors fail at start-up, not as 401s on every delivery.
  if (typeof options.secrets !== 'function' && normalizeSecrets(options.secrets).length === 0) {
    throw new TypeError('createWebhookHandler: `secrets` must hold at least one non-empty signing secret');
  }
  const validate = resolveValidator(options.validate);
  const dedupe = options.dedupe === false ? undefined : (options.dedupe ?? new MemoryDedupeStore());
  const handlers = (options.on ?? {}) as Record<string, AnyHandler | undefined>;

  const report = (error: unknown, info: Parameters<NonNullable<WebhookHandlerOptions['onError']>>[1]) => {
    try {
      options.onError?.(error, info);
    } catch {
      // A failing logger must not change the answer.
    }
  };
  const reportRejection = (rejection: DeliveryRejection) => {
    try {
      options.onReject?.(rejection);
    } catch {
      // Same: monitoring never changes the answer.
    }
  };

  async function run(handler: AnyHandler, event: WebhookEvent, context: DeliveryContext, outcome: 'handled' | 'unknown-event' = 'handled'): Promise<WebhookReply> {
    const eventName = (event as { event: string }).event;
    let claimed = false;
    if (dedupe) {
      try {
        const claim = await dedupe.claim(context.eventId);
        if (claim === 'duplicate') return reply(200, 'duplicate', { event_id: context.eventId });
        // Not 2XX: the other attempt may still fail, and then this event must be delivered again.
        if (claim === 'in-flight') return reply(409, 'in-flight', { event_id: context.eventId, message: 'this event is being processed by another delivery; retry later' });
        claimed = true;
      } catch (error) {
        report(error, { stage: 'dedupe', eventId: context.eventId, event: eventName });
        return reply(503, 'dedupe-unavailable', { event_id: context.eventId });
      }
    }
    let result: void | Unsubscribe;
    try {
      result = await handler(event, context);
    } catch (error) {
      report(error, { stage: 'handler', eventId: context.eventId, event: eventName });
      if (claimed) await settle(() => dedupe!.release(context.eventId), context, eventName);
      // The one 500: the application failed, and the sender's retry is how the event gets processed.
      return reply(500, 'handler-error', { event_id: context.eventId });
    }
    if (claimed) await settle(() => dedupe!.complete(context.eventId), context, eventName);
    if (isUnsubscribe(result)) return reply(410, 'unsubscribed', { event_id: context.eventId });
    return reply(200, outcome, { event_id: context.eventId });
  }

  // complete/release failing after the handler ran is logged, not answered: the work is done (or undone).
  async function settle(step: () => void | Promise<void>, context: DeliveryContext, event: string): Promise<void> {
    try {
      await step();
    } catch (error) {
      report(error, { stage: 'dedupe', eventId: context.eventId, event });
    }
  }

  async function handle(input: HandleInput): Promise<WebhookReply> {
    if (input.method !== undefined && input.method.toUpperCase() !== 'POST') return methodNotAllowedReply();
    let secrets: Secrets;
    try {
      secrets = typeof options.secrets === 'function' ? await options.secrets() : options.secrets;
    } catch (error) {
      report(error, { stage: 'secrets' });
      return reply(503, 'secrets-unavailable');
    }
    const parsed = parseDelivery({ rawBody: input.rawBody, headers: input.headers, secrets, validate, maxBodyBytes, unknownEvents: options.unknownEvents });
    if (!parsed.ok) {
      reportRejection(parsed);
      return rejectionReply(parsed);
    }
    const event = parsed.event as WebhookEvent & { event: string; event_id: string; delivery_id: string; is_test: boolean };
    const context: DeliveryContext = { eventId: event.event_id, deliveryId: event.delivery_id, secretIndex: parsed.secretIndex };

    // Test deliveries never reach business handlers, and are not remembered: a re-sent test is just a test.
    if (event.is_test) {
      if (!options.onTest) return reply(200, 'test', { event_id: context.eventId });
      try {
        const result = await options.onTest(event, context);
        if (isUnsubscribe(result)) return reply(410, 'unsubscribed', { event_id: context.eventId });
      } catch (error) {
        report(error, { stage: 'handler', eventId: context.eventId, event: event.event });
        return reply(500, 'handler-error', { event_id: context.eventId });
      }
      return reply(200, 'test', { event_id: context.eventId });
    }

    if (!parsed.known) {
      if (!options.onUnknown) return reply(200, 'unknown-event', { event_id: context.eventId, event: event.event });
      return run(options.onUnknown as unknown as AnyHandler, event, context, 'unknown-event');
    }

    const handler = handlers[event.event] ?? options.onUnhandled;
    if (!handler) return reply(200, 'ignored', { event_id: context.eventId });
    return run(handler, event, context);
  }

  return { maxBodyBytes, handle, tooLarge: () => tooLargeReply(maxBodyBytes), reportRejection };
}
