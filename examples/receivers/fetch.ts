// Fetch API receiver: `(Request) => Promise<Response>`.   WEBHOOK_SECRET=... npx tsx examples/receivers/fetch.ts
// The same function plugs into Hono (`app.post('/webhooks', (c) => handle(c.req.raw))`), Next.js route
// handlers (`export const POST = handle`), Deno.serve, Bun.serve and Cloudflare Workers. Here it runs on
// node:http through the small bridge the tests use (test/webhooks/apps/fetch-bridge.ts).
import type { AddressInfo } from 'node:net';
import { createWebhookHandler } from '../../src/webhooks/index.js';
import { createFetchServer } from '../../test/webhooks/apps/fetch-bridge.js';
import { handlers, port, secretsFromEnv } from './shared.js';

const webhooks = createWebhookHandler({ secrets: secretsFromEnv(), ...handlers });
const handle = webhooks.toFetchHandler();

const server = createFetchServer((request) =>
  new URL(request.url).pathname === '/webhooks' ? handle(request) : Promise.resolve(new Response(null, { status: 404 })),
);
server.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`));
