// Fastify 5 receiver.   WEBHOOK_SECRET=... node --conditions=sfc-source --import tsx examples/receivers/fastify.ts
// The plugin is encapsulated: its raw-body parser applies under /webhooks only.
import Fastify, { type FastifyInstance } from 'fastify';
import { createWebhookHandler, type WebhookHandler } from 'storefront-contract/webhooks';
import { toFastifyPlugin } from 'storefront-contract/webhooks/fastify';
import { isMain } from './run.js';
import { handlers, port, secretsFromEnv } from './shared.js';

export async function createFastifyApp(webhooks: WebhookHandler): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await app.register(toFastifyPlugin(webhooks), { prefix: '/webhooks' });
  app.get('/health', async () => ({ ok: true }));
  // An ordinary JSON route beside the plugin: the plugin's raw parser does not leak into the rest of the app.
  app.post('/echo', async (request) => ({ parsed: request.body }));
  return app;
}

if (isMain(import.meta.url)) {
  const app = await createFastifyApp(createWebhookHandler({ secrets: secretsFromEnv(), ...handlers }));
  const address = await app.listen({ port, host: '127.0.0.1' });
  console.log(`listening on ${address}/webhooks`);
}
