// Fetch API receiver: `(Request) => Promise<Response>`.   WEBHOOK_SECRET=... node --conditions=sfc-source --import tsx examples/receivers/fetch.ts
// The same function plugs into Hono (`app.post('/webhooks', (c) => handle(c.req.raw))`), Next.js route
// handlers (`export const POST = handle`), Deno.serve, Bun.serve and Cloudflare Workers. Here it runs on
// node:http through a small bridge (fetch-bridge.ts).
import type { Server } from 'node:http';
import { createWebhookHandler, type WebhookHandler } from 'storefront-contract/webhooks';
import { toFetchHandler } from 'storefront-contract/webhooks/fetch';
import { createFetchServer } from './fetch-bridge.js';
import { announce, isMain, listen } from './run.js';
import { handlers, port, secretsFromEnv } from './shared.js';

export function createFetchAppServer(webhooks: WebhookHandler): Server {
  const handle = toFetchHandler(webhooks);
  return createFetchServer((request) =>
    new URL(request.url).pathname === '/webhooks' ? handle(request) : Promise.resolve(new Response(null, { status: 404 })),
  );
}

if (isMain(import.meta.url)) {
  announce(await listen(createFetchAppServer(createWebhookHandler({ secrets: secretsFromEnv(), ...handlers })), port));
}
