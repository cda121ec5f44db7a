// Express 5 receiver.   WEBHOOK_SECRET=... node --conditions=sfc-source --import tsx examples/receivers/express.ts
// The webhook route is registered BEFORE express.json(), and has no body parser of its own: the
// middleware reads the raw bytes itself, with the size cap (answering 413 without reading the rest).
import express, { type Express } from 'express';
import { createServer } from 'node:http';
import { createWebhookHandler, type WebhookHandler } from 'storefront-contract/webhooks';
import { toExpressMiddleware } from 'storefront-contract/webhooks/express';
import { announce, isMain, listen } from './run.js';
import { handlers, port, secretsFromEnv } from './shared.js';

/**
 * `rawParser`: the alternative where express.raw() reads the body first; body-parser then answers
 * oversize bodies itself, after reading them to the end.
 */
export function createExpressApp(webhooks: WebhookHandler, options: { rawParser?: boolean } = {}): Express {
  const app = express();
  if (options.rawParser) app.post('/webhooks', express.raw({ type: 'application/json', limit: webhooks.maxBodyBytes }), toExpressMiddleware(webhooks));
  else app.post('/webhooks', toExpressMiddleware(webhooks));
  app.use(express.json()); // the rest of the app may parse JSON as usual
  app.get('/health', (_req, res) => void res.json({ ok: true }));
  return app;
}

if (isMain(import.meta.url)) {
  announce(await listen(createServer(createExpressApp(createWebhookHandler({ secrets: secretsFromEnv(), ...handlers }))), port));
}
