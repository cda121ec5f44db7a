// `storefront-contract webhooks listen` as a developer runs it: the real CLI in a child process against a
// workbench started in process, forwarding to a receiver built on the receiver kit (createWebhookHandler
// and its node adapter, imported by the library's public names). Every event of a back-office order
// arrives at the receiver verified with the secret listen printed, listen prints a verified line for each,
// and Ctrl-C (SIGINT) removes the temporary subscription and exits 0. A receiver's 5XX goes back to the
// sandbox, which retries; replays, a full store, a misspelled event and an absent workbench are one line each.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookHandler, type WebhookEvent } from 'storefront-contract/webhooks';
import { toNodeHandler } from 'storefront-contract/webhooks/node';
import { repoRoot } from '../../scripts/lib/repo.js';
import { createWorkbench, type Workbench } from '../../workbench/index.js';
import { waitFor } from './helpers.js';
import { runCli } from '../helpers/cli-in-process.js';
import { closedPort } from '../helpers/closed-port.js';
import { hangGuard } from '../helpers/hang-guard.js';

const ADMIN = { authorization: 'Bearer listen-test-admin', 'content-type': 'application/json' };
const bin = path.join(repoRoot, 'cli/storefront-contract.ts');
// No secret of the developer's shell leaks in: listen makes and prints its own.
const env = () => {
  const e = { ...process.env };
  delete e.WEBHOOK_SECRET;
  delete e.STOREFRONT_ADMIN_TOKEN;
  delete e.WORKBENCH_URL;
  return e;
};

let wb: Workbench;
const children: ChildProcess[] = [];
const servers: http.Server[] = [];
beforeAll(async () => {
  // Retries 100x faster (50 ms, 300 ms, 3 s), with the contract's full time-out for a loaded machine.
  wb = await createWorkbench({ port: 0, quiet: true, webhooks: { timeScale: 0.01, timeoutMs: hangGuard(30_000) } });
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
  await wb?.close();
});

interface KitReceiver {
  url: string;
  secret: string;
  /** Verified events by event_id. */
  verified: Map<string, WebhookEvent>;
  rejected: string[];
}

