// A webhook receiver as an app would write it: the package's receiver kit (createWebhookHandler and its
// node adapter) on a loopback port, verifying every signature; the verified events are collected.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookHandler } from '../../src/webhooks/handler.js';
import { toNodeHandler } from '../../src/webhooks/adapters/node.js';
import type { Workbench } from '../../workbench/index.js';
import { http as call, STORE, waitFor } from './helpers.js';

export interface Received {
  event: string;
  body: any;
  eventId: string;
}

export interface Receiver {
  url: string;
  events: Received[];
  rejected: string[];
  /** Registers a subscription for `events` on the workbench's Admin API and keeps its secret. */
  subscribe(wb: Workbench, events: string[], store?: string): Promise<string>;
  /** The first verified delivery of `event` matching `where`. */
  next(event: string, where?: (body: any) => boolean): Promise<Received>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  let secret = '';
  const events: Received[] = [];
  const rejected: string[] = [];
  const handler = createWebhookHandler({
    secrets: () => secret,
    onUnhandled: (event, context) => {
      events.push({ event: (event as { event: string }).event, body: event, eventId: context.eventId });
    },
    onReject: (r) => rejected.push(`${r.reason}: ${r.message}`),
  });
  const server = http.createServer(toNodeHandler(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return {
    url,
    events,
    rejected,
    async subscribe(wb, names, store = STORE) {
      const r = await call(`${wb.url}/api/v1/${store}/admin/webhooks`, 'POST', { headers: { authorization: 'Bearer sandbox-test-admin' }, body: { url, events: names } });
      if (r.status !== 201) throw new Error(`could not subscribe: ${r.status} ${r.text}`);
      secret = r.json.content.secret;
      return r.json.content.webhook.id;
    },
    next: (event, where = () => true) => waitFor(() => events.find((e) => e.event === event && where(e.body)), `a verified ${event} delivery`),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
