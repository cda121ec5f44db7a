// Shared by the simulator tests: real subscriber servers on loopback that capture the raw bytes of every
// delivery, the workbench (createMockServer) with the simulator's routes, admin calls over HTTP, and the
// checks every captured delivery must pass (two independent signature verifiers, the event schema, the
// contract's headers).
import { verify as octokitVerify } from '@octokit/webhooks-methods';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from '../helpers/close-once.js';
import { send, startMockServer } from '../helpers/adapter.js';
import type { Reply } from '../helpers/http-reply.js';
import { expect } from 'vitest';
import type { MockServer } from '../../workbench/adapters/node-http.js';
import { createSimulator, type Simulator, type SimulatorOptions } from '../../workbench/simulator/index.js';
import { deliveryRules } from '../../workbench/simulator/rules.js';
import { validateResponse, validateWebhookDelivery } from '../../src/validators/index.js';
import { verifySignature } from '../../src/webhooks/verify.js';

export interface Captured {
  n: number;
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  body: any;
  /** Date.now() when the request arrived. */
  at: number;
}

export interface Answer {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  /** Never answer (the sender's time-out must end the attempt). */
  hang?: boolean;
  /** Answer after this many ms. */
  delayMs?: number;
}

export interface Receiver {
  url: string;
  port: number;
  captured: Captured[];
  close(): Promise<void>;
}

/** A subscriber endpoint on 127.0.0.1:0. `answer` sees each request (and its 1-based number) and says what to send. */
export async function startReceiver(answer: (c: Captured) => Answer = () => ({ status: 200 }), path = '/hook'): Promise<Receiver> {
  const captured: Captured[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let body: unknown;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        body = undefined;
      }
      const c: Captured = { n: captured.length + 1, path: req.url ?? '', headers: req.headers, raw, body, at: Date.now() };
      captured.push(c);
      const a = answer(c);
      if (a.hang) return;
      const send = () => res.writeHead(a.status ?? 200, { 'content-type': 'text/plain', ...(a.headers ?? {}) }).end(a.body ?? 'ok');
      if (a.delayMs) setTimeout(send, a.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    captured,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A loopback port nothing listens on (below the ephemeral range: see closed-port.ts). */
export { closedPort } from '../helpers/closed-port.js';

export interface Bench {
  sim: Simulator;
  server: MockServer;
  close(): Promise<void>;
}

/**
 * Retries 100x faster than the contract; the time-out is 1.5 s rather than the scaled 300 ms so a
 * receiver's answer is never late only because the machine is busy (tests of the time-out set their own).
 */
export const TEST_TIMEOUT_MS = 1500;

/** The workbench with a simulator mounted, on a free loopback port. */
export async function startWorkbench(options: SimulatorOptions = {}): Promise<Bench> {
  const sim = createSimulator({ timeScale: 0.01, timeoutMs: TEST_TIMEOUT_MS, ...options });
  const server = await startMockServer({ port: 0, host: '127.0.0.1', quiet: true, extensions: [sim.extension] });
  return {
    sim,
    server,
    close: once(async () => {
      await server.close();
      await sim.close();
    }),
  };
}

export type { Reply };

export const ADMIN = { authorization: 'Bearer admin-test-token' };

export async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = ADMIN): Promise<Reply> {
  return send(`${base}${path}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Calls an Admin operation and checks the answer against the contract's schema for that status. */
export async function admin(server: MockServer, operationId: string, method: string, store: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply> {
  const reply = await call(server.url, method, `/api/v1/${store}/admin${path}`, body, headers);
  const verdict = validateResponse('admin', operationId, reply.status, reply.json);
  expect(verdict, `${operationId} ${reply.status} answer matches the contract: ${reply.text.slice(0, 400)}`).toEqual({ valid: true });
  return reply;
}

export async function createWebhook(server: MockServer, store: string, body: Record<string, unknown>): Promise<{ id: string; secret: string; reply: Reply }> {
  const reply = await admin(server, 'createWebhook', 'POST', store, '/webhooks', body);
  expect(reply.status, reply.text).toBe(201);
  return { id: reply.json.content.webhook.id, secret: reply.json.content.secret, reply };
}

export async function deliveries(server: MockServer, store: string, query = ''): Promise<any[]> {
  const reply = await admin(server, 'listWebhookDeliveries', 'GET', store, `/webhooks/deliveries?limit=1000${query ? `&${query}` : ''}`);
  expect(reply.status).toBe(200);
  // Oldest first reads more naturally in assertions; the API lists newest first.
  return [...reply.json.content.deliveries].reverse();
}

type Falsy = false | 0 | '' | null | undefined;

/**
 * Polls until `probe` returns a truthy value (generous deadline; not a timing assertion). 50 s, under the
 * tests' 60 s: three deliveries once took over 20 s at load 40 on 2 cores, failing a test that was right.
 */
export async function waitFor<T>(probe: () => T | Falsy | Promise<T | Falsy>, what: string, timeoutMs = 50_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as T;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let storeCounter = 0;
/** A store id of its own per test, so the 5-webhook limit and the log never mix between tests. */
export const freshStore = (label: string) => `${label}-${process.pid}-${++storeCounter}`;

/**
 * What every delivery must be: signed over its raw bytes (checked by @octokit/webhooks-methods and by the
 * project's verifier), a valid envelope of its event, with the contract's headers matching the body.
 */
export async function expectValidDelivery(c: Captured, secret: string): Promise<void> {
  const h = deliveryRules.headers;
  const signature = c.headers[h.signature.toLowerCase()] as string;
  expect(await octokitVerify(secret, c.raw.toString('utf8'), signature), `octokit verify of delivery ${c.n}`).toBe(true);
  expect(verifySignature(c.raw, signature, secret)).toEqual({ ok: true, secretIndex: 0 });
  expect(validateWebhookDelivery(c.body)).toEqual({ valid: true, event: c.body.event });
  expect(c.headers['content-type']).toBe(deliveryRules.contentType);
  expect(c.headers['user-agent']).toBe(deliveryRules.userAgent);
  expect(c.headers[h.event.toLowerCase()]).toBe(c.body.event);
  expect(c.headers[h.eventId.toLowerCase()]).toBe(c.body.event_id);
  expect(c.headers[h.deliveryId.toLowerCase()]).toBe(c.body.delivery_id);
  expect(c.body.payload.event_id).toBe(c.body.event_id);
}

export async function expectAllValid(captured: Captured[], secret: string): Promise<void> {
  for (const c of captured) await expectValidDelivery(c, secret);
}
