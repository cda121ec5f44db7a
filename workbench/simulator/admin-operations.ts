// The Admin webhook API (spec/openapi/admin.yaml) answered live by the simulator. Routing, the admin
// bearer check, body limits, parameter validation and envelopes are the workbench pipeline's
// (workbench/engine/pipeline.ts), as for every other operation; these entries only call the service.
import { liveKey, type LiveOperation, type WorkbenchExtension } from '../http/extension.js';
import { fail } from '../http/errors.js';
import type { WebhookService } from './service.js';

/** The Admin API refuses bodies above 64 KiB with 413 (its 413 responses, spec/openapi/paths/admin). */
export const ADMIN_MAX_BODY_BYTES = 64 * 1024;

export interface AdminAuthOptions {
  /**
   * Accepted admin tokens. Unset (the default): any well-formed non-empty bearer token opens the API,
   * since a local simulator has no admin users; the startup output says so.
   */
  adminTokens?: readonly string[];
}

export function adminExtension(service: WebhookService, options: AdminAuthOptions = {}): WorkbenchExtension {
  const operations: Record<string, LiveOperation> = {
    createWebhook: {
      validatesBody: true,
      handle: ({ storeId, body }) =>
        body === undefined
          ? fail(400, 'invalid_body', 'Request body is required: send JSON with url and events (Content-Type: application/json).', [
              { location: 'body', name: '(body)', message: 'is required' },
            ])
          : service.createWebhook(storeId, body),
    },
    listWebhooks: { handle: ({ storeId, query }) => service.listWebhooks(storeId, query) },
    listWebhookEventTypes: { handle: () => service.listEventTypes() },
    listWebhookDeliveries: { handle: ({ storeId, query }) => service.listDeliveries(storeId, query) },
    getWebhook: { handle: ({ storeId, params }) => service.getWebhook(storeId, params.id) },
    deleteWebhook: { handle: ({ storeId, params }) => service.deleteWebhook(storeId, params.id) },
    rotateWebhookSecret: { handle: ({ storeId, params }) => service.rotateSecret(storeId, params.id) },
    sendTestWebhook: { validatesBody: true, handle: ({ storeId, params, body }) => service.sendTest(storeId, params.id, body) },
    retryWebhookDelivery: { handle: ({ storeId, params }) => service.retryDelivery(storeId, params.id, params.delivery_id) },
    replayWebhookEvent: { handle: ({ storeId, params }) => service.replayEvent(storeId, params.id, params.event_id) },
  };
  return {
    operations: new Map(Object.entries(operations).map(([operationId, op]) => [liveKey('admin', operationId), op])),
    maxBodyBytes: { admin: ADMIN_MAX_BODY_BYTES },
    judgeToken: (schemeId, token) => {
      if (schemeId !== 'adminBearer' || !options.adminTokens) return undefined;
      return options.adminTokens.includes(token) ? true : 'unknown admin token: this simulator accepts only the tokens it was started with';
    },
  };
}
