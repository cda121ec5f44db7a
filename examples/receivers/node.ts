// Plain node:http receiver.   WEBHOOK_SECRET=... node --conditions=sfc-source --import tsx examples/receivers/node.ts
import { createServer, type Server } from 'node:http';
import { createWebhookHandler, type WebhookHandler } from 'storefront-contract/webhooks';
import { toNodeHandler } from 'storefront-contract/webhooks/node';
import { announce, isMain, listen } from './run.js';
import { handlers, port, secretsFromEnv } from './shared.js';

export function createNodeServer(webhooks: WebhookHandler): Server {
  const handle = toNodeHandler(webhooks);
  return createServer((req, res) => {
    if (req.url === '/webhooks') return void handle(req, res);
    res.writeHead(404).end();
  });
}

if (isMain(import.meta.url)) {
  announce(await listen(createNodeServer(createWebhookHandler({ secrets: secretsFromEnv(), ...handlers })), port));
}
