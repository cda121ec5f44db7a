// node:http app: the handler answers every request on any path.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookHandler } from '../../../src/webhooks/handler.js';

export interface RunningApp {
  url: string;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1, port 0; `url` is the webhook endpoint. */
export async function listen(server: Server, path = '/webhooks'): Promise<RunningApp> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function startNodeApp(handler: WebhookHandler): Promise<RunningApp> {
  return listen(createServer(handler.toNodeHandler()));
}
