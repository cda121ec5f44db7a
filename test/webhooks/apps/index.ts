// Receiver apps on loopback, one per adapter, for the e2e tests, the receiver certifier and the webhook
// simulator. Each is the example app of examples/receivers/ (the same function the guide runs),
// wrapped around a recording receiver (./receiver.ts) so tests can assert what it processed:
//   const { app, state } = await startReceiverApp('fastify', { secrets: [secret] });
//   ... deliver to app.url ...; await app.close();
import { createServer } from 'node:http';
import type { WebhookHandler, WebhookHandlerOptions } from '../../../src/webhooks/handler.js';
import { createExpressApp } from '../../../examples/receivers/express.js';
import { createFastifyApp } from '../../../examples/receivers/fastify.js';
import { createFetchAppServer } from '../../../examples/receivers/fetch.js';
import { createNodeServer } from '../../../examples/receivers/node.js';
import { listen, type RunningApp } from '../../../examples/receivers/run.js';
import { createDemoReceiver, type ReceiverState } from './receiver.js';

export const ADAPTERS = ['node', 'express', 'express-raw', 'fastify', 'fetch'] as const;
export type AdapterKind = (typeof ADAPTERS)[number];

export type { RunningApp, ReceiverState };

/** Starts the example app of `kind` around `handler` on a free loopback port. */
export async function startAdapterApp(kind: AdapterKind, handler: WebhookHandler): Promise<RunningApp> {
  switch (kind) {
    case 'node':
      return listen(createNodeServer(handler), 0);
    case 'express':
      return listen(createServer(createExpressApp(handler)), 0);
    case 'express-raw':
      return listen(createServer(createExpressApp(handler, { rawParser: true })), 0);
    case 'fastify': {
      const app = await createFastifyApp(handler);
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      return { url: `${address}/webhooks`, close: () => app.close() };
    }
    case 'fetch':
      return listen(createFetchAppServer(handler), 0);
  }
}

export async function startReceiverApp(
  kind: AdapterKind,
  options: Pick<WebhookHandlerOptions, 'secrets'> & Partial<WebhookHandlerOptions>,
): Promise<{ app: RunningApp; state: ReceiverState }> {
  const { handler, state } = createDemoReceiver(options);
  return { app: await startAdapterApp(kind, handler), state };
}
