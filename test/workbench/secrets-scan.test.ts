// Secrets scan of what the workbench answers and logs: signing secrets are returned once (create,
// rotate), custom header values are write-only, and neither comes back anywhere else, even when a
// receiver echoes the delivery it got into its answer (the delivery log keeps an excerpt of it).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createWorkbench, type Workbench } from '../../workbench/index.js';
import { call, startReceiver, waitFor, type Receiver } from '../simulator/helpers.js';

const CUSTOM_VALUE = 'partner-credential-9f8e7d6c';
let bench: Workbench;
let echo: Receiver;
const log: string[] = [];
beforeAll(async () => {
  bench = await createWorkbench({ port: 0, logSink: (t) => log.push(t), webhooks: { timeScale: 0.01, log: (line) => log.push(line) } });
  // Echoes the request headers and body back, as some debugging endpoints do.
  echo = await startReceiver((c) => ({ status: 200, body: JSON.stringify({ headers: c.headers, body: c.raw.toString('utf8') }) }));
});
afterAll(async () => {
  await bench?.close();
  await echo?.close();
});

it('no secret, custom header value or signature comes back in any answer or log line', async () => {
  const admin = `${bench.url}/api/v1/scan-store/admin`;
  const created = await call(admin, 'POST', '/webhooks', { url: echo.url, events: ['order.created'], custom_headers: { 'X-Partner-Token': CUSTOM_VALUE } });
  expect(created.status).toBe(201);
  const id = created.json.content.webhook.id as string;
  const first = created.json.content.secret as string;
  const rotated = await call(admin, 'POST', `/webhooks/${id}/rotate-secret`);
  const second = rotated.json.content.secret as string;

  bench.simulator!.trigger('scan-store', 'order.created');
  await waitFor(() => echo.captured.length >= 1, 'the echoed delivery');
  const signature = String(echo.captured[0].headers['x-svc-signature']);
  expect(echo.captured[0].headers['x-partner-token']).toBe(CUSTOM_VALUE);

  const deliveries = await waitFor(async () => {
    const reply = await call(admin, 'GET', '/webhooks/deliveries');
    // Answered, not only claimed: an attempt is in the log (in flight) before the receiver's answer is.
    return reply.json.content.deliveries.some((d: { response_status: number | null }) => d.response_status !== null) && reply;
  }, 'the delivery log with the answer');
  expect(deliveries.text).toContain('[redacted]');
  const answers = [
    deliveries.text,
    (await call(admin, 'GET', `/webhooks/${id}`)).text,
    (await call(admin, 'GET', '/webhooks')).text,
    (await call(admin, 'GET', `/webhooks/deliveries?webhook_id=${id}`)).text,
    (await call(`${bench.url}/__simulator`, 'GET', '')).text,
  ];
  // The request log is written once each answer is finished: wait for the last request's line, not a time.
  await expect.poll(() => log.join('\n')).toMatch(/^GET \/__simulator \d{3} /m);
  for (const text of [...answers, log.join('\n')]) {
    for (const secret of [first, second, CUSTOM_VALUE, signature]) expect(text).not.toContain(secret);
  }
  expect(JSON.stringify(created.json)).toContain(first);
});
