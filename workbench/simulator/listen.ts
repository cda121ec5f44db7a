// `storefront-contract webhooks listen`: a webhook developer's local loop, as `stripe listen --forward-to`
// gives one. It registers a temporary subscription on a running workbench through the Admin API
// (createWebhook), receives its deliveries on a loopback port of its own, verifies each with the
// subscription's secret (the receiver kit's verifySignature), prints one line per delivery, and with
// --forward-to sends the same bytes on to the developer's receiver, signed with a secret of its own
// (signBody of deliver.ts: the simulator's signature and headers) through the simulator's own sender
// (deadline, no redirects, error classes). The simulator gets the receiver's status back, so its retries
// follow the developer's receiver. Ctrl-C deletes the subscription (deleteWebhook) and exits 0.
// Replays (--replay-since, --replay) list the store's events through the simulator's route outside the
// contract (GET /__simulator/stores/{store_id}/events) and deliver them with replayWebhookEvent.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { apiBaseUrl, basePathTemplate } from 'storefront-contract/contract';
import { verifySignature } from 'storefront-contract/webhooks';
import { readSecret, stopSignal, UsageError, type StopSignal } from '../cli-support.js';
import { createSender, signBody, type SendResult } from './deliver.js';
import { newSigningSecret } from './ids.js';
import { catalogEntry, deliveryRules, webhookEvents } from './rules.js';
import { closestNames } from '../http/suggest.js';

export const LISTEN_HELP = `Usage: storefront-contract webhooks listen [options]

Receives a running workbench's webhooks on this machine: registers a temporary subscription (Admin API,
POST ${basePathTemplate.admin}/webhooks) pointing at a loopback port of its own, prints one line per
delivery (time, event, event id, delivery id, attempt, signature verdict, answer), and with --forward-to
sends each delivery on to your receiver, signed with a secret of its own. Ctrl-C removes the subscription.

Options:
  --forward-to <url>       forward every verified delivery to this URL: the same body and the contract's
                           headers, re-signed with listen's secret (printed once at start, or WEBHOOK_SECRET);
                           the sandbox gets your receiver's status back, so a 5XX there makes it retry (5 s,
                           30 s, 5 min, scaled by the workbench's --time-scale) and a 410 disables the subscription
  --events <a,b,...>       only these events (default: every event of the catalog; storefront-contract webhooks
                           events lists them); repeatable
  --replay-since <time>    first deliver again the store's events since an ISO time (2026-11-26T10:00:00Z) or
                           a while ago (30s, 15m, 2h, 1d); same event_id, a new delivery_id (replayWebhookEvent)
  --replay <id>            first deliver again one event: its event id (evt_...) or the id of one of its
                           deliveries (dlv_...); repeatable
  --store <id>             store id (default demo-store)
  --url <base>             workbench address (default http://127.0.0.1:4010, env WORKBENCH_URL)
  --admin-token <token>    the Admin API token (env STOREFRONT_ADMIN_TOKEN; needed when the workbench was
                           started with --admin-token, which it then only accepts)
  --help                   this text

Environment: WORKBENCH_URL, STOREFRONT_ADMIN_TOKEN, WEBHOOK_SECRET (listen's signing secret for forwarded
deliveries: set it to keep the same secret across runs; without it a new one is made and printed once).

A store holds at most ${deliveryRules.maxEnabledWebhooksPerStore} enabled subscriptions (the contract's limit); listen takes one while it runs.
Exit: 0 after Ctrl-C (SIGINT) or SIGTERM, the subscription removed; 1 the workbench refused the subscription
(store full, loopback receivers refused); 2 misuse or no workbench at the address.

Example:
  storefront-contract webhooks listen --forward-to http://127.0.0.1:3000/webhooks --events order.created,order.updated`;

/** Placeholder admin token: a workbench started without --admin-token accepts any non-empty bearer. */
const ANY_ADMIN_TOKEN = 'storefront-contract-webhooks-listen';
/** Largest delivery body read (the kit's default limit is 1 MiB; the simulator's events are far smaller). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Event ids remembered to tell a first attempt from a later one (then the log is asked). */
const MAX_SEEN = 10_000;
const ID_RE = /^(evt|dlv)_[0-9A-HJKMNP-TV-Z]{26}$/;