/** A receiver as an app writes it with the kit; `fail(eventId)` true makes the handler throw (the kit answers 500). */
async function kitReceiver(fail: (eventId: string) => boolean = () => false): Promise<KitReceiver> {
  const receiver: KitReceiver = { url: '', secret: '', verified: new Map(), rejected: [] };
  const handler = createWebhookHandler({
    secrets: () => receiver.secret,
    onUnhandled: (event, { eventId }) => {
      if (fail(eventId)) throw new Error('not today');
      receiver.verified.set(eventId, event);
    },
    onReject: (r) => receiver.rejected.push(`${r.status} ${r.reason}`),
  });
  const server = http.createServer(toNodeHandler(handler));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/webhooks`;
  return receiver;
}

interface Listen {
  child: ChildProcess;
  stdout: () => string;
  /** Resolves with the first stdout line matching `re` (waits for it). */
  line(re: RegExp): Promise<RegExpExecArray>;
  exit: Promise<number | null>;
}

function listen(args: string[]): Listen {
  const child = spawn(process.execPath, ['--import', 'tsx', bin, 'webhooks', 'listen', '--url', wb.url, ...args], { cwd: repoRoot, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let errText = '';
  const waiters: Array<() => void> = [];
  child.stdout!.on('data', (c) => {
    out += c;
    for (const w of waiters.splice(0)) w();
  });
  child.stderr!.on('data', (c) => (errText += c));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => (resolve(code), waiters.splice(0).forEach((w) => w()))));
  return {
    child,
    stdout: () => out,
    exit,
    line: (re) =>
      new Promise((resolve, reject) => {
        const look = () => {
          for (const l of out.split('\n')) {
            const m = re.exec(l);
            if (m) return resolve(m);
          }
          if (child.exitCode !== null) return reject(new Error(`listen exited (${child.exitCode}) before printing ${re}:\n${out}\n${errText}`));
          waiters.push(look);
        };
        look();
      }),
  };
}

async function admin(method: string, pathname: string, store = 'demo-store', body?: unknown): Promise<any> {
  const res = await fetch(`${wb.url}/api/v1/${store}/admin${pathname}`, { method, headers: ADMIN, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, ...((await res.json()) as object) };
}

async function placeOrder(store = 'demo-store'): Promise<Array<{ event: string; event_id: string }>> {
  const res = await fetch(`${wb.url}/__simulator/stores/${store}/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ cart_id: 'crt_8N2F6Q' }) });
  const body = (await res.json()) as { content: { events: Array<{ event: string; event_id: string }> } };
  expect(res.status).toBe(201);
  return body.content.events;
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('webhooks listen --forward-to <a receiver built on the kit>', () => {
  it('forwards every event of a back-office order verified with the printed secret, prints each, and Ctrl-C removes the subscription (exit 0)', async () => {
    const receiver = await kitReceiver();
    const l = listen(['--forward-to', receiver.url]);
    receiver.secret = (await l.line(/^Ready! Your webhook signing secret is (whsec_[\w-]+) \(\^C to quit\)$/))[1];
    const [sub] = (await admin('GET', '/webhooks')).content.webhooks;
    expect(sub.description).toMatch(/webhooks listen \(temporary/);

    const events = await placeOrder();
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['order.created', 'inventory.updated']));
    for (const e of events) {
      await l.line(new RegExp(`^\\S+Z  ${esc(e.event)}  ${e.event_id}  dlv_\\w{26}  attempt 1  signature verified  -> 200 ${esc(receiver.url)}$`));
      expect((receiver.verified.get(e.event_id) as { event?: string } | undefined)?.event).toBe(e.event);
    }
    expect(receiver.rejected).toEqual([]);
    // The secret listen signs with is its own, not the subscription's (which never leaves the process).
    expect(l.stdout().match(/whsec_[\w-]+/g)).toEqual([receiver.secret]);

    l.child.kill('SIGINT');
    expect(await l.exit).toBe(0);
    expect(l.stdout()).toContain(`SIGINT: subscription ${sub.id} removed.`);
    expect((await admin('GET', '/webhooks')).content.webhooks).toEqual([]);
  });

  it("answers the sandbox with the receiver's status: a 5XX there makes the sandbox retry, and the retry is forwarded", async () => {
    let failures = 0;
    const receiver = await kitReceiver(() => failures++ === 0);
    const l = listen(['--store', 'retry-store', '--events', 'order.created', '--forward-to', receiver.url]);
    receiver.secret = (await l.line(/^Ready! Your webhook signing secret is (whsec_[\w-]+) /))[1];
    const [created] = (await placeOrder('retry-store')).filter((e) => e.event === 'order.created');
    await l.line(new RegExp(`  order\\.created  ${created.event_id}  dlv_\\w+  attempt 1  signature verified  -> 500 `));
    await l.line(new RegExp(`  order\\.created  ${created.event_id}  dlv_\\w+  attempt 2 \\(retry\\)  signature verified  -> 200 `));
    expect(receiver.verified.has(created.event_id)).toBe(true);
    // listen prints as it answers the simulator, which records the answer a moment later: wait for the record.
    const log = await waitFor(async () => {
      const rows = (await admin('GET', `/webhooks/deliveries?event_id=${created.event_id}`, 'retry-store')).content.deliveries;
      return rows.every((d: any) => d.status !== 'in_flight') && rows;
    }, 'attempt 2 recorded');
    expect(log.map((d: any) => [d.attempt, d.response_status]).sort()).toEqual([[1, 500], [2, 200]]);
    l.child.kill('SIGTERM');
    expect(await l.exit).toBe(0);
  });

  it('--replay-since delivers the store\'s earlier events again (same event_id, a new delivery)', async () => {
    const [earlier] = (await placeOrder('replay-store')).filter((e) => e.event === 'order.created');
    const l = listen(['--store', 'replay-store', '--events', 'order.created', '--replay-since', '1h']);
    await l.line(/^Replaying 1 event since \S+ to wh_\w+\.$/);
    const replayed = (await l.line(new RegExp(`  order\\.created  ${earlier.event_id}  (dlv_\\w+)  attempt 1 \\(replay\\)  signature verified  -> 200$`)))[1];
    l.child.kill('SIGINT');
    expect(await l.exit).toBe(0);

    // The route listen reads (outside the contract): events since a time, the event of a delivery, bad input in the envelope.
    const events = `${wb.url}/__simulator/stores/replay-store/events`;
    const since = await (await fetch(`${events}?since=${new Date(Date.now() - 3_600_000).toISOString()}`)).json() as any;
    expect(since.content.events.map((e: any) => e.event_id)).toContain(earlier.event_id);
    expect((await (await fetch(`${events}?since=${new Date(Date.now() + 60_000).toISOString()}`)).json() as any).content.events).toEqual([]);
    const ofDelivery = await (await fetch(`${events}?delivery_id=${replayed}`)).json() as any;
    expect(ofDelivery.content.events).toEqual([{ event_id: earlier.event_id, event: 'order.created', is_test: false, created_at: expect.any(String) }]);
    expect((await fetch(`${wb.url}/__simulator/stores/other-store/events?delivery_id=${replayed}`)).status).toBe(404);
    const bad = await fetch(`${events}?since=yesterday&limit=5000`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).content.error.details.map((d: any) => d.name)).toEqual(['since', 'limit']);
  });

  // In-process (test/helpers/cli-in-process.ts): each ends before listening.
  it('a full store, a misspelled event and no workbench are one line each', async () => {
    const here = (args: string[]) => runCli(['webhooks', 'listen', ...args], { WEBHOOK_SECRET: undefined, STOREFRONT_ADMIN_TOKEN: undefined, WORKBENCH_URL: undefined });
    for (let i = 0; i < 5; i++) expect((await admin('POST', '/webhooks', 'full-store', { url: `http://127.0.0.1:9/h${i}`, events: ['order.created'] })).status).toBe(201);
    const full = await here(['--url', wb.url, '--store', 'full-store']);
    expect(full.code).toBe(1);
    expect(full.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^Store full-store already has 5 enabled webhooks, the contract's limit: delete one/)]);

    const typo = await here(['--url', wb.url, '--events', 'order.created,order.craeted']);
    expect(typo.code).toBe(2);
    expect(typo.stderr.trim().split('\n')).toEqual([expect.stringContaining('--events: "order.craeted" is not an event of the catalog; did you mean "order.created"?')]);

    const port = await closedPort();
    const absent = await here(['--url', `http://127.0.0.1:${port}`]);
    expect(absent.code).toBe(2);
    expect(absent.stderr.trim().split('\n')).toEqual([`Could not reach the workbench at http://127.0.0.1:${port} (ECONNREFUSED); start it with storefront-contract mock, or pass --url.`]);
    expect(absent.stdout).toBe('');
  });
});

