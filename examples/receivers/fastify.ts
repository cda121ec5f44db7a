// Fastify 5 receiver.   WEBHOOK_SECRET=... npx tsx examples/receivers/fastify.ts
// The plugin is encapsulated: its raw-body parser applies under /webhooks only.
import Fastify from 'fastify';
import { createWebhookHandler } from '../../src/webhooks/index.js';
import { handlers, port, secretsFromEnv } from './shared.js';

const webhooks = createWebhookHandler({ secrets: secretsFromEnv(), ...handlers });
const app = Fastify();

await app.register(webhooks.toFastifyPlugin(), { prefix: '/webhooks' });
app.get('/health', async () => ({ ok: true }));

const address = await app.listen({ port, host: '127.0.0.1' });
console.log(`listening on ${address}/webhooks`);
