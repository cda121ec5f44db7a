// `storefront-contract webhooks <command>` (`npm run webhooks --`): talks to a running workbench (`storefront-contract mock`), whose simulator
// delivers the events. `trigger` POSTs to /__simulator/stores/{store_id}/events (outside the contract)
// and prints what was scheduled; `events` lists the catalog; `listen` (listen.ts) receives the deliveries here.
import { apiBaseUrl, basePathTemplate } from 'storefront-contract/contract';
import { parseArgs } from 'node:util';
import { UsageError } from '../cli-support.js';
import { MAX_JSON_DEPTH, inspectUserJson, isSafeKey } from '../http/object-paths.js';
import { webhookEvents } from './rules.js';

export const WEBHOOKS_HELP = `Usage: storefront-contract webhooks <command> [options]

Commands:
  trigger <event>        raise an event on a running workbench (storefront-contract mock); its subscriptions get signed deliveries
  events                 list the event names of the catalog (with family and marketplace scope)
  listen                 receive the workbench's deliveries here: print each, verify it, and with --forward-to <url>
                         send it on to your receiver, re-signed (storefront-contract webhooks listen --help)

Options of trigger:
  --store <id>           store id (default demo-store)
  --set <path=value>     override a property of the event's example, e.g. --set order_number=SO-1042
                         --set order_items.0.quantity=3 --set 'marketplace_listing=[{"marketplace_id":"mp-1", ...}]'
                         (path below payload.properties; the value is parsed as JSON when it is JSON, else a string:
                         --set 'order_number="5"' keeps a string; repeatable)
  --unset <path>         remove a property, e.g. --unset marketplace_listing (repeatable)
  --url <base>           workbench address (default http://127.0.0.1:4010, env WORKBENCH_URL)
  --json                 print the workbench's JSON answer as is
  --help                 this text

Environment: WORKBENCH_URL.

The /__simulator route is the simulator's own, outside the contract: a real service raises events itself.
Watch the attempts with GET ${basePathTemplate.admin}/webhooks/deliveries or in the workbench log.

Example:
  storefront-contract webhooks trigger order.created --store demo-store --set order_number=SO-1042`;

function usage(message: string): never {
  throw new UsageError(message);
}

/** `a.b.0.c=value` -> { a: { b: { "0": { c: value } } } } (index keys merge into arrays on the server). */
export function setPath(target: Record<string, unknown>, assignment: string): void {
  const eq = assignment.indexOf('=');
  if (eq <= 0) throw new Error(`--set needs path=value, got "${assignment}"`);
  const path = assignment.slice(0, eq).split('.');
  if (path.some((k) => k === '' || !isSafeKey(k))) throw new Error(`--set path "${assignment.slice(0, eq)}" is not a dotted property path (no empty segments, __proto__, constructor or prototype)`);
  const raw = assignment.slice(eq + 1);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    value = raw;
  }
  // The body nests it under {"properties": ...} and the path; the server refuses JSON past MAX_JSON_DEPTH.
  const room = MAX_JSON_DEPTH - 1 - path.length;
  if (inspectUserJson(value, room, 'depth-only')?.kind === 'too-deep') {
    throw new Error(`--set ${assignment.slice(0, Math.min(eq, 60))}: the value is nested too deep (an event body nests at most ${MAX_JSON_DEPTH} levels)`);
  }
  let here = target;
  for (const key of path.slice(0, -1)) {
    const next = here[key];
    if (next === undefined || next === null || typeof next !== 'object' || Array.isArray(next)) here[key] = {};
    here = here[key] as Record<string, unknown>;
  }
  here[path[path.length - 1]] = value;
}

