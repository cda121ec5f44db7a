// Fastify 5 app: the plugin under /webhooks, an ordinary JSON route beside it to show the plugin's raw
// parser does not leak into the rest of the app.
import Fastify from 'fastify';
import type { WebhookHandler } from '../../../src/webhooks/handler.js';
import type { RunningApp } from './node-app.js';

export async function startFastifyApp(handler: WebhookHandler): Promise<RunningApp> {
  const app = Fastify({ logger: false });
  await app.register(handler.toFastifyPlugin(), { prefix: '/webhooks' });
  app.post('/echo', async (request) => ({ parsed: request.body }));
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: `${address}/webhooks`, close: () => app.close() };
}
