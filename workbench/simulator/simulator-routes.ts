// The simulator's own routes under /__simulator: NOT part of the contract. They exist so a developer (or
// a test) can make the "service" raise events; a real service raises them from its own business activity.
// Every answer carries `X-Simulator: outside-contract` so nobody mistakes them for contract behaviour.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RouteHook } from '../http/extension.js';
import { readJson, sendReply } from './http.js';
import { fail, ok, type Reply } from './replies.js';
import type { WebhookService } from './service.js';

export const OUTSIDE_CONTRACT = { 'x-simulator': 'outside-contract' };
const MAX_BODY_BYTES = 1024 * 1024;
const EVENTS = /^\/__simulator\/stores\/([^/]+)\/events$/;
const TRIGGER_KEYS = new Set(['event', 'properties', 'unset']);

export interface SimulatorInfo {
  timeScale: number;
  denyPrivate: boolean;
  store: string;
  adminAuth: string;
  /** Routes of other parts under /__simulator (the sandbox's back office), listed by GET /__simulator. */
  moreRoutes?: Record<string, string>;
  /** The store's pending commit, awaited before an answer says an event was raised. */
  settled?: () => Promise<void> | undefined;
}

export function createSimulatorRoutes(service: WebhookService, info: SimulatorInfo): RouteHook {
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    if (url.pathname !== '/__simulator' && !url.pathname.startsWith('/__simulator/')) return false;
    const method = (req.method ?? 'GET').toUpperCase();
    // Answers and reports the request as handled, so every branch can `return send(...)`.
    const send = (reply: Reply): true => {
      sendReply(res, reply, OUTSIDE_CONTRACT);
      return true;
    };

    if (url.pathname === '/__simulator' || url.pathname === '/__simulator/') {
      if (method !== 'GET') return send(fail(405, 'method_not_allowed', 'Use GET /__simulator.', [], { allow: 'GET' }));
      return send(
        ok(200, 'Webhook simulator (outside the contract)', {
          routes: {
            'POST /__simulator/stores/{store_id}/events': 'raise an event: {"event": "order.created", "properties": {...overrides}, "unset": ["dotted.path"]}',
            ...info.moreRoutes,
          },
          time_scale: info.timeScale,
          deny_private: info.denyPrivate,
          data: info.store,
          admin_auth: info.adminAuth,
        }),
      );
    }

    const m = EVENTS.exec(url.pathname);
    if (!m) return send(fail(404, 'not_found', `No simulator route at ${url.pathname.slice(0, 200)}; see GET /__simulator.`));
    if (method !== 'POST') return send(fail(405, 'method_not_allowed', `${method} is not allowed here; POST an event.`, [], { allow: 'POST' }));
    let storeId: string;
    try {
      storeId = decodeURIComponent(m[1]);
    } catch {
      return send(fail(400, 'invalid_parameter', 'The store id in the path has an invalid percent-encoding.', [{ location: 'path', name: 'store_id', message: 'invalid percent-encoding' }]));
    }
    const read = await readJson(req, MAX_BODY_BYTES);
    if (!read.ok) return send(read.reply);
    const body = read.body as Record<string, unknown> | undefined;
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      return send(fail(400, 'invalid_body', 'Send a JSON object: {"event": "order.created", "properties": {...optional overrides}}.', [{ location: 'body', name: '(body)', message: 'must be an object with event' }]));
    }
    const unknown = Object.keys(body).filter((k) => !TRIGGER_KEYS.has(k));
    if (unknown.length) {
      return send(fail(400, 'invalid_body', `Unknown field ${unknown.join(', ')}; the fields are event, properties and unset.`, unknown.map((name) => ({ location: 'body' as const, name, message: 'unknown field' }))));
    }
    if (typeof body.event !== 'string' || !body.event) {
      return send(fail(400, 'invalid_body', 'event is required: the name of a catalog event, e.g. "order.created".', [{ location: 'body', name: 'event', message: 'is required (a string)' }]));
    }
    if (body.unset !== undefined && !(Array.isArray(body.unset) && body.unset.every((p) => typeof p === 'string' && p))) {
      return send(fail(400, 'invalid_body', 'unset must be an array of dotted property paths.', [{ location: 'body', name: 'unset', message: 'must be an array of non-empty strings' }]));
    }
    const { reply } = service.trigger(storeId, { event: body.event, properties: body.properties, unset: body.unset as string[] | undefined });
    // 202 only once the event is on disk (group commit: one commit for every event raised in this turn).
    await info.settled?.();
    return send(reply);
  };
}
