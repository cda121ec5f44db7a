// Express 5 receiver.   WEBHOOK_SECRET=... npx tsx examples/receivers/express.ts
// The webhook route is registered BEFORE express.json(), and has no body parser of its own: the
// middleware reads the raw bytes itself, with the size cap (answering 413 without reading the rest).
import express from 'express';
import { createWebhookHandler } from '../../src/webhooks/index.js';
import { handlers, port, secretsFromEnv } from './shared.js';

const webhooks = createWebhookHandler({ secrets: secretsFromEnv(), ...handlers });
const app = express();

app.post('/webhooks', webhooks.toExpressMiddleware());
// Alternative: app.post('/webhooks', express.raw({ type: 'application/json', limit: webhooks.maxBodyBytes }), webhooks.toExpressMiddleware());
// (body-parser then answers oversize bodies itself, after reading them to the end.)

app.use(express.json()); // the rest of the app may parse JSON as usual
app.get('/health', (_req, res) => void res.json({ ok: true }));

const server = app.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${(server.address() as { port: number }).port}/webhooks`));
