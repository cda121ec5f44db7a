// Sends the contract's order.created example to a receiver, signed the way the service signs it.
//   WEBHOOK_SECRET=... node --conditions=sfc-source --import tsx examples/receivers/send-delivery.ts http://127.0.0.1:3000/webhooks [--test]
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import YAML from 'yaml';
import { signPayload } from 'storefront-contract/webhooks';

const url = process.argv[2] ?? 'http://127.0.0.1:3000/webhooks';
const secret = process.env.WEBHOOK_SECRET;
if (!secret) throw new Error('Set WEBHOOK_SECRET to the receiver’s secret.');

const body = YAML.parse(await readFile(new URL('../../spec/asyncapi/examples/order.created.yaml', import.meta.url), 'utf8'));
body.event_id = body.payload.event_id = `evt_${randomUUID()}`;
body.delivery_id = `dlv_${randomUUID()}`;
body.is_test = process.argv.includes('--test');
const raw = JSON.stringify(body);

const response = await fetch(url, {
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    'user-agent': 'Service-Webhooks/1.0',
    'x-svc-event': body.event,
    'x-svc-signature': signPayload(raw, secret),
    'x-svc-event-id': body.event_id,
    'x-svc-delivery-id': body.delivery_id,
  },
  body: raw,
});
console.log(response.status, await response.text());
// A refused delivery fails the command, so scripts (and the guide's doc test) notice.
if (!response.ok) process.exitCode = 1;
