// Receiver apps on loopback, one per adapter, for the e2e tests and the webhook simulator:
//   const { app, state } = await startReceiverApp('fastify', { secrets: [secret] });
//   ... deliver to app.url ...; await app.close();
import type { WebhookHandlerOptions } from '../../../src/webhooks/handler.js';
import { startExpressApp } from './express-app.js';
import { startFastifyApp } from './fastify-app.js';
import { startFetchApp } from './fetch-app.js';
import { startNodeApp, type RunningApp } from './node-app.js';
import { createDemoReceiver, type ReceiverState } from './receiver.js';

export const ADAPTERS = ['node', 'express', 'express-raw', 'fastify', 'fetch'] as const;
export type AdapterKind = (typeof ADAPTERS)[number];

export type { RunningApp, ReceiverState };

export async function startReceiverApp(
  kind: AdapterKind,
  options: Pick<WebhookHandlerOptions, 'secrets'> & Partial<WebhookHandlerOptions>,
): Promise<{ app: RunningApp; state: ReceiverState }> {
  const { handler, state } = createDemoReceiver(options);
  const app =
    kind === 'node' ? await startNodeApp(handler)
    : kind === 'express' ? await startExpressApp(handler, 'none')
    : kind === 'express-raw' ? await startExpressApp(handler, 'raw')
    : kind === 'fastify' ? await startFastifyApp(handler)
    : await startFetchApp(handler);
  return { app, state };
}