async function trigger(positionals: string[], values: Record<string, unknown>): Promise<number> {
  const [event, ...extra] = positionals;
  if (!event) usage('trigger needs an event name, e.g. storefront-contract webhooks trigger order.created');
  if (extra.length) usage(`unexpected arguments: ${extra.join(' ')}`);
  const properties: Record<string, unknown> = {};
  try {
    for (const s of (values.set as string[] | undefined) ?? []) setPath(properties, s);
  } catch (e) {
    usage((e as Error).message);
  }
  const unset = (values.unset as string[] | undefined) ?? [];
  const base = String(values.url ?? process.env.WORKBENCH_URL ?? 'http://127.0.0.1:4010').replace(/\/+$/, '');
  const from = values.url !== undefined ? '--url' : process.env.WORKBENCH_URL !== undefined ? 'WORKBENCH_URL' : undefined;
  if (!/^https?:\/\/[^/]/.test(base) || !URL.canParse(base)) usage(`${from ?? '--url'} must be the workbench's http:// address, e.g. http://127.0.0.1:4010 (got "${base.slice(0, 80)}")`);
  const store = String(values.store ?? 'demo-store');
  const target = `${base}/__simulator/stores/${encodeURIComponent(store)}/events`;
  let res: Response;
  try {
    res = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event, ...(Object.keys(properties).length ? { properties } : {}), ...(unset.length ? { unset } : {}) }),
    });
  } catch (e) {
    const cause = (e as Error & { cause?: { code?: string; message?: string; errors?: Array<{ code?: string }> } }).cause;
    const why = cause?.code ?? cause?.errors?.[0]?.code ?? cause?.message ?? (e as Error).message;
    process.stderr.write(`Could not reach the workbench at ${base} (${why}). Start it with storefront-contract mock, or pass --url.\n`);
    return 1;
  }
  const text = await res.text();
  if (values.json) {
    process.stdout.write(`${text}\n`);
    return res.ok ? 0 : 1;
  }
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    process.stderr.write(`Unexpected answer from ${target}: HTTP ${res.status} ${text.slice(0, 300)}\n`);
    return 1;
  }
  if (res.status === 404 && res.headers.get('x-simulator') !== 'outside-contract') {
    process.stderr.write(`${base} answered 404 for the simulator route: is it a workbench with the webhook simulator (storefront-contract mock)?\n`);
    return 1;
  }
  if (!res.ok) {
    process.stderr.write(`Refused (HTTP ${res.status}): ${body?.message ?? text}\n`);
    for (const d of body?.content?.error?.details ?? []) process.stderr.write(`  ${d.name}: ${d.message}\n`);
    return 1;
  }
  const c = body.content;
  const lines = [`${c.event} ${c.event_id} raised in store ${c.store_id}`];
  if (!c.deliveries.length) lines.push(`  no enabled subscription of this store receives it (register one with POST ${basePathTemplate.admin}/webhooks)`);
  for (const d of c.deliveries) lines.push(`  -> ${d.webhook_id} ${d.url}  delivery ${d.delivery_id} scheduled`);
  for (const s of c.skipped) lines.push(`  skipped ${s.webhook_id}: ${s.reason}`);
  lines.push(`Follow the attempts: GET ${apiBaseUrl(base, 'admin', store)}/webhooks/deliveries?event_id=${c.event_id}`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

function listEvents(): number {
  const width = Math.max(...webhookEvents.map((e) => e.event.length));
  for (const e of webhookEvents) process.stdout.write(`${e.event.padEnd(width)}  ${e.family.padEnd(18)}${e.marketplaceScoped ? ' marketplace-scoped' : ''}\n`);
  return 0;
}

export async function runWebhooks(argv: string[]): Promise<number> {
  // listen has flags of its own (and loads the sender only when it runs).
  if (argv[0] === 'listen') return (await import('./listen.js')).runListen(argv.slice(1));
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        store: { type: 'string' },
        set: { type: 'string', multiple: true },
        unset: { type: 'string', multiple: true },
        url: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    usage((e as Error).message);
  }
  const [command, ...rest] = parsed.positionals;
  if (parsed.values.help || command === 'help') {
    process.stdout.write(`${WEBHOOKS_HELP}\n`);
    return 0;
  }
  if (command === 'trigger') return trigger(rest, parsed.values);
  if (command === 'events') return listEvents();
  usage(command ? `unknown command "${command}": use trigger, events or listen.` : 'a command is required: trigger <event>, events or listen.');
}
