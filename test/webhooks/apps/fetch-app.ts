// Fetch API app: the handler's `(Request) => Response` behind the node:http bridge.
import type { WebhookHandler } from '../../../src/webhooks/handler.js';
import { createFetchServer } from './fetch-bridge.js';
import { listen, type RunningApp } from './node-app.js';

export function startFetchApp(handler: WebhookHandler): Promise<RunningApp> {
  return listen(createFetchServer(handler.toFetchHandler()));
}
