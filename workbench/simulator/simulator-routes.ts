// The simulator's own routes under /__simulator: NOT part of the contract. They exist so a developer (or
// a test) can make the "service" raise events; a real service raises them from its own business activity.
// Every answer carries `X-Simulator: outside-contract` so nobody mistakes them for contract behaviour. They
// are declared routes of the workbench pipeline: its matcher, body reader and error writer serve them.
import { OUTSIDE_CONTRACT } from '../http/control-routes.js';
import { fail } from '../http/errors.js';
import type { ControlRoute } from '../http/extension.js';
import { ok } from './replies.js';
import type { WebhookService } from './service.js';

export { OUTSIDE_CONTRACT };
const TRIGGER_KEYS = new Set(['event', 'properties', 'unset']);
const EVENTS_ROUTE = 'raise an event: {"event": "order.created", "properties": {...overrides}, "unset": ["dotted.path"]}';
const LIST_EVENTS_ROUTE = "the store's events, oldest first, to replay (replayWebhookEvent): ?since=<ISO date-time>, ?delivery_id=<id> (its event), ?limit=<n> (default 100, at most 1000)";

export interface SimulatorInfo {
  timeScale: number;
  /** An attempt's deadline (the contract's time-out, scaled or set): `webhooks listen` answers within it. */
  timeoutMs?: number;
  denyPrivate: boolean;
  store: string;
  adminAuth: string;
  /** Routes of other parts under /__simulator (the sandbox's back office), listed by GET /__simulator. */
  moreRoutes?: Record<string, string>;
}

/** The simulator's routes, one entry each (matched, read and answered by workbench/http/control-routes.ts). */
export function createSimulatorRoutes(service: WebhookService, info: SimulatorInfo): ControlRoute[] {
  return [
    {
      method: 'GET',
      path: '/__simulator',
      summary: 'this list, and how the simulator runs',
      handle: () =>
        ok(200, 'Webhook simulator (outside the contract)', {
          routes: { 'POST /__simulator/stores/{store_id}/events': EVENTS_ROUTE, 'GET /__simulator/stores/{store_id}/events': LIST_EVENTS_ROUTE, ...info.moreRoutes },
          time_scale: info.timeScale,
          ...(info.timeoutMs === undefined ? {} : { timeout_ms: info.timeoutMs }),
          deny_private: info.denyPrivate,
          data: info.store,
          admin_auth: info.adminAuth,
        }),
    },
    {
      method: 'GET',
      path: '/__simulator/stores/{store_id}/events',
      summary: LIST_EVENTS_ROUTE,
      handle: ({ params, query }) => service.listEvents(params.store_id, query),
    },
    {
      method: 'POST',
      path: '/__simulator/stores/{store_id}/events',
      summary: EVENTS_ROUTE,
      body: 'json-object',
      handle: ({ params, body }) => {
        const input = body!;
        const unknown = Object.keys(input).filter((k) => !TRIGGER_KEYS.has(k));
        if (unknown.length) {
          return fail(400, 'invalid_body', `Unknown field ${unknown.join(', ')}; the fields are event, properties and unset.`, unknown.map((name) => ({ location: 'body' as const, name, message: 'unknown field' })));
        }
        if (typeof input.event !== 'string' || !input.event) {
          return fail(400, 'invalid_body', 'event is required: the name of a catalog event, e.g. "order.created".', [{ location: 'body', name: 'event', message: 'is required (a string)' }]);
        }
        if (input.unset !== undefined && !(Array.isArray(input.unset) && input.unset.every((p) => typeof p === 'string' && p))) {
          return fail(400, 'invalid_body', 'unset must be an array of dotted property paths.', [{ location: 'body', name: 'unset', message: 'must be an array of non-empty strings' }]);
        }
        // 202 only once the event is on disk: the pipeline awaits the store's commit (the extension's `settled`).
        return service.trigger(params.store_id, { event: input.event, properties: input.properties, unset: input.unset as string[] | undefined }).reply;
      },
    },
  ];
}