interface Options {
  base: string;
  store: string;
  events: string[];
  forwardTo?: string;
  since?: number;
  replay: string[];
  adminToken: string;
}

function usage(message: string): never {
  throw new UsageError(message);
}

/** The closest catalog name, for "did you mean" (../http/suggest.ts). */
export function suggestEvent(name: string): string | undefined {
  return closestNames(name, webhookEvents.map((e) => e.event), 1)[0];
}


/** `2026-11-26T10:00:00Z`, or `15m` (that long ago): milliseconds since the epoch. */
export function parseSince(raw: string, now = Date.now()): number {
  const ago = /^(\d{1,6})(s|m|h|d)$/.exec(raw);
  if (ago) return now - Number(ago[1]) * { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[ago[2] as 's']!;
  const t = Date.parse(raw);
  if (!/^\d{4}-\d{2}-\d{2}(T|$)/.test(raw) || Number.isNaN(t)) usage(`--replay-since must be an ISO time (2026-11-26T10:00:00Z) or a while ago (30s, 15m, 2h, 1d), got "${raw.slice(0, 40)}"`);
  return t;
}

function parseOptions(argv: string[]): Options | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        'forward-to': { type: 'string' },
        events: { type: 'string', multiple: true },
        'replay-since': { type: 'string' },
        replay: { type: 'string', multiple: true },
        store: { type: 'string' },
        url: { type: 'string' },
        'admin-token': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    usage((e as Error).message);
  }
  if (values.help) return 'help';
  const base = String(values.url ?? process.env.WORKBENCH_URL ?? 'http://127.0.0.1:4010').replace(/\/+$/, '');
  const from = values.url !== undefined ? '--url' : process.env.WORKBENCH_URL !== undefined ? 'WORKBENCH_URL' : '--url';
  if (!/^https?:\/\/[^/]/.test(base) || !URL.canParse(base)) usage(`${from} must be the workbench's http:// address, e.g. http://127.0.0.1:4010 (got "${base.slice(0, 80)}")`);
  const store = values.store ?? 'demo-store';
  if (!store || store.length > 200) usage('--store must be a store id, e.g. demo-store');
  const named = (values.events ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  if (values.events && named.length === 0) usage('--events needs event names, e.g. --events order.created,order.updated');
  for (const name of named) {
    if (catalogEntry(name)) continue;
    const hint = suggestEvent(name);
    usage(`--events: "${name.slice(0, 60)}" is not an event of the catalog${hint ? `; did you mean "${hint}"?` : ''} (storefront-contract webhooks events lists them)`);
  }
  const forwardTo = values['forward-to'];
  if (forwardTo !== undefined && (!/^https?:\/\//i.test(forwardTo) || !URL.canParse(forwardTo))) {
    usage(`--forward-to must be an http(s) URL of your receiver, e.g. http://127.0.0.1:3000/webhooks (got "${forwardTo.slice(0, 80)}")`);
  }
  const replay = values.replay ?? [];
  for (const id of replay) if (!ID_RE.test(id)) usage(`--replay takes an event id (evt_...) or a delivery id (dlv_...), got "${id.slice(0, 40)}"`);
  const warn = (line: string) => process.stderr.write(`${line}\n`);
  const adminToken = readSecret(values['admin-token'], 'admin-token', 'STOREFRONT_ADMIN_TOKEN', warn).value ?? ANY_ADMIN_TOKEN;
  return {
    base,
    store,
    events: named.length ? [...new Set(named)] : webhookEvents.map((e) => e.event),
    forwardTo,
    since: values['replay-since'] === undefined ? undefined : parseSince(values['replay-since']),
    replay,
    adminToken,
  };
}

interface Answer {
  status: number;
  json: any;
}

/** Why fetch failed, in a word (ECONNREFUSED, ENOTFOUND, ...). */
function networkReason(e: unknown): string {
  const cause = (e as Error & { cause?: { code?: string; message?: string; errors?: Array<{ code?: string }> } }).cause;
  return cause?.code ?? cause?.errors?.[0]?.code ?? cause?.message ?? (e as Error).message;
}

export async function runListen(argv: string[]): Promise<number> {
  // The signal listeners go with the command, however it ends (stopSignal in cli-support.ts says why).
  const signals: StopSignal[] = [];
  try {
    return await listen(argv, () => {
      const signal = stopSignal();
      signals.push(signal);
      return signal.received;
    });
  } finally {
    for (const signal of signals) signal.dispose();
  }
}

async function listen(argv: string[], untilStopped: () => Promise<string>): Promise<number> {
  const parsed = parseOptions(argv);
  if (parsed === 'help') {
    process.stdout.write(`${LISTEN_HELP}\n`);
    return 0;
  }
  const options: Options = parsed;
  const { base, store } = options;
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const err = (line: string) => process.stderr.write(`${line}\n`);
  const admin = apiBaseUrl(base, 'admin', store);
  const auth = { authorization: `Bearer ${options.adminToken}` };
  const call = async (url: string, method = 'GET', body?: unknown): Promise<Answer> => {
    const res = await fetch(url, { method, headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, json };
  };

  // Is a workbench there? Its simulator also says how long it waits for an answer.
  let attemptDeadlineMs: number;
  try {
    const res = await fetch(`${base}/__simulator`);
    const body = (await res.json().catch(() => undefined)) as { content?: { time_scale?: number; timeout_ms?: number } } | undefined;
    if (res.headers.get('x-simulator') !== 'outside-contract' || typeof body?.content?.time_scale !== 'number') {
      err(`${base} is not a workbench with the webhook simulator (GET /__simulator answered ${res.status}); start one with storefront-contract mock, or pass --url.`);
      return 2;
    }
    attemptDeadlineMs = body.content.timeout_ms ?? deliveryRules.timeoutSeconds * 1000 * body.content.time_scale;
  } catch (e) {
    err(`Could not reach the workbench at ${base} (${networkReason(e)}); start it with storefront-contract mock, or pass --url.`);
    return 2;
  }

  // Signals from now on end the run: after the subscription exists, it is removed first.
  const stopped = untilStopped();
  const subscription: { id?: string; secret?: string } = {};
  // Event ids delivered so far (bounded) and those listen asked to replay: see attemptOf.
  const seen = new Set<string>();
  const replayed = new Set<string>();
  const forwardSecret = options.forwardTo ? process.env.WEBHOOK_SECRET || newSigningSecret() : undefined;
  // Your receiver gets most of the simulator's deadline, so listen still answers (504) before the simulator gives up.
  const timeoutMs = Math.max(1, Math.floor(attemptDeadlineMs * 0.9));
  const sender = options.forwardTo ? createSender({ timeoutMs, denyPrivate: false, connections: 8 }) : undefined;
  const server = http.createServer((req, res) => {
    receive(req, res).catch((e: unknown) => {
      // A delivery cut off mid-body (the simulator gave up): nothing to answer; say so and go on.
      err(`listen: a delivery failed: ${(e as Error).message}`);
      if (!res.headersSent) res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  const closeAll = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await sender?.close();
  };

  let created: Answer;
  try {
    created = await call(`${admin}/webhooks`, 'POST', { url: hookUrl, events: options.events, description: `storefront-contract webhooks listen (temporary, pid ${process.pid})` });
  } catch (e) {
    await closeAll();
    err(`Could not reach the workbench at ${base} (${networkReason(e)}); start it with storefront-contract mock, or pass --url.`);
    return 2;
  }
  if (created.status !== 201) {
    await closeAll();
    const code = created.json?.content?.error?.code;
    if (created.status === 409 && code === 'webhook_limit_reached') {
      err(`Store ${store} already has ${deliveryRules.maxEnabledWebhooksPerStore} enabled webhooks, the contract's limit: delete one (DELETE ${basePathTemplate.admin}/webhooks/{id}; GET ${basePathTemplate.admin}/webhooks lists them) and run listen again.`);
      return 1;
    }
    if (created.status === 401) {
      err(`The workbench refused the admin token: set STOREFRONT_ADMIN_TOKEN to the token it was started with (--admin-token).`);
      return 2;
    }
    if (created.status === 400 && code === 'invalid_url') {
      err(`The workbench refuses loopback receivers (started with --deny-private), so listen cannot receive its deliveries: ${created.json?.message ?? ''}`.trim());
      return 1;
    }
    err(`The workbench refused the subscription (HTTP ${created.status}): ${String(created.json?.message ?? 'no envelope').slice(0, 300)}`);
    return 1;
  }
  subscription.id = created.json.content.webhook.id as string;
  subscription.secret = created.json.content.secret as string;

  const what = options.events.length === webhookEvents.length ? `every event of the catalog (${options.events.length})` : options.events.join(', ');
  out(`Listening to store ${store} of ${base}: temporary subscription ${subscription.id} for ${what}, removed on exit.`);
  if (options.forwardTo) {
    out(`Forwarding to ${options.forwardTo}: the same bodies, re-signed; your receiver's status goes back to the sandbox (a 5XX makes it retry).`);
    out(process.env.WEBHOOK_SECRET ? 'Ready! Forwarded deliveries are signed with the secret in WEBHOOK_SECRET (^C to quit)' : `Ready! Your webhook signing secret is ${forwardSecret} (^C to quit)`);
  } else {
    out('Ready! Printing deliveries; --forward-to <url> sends them on to your receiver (^C to quit)');
  }

  if (options.since !== undefined || options.replay.length) await replay();

  const signal = await stopped;
  await closeAll();
  try {
    const removed = await call(`${admin}/webhooks/${encodeURIComponent(subscription.id)}`, 'DELETE');
    if (removed.status === 200 || removed.status === 404) out(`${signal}: subscription ${subscription.id} removed.`);
    else err(`${signal}: the workbench did not remove subscription ${subscription.id} (HTTP ${removed.status}); delete it with DELETE ${basePathTemplate.admin}/webhooks/{id}.`);
  } catch (e) {
    err(`${signal}: could not reach the workbench to remove subscription ${subscription.id} (${networkReason(e)}); it goes when the workbench's memory does, or delete it later.`);
  }
  return 0;

  /** One delivery from the simulator: verify, forward (or acknowledge), answer, print. */
  async function receive(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const answer = (status: number, text: string) => {
      if (res.headersSent || res.destroyed) return;
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    };
    // The sender read only the start of the receiver's answer (sender.ts, readExcerpt: a few KB, then it
    // hangs up). Passing that start on as a whole answer would make the simulator log a complete, short
    // body (response_body_truncated false); so the start is sent and the answer cut off, as the receiver's
    // was for listen, and the simulator logs it truncated.
    const answerCut = (status: number, text: string) => {
      if (res.headersSent || res.destroyed) return;
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
      res.write(text, () => res.destroy());
    };
    if (req.method !== 'POST') return answer(405, 'webhooks listen takes POST deliveries only');
    const body = await readAll(req);
    if (!body) return answer(413, 'delivery too large');
    const h = deliveryRules.headers;
    const header = (name: string) => {
      const v = req.headers[name.toLowerCase()];
      return Array.isArray(v) ? v[0] : v;
    };
    let envelope: { event?: string; event_id?: string; delivery_id?: string; timestamp?: string } = {};
    try {
      envelope = JSON.parse(body.toString('utf8'));
    } catch {
      // Printed with the headers' ids; the signature verdict says the rest.
    }
    const ids = { event: String(envelope.event ?? header(h.event) ?? '?'), eventId: String(envelope.event_id ?? header(h.eventId) ?? '?'), deliveryId: String(envelope.delivery_id ?? header(h.deliveryId) ?? '?') };
    const when = typeof envelope.timestamp === 'string' ? envelope.timestamp : new Date().toISOString();
    const attempt = attemptOf(ids.eventId, ids.deliveryId, (envelope as { is_test?: unknown }).is_test === true);
    const verdict = verifySignature(body, header(h.signature), subscription.secret ?? '');
    const head = async () => `${when}  ${ids.event}  ${ids.eventId}  ${ids.deliveryId}  attempt ${await attempt}  signature ${verdict.ok ? 'verified' : `INVALID (${verdict.reason})`}`;
    if (!verdict.ok) {
      answer(401, 'signature does not verify with the subscription secret');
      out(`${await head()}  -> 401, not forwarded`);
      return;
    }
    if (!options.forwardTo || !sender || !forwardSecret) {
      answer(200, 'received by storefront-contract webhooks listen');
      out(`${await head()}  -> 200`);
      return;
    }
    const result: SendResult = await sender.send(signBody(options.forwardTo, body, ids, forwardSecret, {}));
    // The receiver's own status, so the simulator's retries (and a 410's disabling) follow it; no answer at all is a 502/504.
    const status = result.responseStatus ?? (result.errorClass === 'timeout' ? 504 : 502);
    const text = result.excerpt ?? `webhooks listen: your receiver at ${options.forwardTo} did not answer (${result.errorClass})`;
    if (result.truncated) answerCut(status, text);
    else answer(status, text);
    const note =
      result.responseStatus === null
        ? `${result.errorClass} (answered ${status}: the sandbox retries)`
        : status === deliveryRules.disableStatus
          ? `${status} (the sandbox disables this subscription for good; run listen again to receive)`
          : `${status}${result.truncated ? ' (answer truncated)' : ''}`;
    out(`${await head()}  -> ${note} ${options.forwardTo}`);
  }

  /**
   * The attempt number of a delivery and its cause. The subscription is new, so the first delivery of an
   * event that listen did not replay is its first attempt (the common case, no request); any other is read
   * from the delivery log (listWebhookDeliveries): retries, replays, tests. "?" if it cannot be read.
   */
  async function attemptOf(eventId: string, deliveryId: string, isTest: boolean): Promise<string> {
    const first = !seen.has(eventId) && !replayed.has(eventId) && !isTest;
    if (seen.size >= MAX_SEEN) seen.clear();
    seen.add(eventId);
    if (first) return '1';
    try {
      const q = new URLSearchParams({ webhook_id: subscription.id ?? '', event_id: eventId, limit: '100' });
      const r = await call(`${admin}/webhooks/deliveries?${q}`);
      const row = (r.json?.content?.deliveries as Array<{ delivery_id: string; attempt: number; trigger: string }> | undefined)?.find((d) => d.delivery_id === deliveryId);
      // The cause when it is not the event's first attempt: retry, manual_retry, replay, test.
      return row ? `${row.attempt}${row.trigger === 'event' ? '' : ` (${row.trigger})`}` : '?';
    } catch {
      return '?';
    }
  }

  /** Delivers again the events asked for, to this subscription (replayWebhookEvent). */
  async function replay(): Promise<void> {
    const events = new Map<string, string>();
    const wanted = new Set(options.events);
    const simulator = `${base}/__simulator/stores/${encodeURIComponent(store)}/events`;
    try {
      for (const id of options.replay) {
        if (id.startsWith('evt_')) {
          events.set(id, '');
          continue;
        }
        const r = await call(`${simulator}?${new URLSearchParams({ delivery_id: id })}`);
        const found = r.json?.content?.events?.[0];
        if (found) events.set(found.event_id, found.event);
        else err(`replay: ${String(r.json?.message ?? `delivery ${id} not found`)}`);
      }
      if (options.since !== undefined) {
        const r = await call(`${simulator}?${new URLSearchParams({ since: new Date(options.since).toISOString(), limit: '1000' })}`);
        if (r.status !== 200) {
          // E.g. a time before events the retention pruned: the message says what is kept and from when.
          err(`replay: the workbench refused the event list (HTTP ${r.status}): ${String(r.json?.message ?? '')}`);
          if (!events.size) return;
        }
        const listed = (r.json?.content?.events ?? []) as Array<{ event_id: string; event: string; is_test: boolean }>;
        for (const e of listed) if (!e.is_test && wanted.has(e.event)) events.set(e.event_id, e.event);
        if (r.json?.content?.has_more) err('replay: more than 1000 events since that time; replaying the first 1000 (give a later --replay-since)');
      }
    } catch (e) {
      err(`replay: could not reach the workbench (${networkReason(e)})`);
      return;
    }
    out(`Replaying ${events.size} event${events.size === 1 ? '' : 's'}${options.since !== undefined ? ` since ${new Date(options.since).toISOString()}` : ''} to ${subscription.id}.`);
    for (const eventId of events.keys()) {
      replayed.add(eventId);
      try {
        const r = await call(`${admin}/webhooks/${encodeURIComponent(subscription.id!)}/replay-event/${encodeURIComponent(eventId)}`, 'POST');
        if (r.status !== 202) err(`replay ${eventId}: refused (HTTP ${r.status}): ${String(r.json?.message ?? '')}`);
      } catch (e) {
        err(`replay ${eventId}: could not reach the workbench (${networkReason(e)})`);
      }
    }
  }
}

/** The whole body, or undefined past MAX_BODY_BYTES. */
async function readAll(req: http.IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}
