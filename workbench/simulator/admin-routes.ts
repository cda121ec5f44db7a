// The Admin webhook API (spec/openapi/admin.yaml) served live, as a route hook of the mock workbench:
// `{base_url}/api/v1/{store_id}/admin/webhooks...`. Paths and methods it does not implement fall through
// to the mock's spec-driven front (which answers 404/405 from the document).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RouteHook } from '../mock/front.js';
import { discardBody, readJson, sendReply } from './http.js';
import { fail, type Reply } from './replies.js';
import type { WebhookService } from './service.js';

/** The Admin API refuses bodies above 64 KiB with 413 (its 413 responses, spec/openapi/paths/admin). */
export const ADMIN_MAX_BODY_BYTES = 64 * 1024;

// RFC 6750 b64token, as the mock's own security check reads it.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const BASE = /^\/api\/v1\/([^/]+)\/admin(\/webhooks(?:\/.*)?)$/;

export interface AdminRouteOptions {
  /**
   * Accepted admin tokens. Unset (the default): any well-formed non-empty bearer token opens the API, since a
   * local simulator has no admin users; the startup output says so.
   */
  adminTokens?: readonly string[];
}

type Handler = (req: IncomingMessage, storeId: string, params: string[], url: URL) => Promise<Reply>;

export function createAdminRoutes(service: WebhookService, options: AdminRouteOptions = {}): RouteHook {
  const routes: Array<{ method: string; pattern: RegExp; handle: Handler }> = [
    {
      method: 'POST',
      pattern: /^\/webhooks$/,
      handle: async (req, store) => {
        const read = await readJson(req, ADMIN_MAX_BODY_BYTES);
        if (!read.ok) return read.reply;
        if (read.body === undefined) {
          return fail(400, 'invalid_body', 'Request body is required: send JSON with url and events (Content-Type: application/json).', [
            { location: 'body', name: '(body)', message: 'is required' },
          ]);
        }
        return service.createWebhook(store, read.body);
      },
    },
    { method: 'GET', pattern: /^\/webhooks$/, handle: async (_req, store, _p, url) => service.listWebhooks(store, url.searchParams) },
    // The fixed segments first: `/webhooks/{id}` below must not take `event-types` or `deliveries` as an id.
    { method: 'GET', pattern: /^\/webhooks\/event-types$/, handle: async () => service.listEventTypes() },
    { method: 'GET', pattern: /^\/webhooks\/deliveries$/, handle: async (_req, store, _p, url) => service.listDeliveries(store, url.searchParams) },
    { method: 'GET', pattern: /^\/webhooks\/(?!event-types$|deliveries$)([^/]+)$/, handle: async (_req, store, [id]) => service.getWebhook(store, id) },
    {
      method: 'DELETE',
      pattern: /^\/webhooks\/(?!event-types$|deliveries$)([^/]+)$/,
      handle: async (req, store, [id]) => (await discardBody(req, ADMIN_MAX_BODY_BYTES)) ?? service.deleteWebhook(store, id),
    },
    {
      method: 'POST',
      pattern: /^\/webhooks\/([^/]+)\/rotate-secret$/,
      handle: async (req, store, [id]) => (await discardBody(req, ADMIN_MAX_BODY_BYTES)) ?? service.rotateSecret(store, id),
    },
    {
      method: 'POST',
      pattern: /^\/webhooks\/([^/]+)\/test$/,
      handle: async (req, store, [id]) => {
        const read = await readJson(req, ADMIN_MAX_BODY_BYTES);
        return read.ok ? service.sendTest(store, id, read.body) : read.reply;
      },
    },
    {
      method: 'POST',
      pattern: /^\/webhooks\/([^/]+)\/deliveries\/([^/]+)\/retry$/,
      handle: async (req, store, [id, deliveryId]) => (await discardBody(req, ADMIN_MAX_BODY_BYTES)) ?? service.retryDelivery(store, id, deliveryId),
    },
    {
      method: 'POST',
      pattern: /^\/webhooks\/([^/]+)\/replay-event\/([^/]+)$/,
      handle: async (req, store, [id, eventId]) => (await discardBody(req, ADMIN_MAX_BODY_BYTES)) ?? service.replayEvent(store, id, eventId),
    },
  ];

  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    const base = BASE.exec(url.pathname);
    if (!base) return false;
    const method = (req.method ?? 'GET').toUpperCase();
    for (const route of routes) {
      const m = route.pattern.exec(base[2]);
      if (!m || route.method !== method) continue;
      let decoded: string[];
      try {
        decoded = [base[1], ...m.slice(1)].map((s) => decodeURIComponent(s));
      } catch {
        sendReply(res, fail(400, 'invalid_parameter', 'The request path has an invalid percent-encoding.', [{ location: 'path', name: '(path)', message: 'invalid percent-encoding' }]));
        return true;
      }
      const denied = authorize(req, options);
      if (denied) {
        await discardBody(req, ADMIN_MAX_BODY_BYTES).catch(() => undefined);
        sendReply(res, denied);
        return true;
      }
      const [storeId, ...params] = decoded;
      sendReply(res, await route.handle(req, storeId, params, url));
      return true;
    }
    return false;
  };
}

function authorize(req: IncomingMessage, options: AdminRouteOptions): Reply | undefined {
  const raw = req.headers.authorization;
  const challenge = { 'www-authenticate': 'Bearer' };
  const refuse = (message: string) => fail(401, 'unauthorized', message, [{ location: 'header', name: 'Authorization', message }], challenge);
  if (!raw || !raw.trim()) return refuse('Missing admin token. Send Authorization: Bearer <ADMIN_TOKEN> with an admin token of this store.');
  const m = BEARER.exec(raw);
  if (!m) return refuse('Malformed Authorization header: expected "Bearer <ADMIN_TOKEN>".');
  if (options.adminTokens && !options.adminTokens.includes(m[1])) return refuse('Unknown admin token: this simulator accepts only the tokens it was started with.');
  return undefined;
}