describe('issue 37 item 30: webhooks listen and a large receiver answer', () => {
  it("item 30: a 50 MB answer of the receiver is logged truncated (its first 1,024 characters), and listen stops reading it early", async () => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    // The first characters differ, so the excerpt shows it is the receiver's own start.
    const head = 'receiver-answer-start:';
    const total = 50 * 1024 * 1024;
    let finished = false;
    let written = 0;
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(total) });
        res.write(head);
        written = head.length;
        const more = () => {
          while (written < total) {
            const piece = chunk.subarray(0, Math.min(chunk.length, total - written));
            written += piece.length;
            if (!res.write(piece)) return void res.once('drain', more);
          }
          res.end();
        };
        res.on('finish', () => (finished = true));
        more();
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/big`;

    const l = listen(['--store', 'big-answer-store', '--events', 'order.created', '--forward-to', url]);
    await l.line(/^Ready! /);
    const [created] = (await placeOrder('big-answer-store')).filter((e) => e.event === 'order.created');
    await l.line(new RegExp(`  order\\.created  ${created.event_id}  dlv_\\w+  attempt 1  signature verified  -> 200 \\(answer truncated\\) `));
    const [row] = await waitFor(async () => {
      const rows = (await admin('GET', `/webhooks/deliveries?event_id=${created.event_id}`, 'big-answer-store')).content.deliveries;
      return rows.length && rows.every((d: any) => d.status !== 'in_flight') && rows;
    }, 'the attempt recorded');
    expect(row).toMatchObject({ response_status: 200, response_body_truncated: true });
    expect(row.response_body_excerpt).toBe((head + 'a'.repeat(1024)).slice(0, 1024));
    // listen read a few KB and hung up: the receiver never got to send its 50 MB.
    expect(finished).toBe(false);
    expect(written).toBeLessThan(total);
    l.child.kill('SIGINT');
    expect(await l.exit).toBe(0);
  });
});
