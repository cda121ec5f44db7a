// Plain node:http receiver.   WEBHOOK_SECRET=... npx tsx examples/receivers/node.ts
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookHandler } from '../../src/webhooks/index.js';
import { handlers, port, secretsFromEnv } from './shared.js';

const webhooks = createWebhookHandler({ secrets: secretsFromEnv(), ...handlers });
const handle = webhooks.toNodeHandler();

const server = createServer((req, res) => {
  if (req.url === '/webhooks') return void handle(req, res);
  res.writeHead(404).end();
});
server.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`));
