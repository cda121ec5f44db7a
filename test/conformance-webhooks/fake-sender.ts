// A small webhook sender for the certifier's tests: the two Admin operations the certifier uses
// (createWebhook, sendTestWebhook) and a delivery loop following the contract (signed raw bytes, X-SVC-*
// headers, custom headers, retries at the scaled delays, time-out, 410 disables), with one fault switchable
// on at a time. Test deliveries stand in for events (it has no /__simulator route).
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { deliveryRules, webhookEvents } from '../../generated/webhooks/catalog.js';
import { signPayload } from '../../src/webhooks/verify.js';
import { postWithDeadline } from '../../workbench/simulator/post-with-deadline.js';

export type SenderFault =
  | 'signs-reserialized-json'
  | 'uppercase-hex'
  | 'reuses-delivery-id'
  | 'new-event-id-on-retry'
  | 'wrong-retry-schedule'
  | 'retries-after-410'
  | 'no-event-id-header'
  | 'timestamp-wrong-type'
  | 'drops-first-delivery'
  | 'sends-put'
  | 'own-user-agent'
  | 'text-plain-content-type'
  | 'drops-custom-headers'
  | 'test-flag-false'
  | 'retries-after-success'
  | 'one-retry-too-many'
  | 'waits-past-the-time-out';

export interface FakeSender {
  /** Base of the service (the certifier's --admin-url). */
  url: string;
  close(): Promise<void>;
}

interface Subscription {
  id: string;
  url: string;
  secret: string;
  events: string[];
  customHeaders: Record<string, string>;
  disabled: boolean;
}

const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;

export async function startFakeSender(options: { timeScale: number; fault?: SenderFault }): Promise<FakeSender> {
  const { timeScale, fault } = options;
  const timeoutMs = deliveryRules.timeoutSeconds * 1000 * timeScale;
  const delays = deliveryRules.retryDelaysSeconds.map((s) => s * 1000 * timeScale);
  const subs = new Map<string, Subscription>();
  const timers = new Set<NodeJS.Timeout>();
  const agent = new Agent({ connections: 8 });
  let closed = false;

  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      if (!closed) fn();
    }, ms);
    timers.add(t);
  };

  let deliveriesStarted = 0;
  async function attempt(sub: Subscription, event: string, eventId: string, n: number, deliveryId: string): Promise<void> {
    if (closed) return;
    // The first event raised is lost: never sent.
    if (fault === 'drops-first-delivery' && n === 1 && deliveriesStarted++ === 0) return;
    const example = structuredClone(webhookEvents.find((e) => e.event === event)!.example.payload) as Record<string, any>;
    const currentEventId = fault === 'new-event-id-on-retry' && n > 1 ? id('evt') : eventId;
    const body: Record<string, any> = { ...example, event_id: currentEventId, delivery_id: deliveryId, timestamp: new Date().toISOString(), is_test: fault !== 'test-flag-false' };
    body.payload = { ...body.payload, event_id: currentEventId };
    if (fault === 'timestamp-wrong-type') body.timestamp = Date.now();
    const raw = Buffer.from(fault === 'signs-reserialized-json' ? JSON.stringify(body, null, 2) : JSON.stringify(body));
    let signature = signPayload(fault === 'signs-reserialized-json' ? JSON.stringify(body) : raw, sub.secret);
    if (fault === 'uppercase-hex') signature = `sha256=${signature.slice(7).toUpperCase()}`;
    const headers: Record<string, string> = {
      'content-type': deliveryRules.contentType,
      'user-agent': deliveryRules.userAgent,
      [deliveryRules.headers.event]: event,
      [deliveryRules.headers.signature]: signature,
      [deliveryRules.headers.eventId]: currentEventId,
      [deliveryRules.headers.deliveryId]: deliveryId,
      ...sub.customHeaders,
    };
    if (fault === 'no-event-id-header') delete headers[deliveryRules.headers.eventId];
    if (fault === 'own-user-agent') headers['user-agent'] = 'AcmeCommerce-Webhooks/2.3';
    if (fault === 'text-plain-content-type') headers['content-type'] = 'text/plain';
    if (fault === 'drops-custom-headers') for (const name of Object.keys(sub.customHeaders)) delete headers[name];
    // Gives up only well after the contract's time-out, beyond the certifier's tolerance (expected × 1.5 + 1 s).
    const giveUpMs = fault === 'waits-past-the-time-out' ? timeoutMs * 1.5 + 1500 : timeoutMs;

    // The simulator's own exchange: the time-out counts from the request being sent, and an answer that came
    // in time counts even when this (busy) process reads it late. null: time-out or network error.
    const method = fault === 'sends-put' ? 'PUT' : 'POST';
    const { status } = await postWithDeadline(agent, sub.url, { method, headers, body: raw }, { timeoutMs: giveUpMs, maxBytes: 65_536 });
    const success = status !== null && status >= 200 && status <= 299;
    if (success && !(fault === 'retries-after-success' && n === 1)) return;
    if (status === deliveryRules.disableStatus && fault !== 'retries-after-410') {
      sub.disabled = true;
      return;
    }
    if (n >= deliveryRules.maxAttempts + (fault === 'one-retry-too-many' ? 1 : 0)) return;
    // The extra attempt of one-retry-too-many comes after the first delay, inside the certifier's quiet period.
    const delay = fault === 'wrong-retry-schedule' ? delays[0] : (delays[n - 1] ?? delays[0]);
    const nextDelivery = fault === 'reuses-delivery-id' ? deliveryId : id('dlv');
    later(delay, () => void attempt(sub, event, eventId, n + 1, nextDelivery));
  }

  function json(res: ServerResponse, status: number, body: unknown) {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json' }).end(text);
  }

  async function readJson(req: IncomingMessage): Promise<any> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    return text ? JSON.parse(text) : undefined;
  }

  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method === 'POST' && /^\/api\/v1\/[^/]+\/admin\/webhooks$/.test(path)) {
      const body = await readJson(req);
      const sub: Subscription = { id: id('wh'), url: body.url, secret: id('whsec'), events: body.events, customHeaders: body.custom_headers ?? {}, disabled: false };
      subs.set(sub.id, sub);
      return json(res, 201, { success: true, message: 'created', content: { webhook: { id: sub.id }, secret: sub.secret, ignored_events: [] } });
    }
    const test = /^\/api\/v1\/[^/]+\/admin\/webhooks\/([^/]+)\/test$/.exec(path);
    if (req.method === 'POST' && test) {
      const body = (await readJson(req)) ?? {};
      const sub = subs.get(test[1]);
      if (!sub) return json(res, 404, { success: false, message: 'not found' });
      if (sub.disabled) return json(res, 409, { success: false, message: 'webhook disabled by a 410' });
      const eventId = id('evt');
      const deliveryId = id('dlv');
      setImmediate(() => void attempt(sub, body.event ?? sub.events[0], eventId, 1, deliveryId));
      return json(res, 202, { success: true, message: 'scheduled', content: { delivery: { event_id: eventId, delivery_id: deliveryId } } });
    }
    json(res, 404, { success: false, message: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      await agent.close().catch(() => undefined);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
