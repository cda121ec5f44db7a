// Command-line options of `storefront-contract certify-webhooks`, checked with messages that say what to fix.
// Secrets may come from the environment instead of argv (argv is visible to other local users).
import { parseArgs } from 'node:util';
import { webhookEventNames } from 'storefront-contract/validators';
import { UsageError } from '../../workbench/cli-support.js';

export { UsageError };

export const USAGE = `Usage: storefront-contract certify-webhooks sender [--admin-url <url> [--store <id>]] [--port <n>]
                                   [--time-scale <f>] [--event <name>] [--expect-header <Name>=<value>]...
                                   [--tolerance-ms <ms>] [--quiet-ms <ms>] [--wait-ms <ms>] [--report-dir <dir>] [--strict]
       storefront-contract certify-webhooks receiver --url <subscriber-url> [--probe-url <url>]
                                   [--oversize-bytes <n>] [--report-dir <dir>] [--strict]
  sender:   listens as a subscriber on 127.0.0.1 and certifies what the sender delivers. With --admin-url it
            registers itself through the Admin API and raises events; without, pass --secret and raise
            events on the sender by hand when asked.
  receiver: sends valid, hostile, duplicate, out-of-order, test and oversized deliveries to the endpoint.
  --strict counts warnings as errors: advice from rules on designed parts of the contract then fails.
  --help    this text

Environment: WEBHOOK_SECRET (the signing secret; --secret also works), STOREFRONT_ADMIN_TOKEN (the Admin
API token with --admin-url; --admin-token also works). Secrets are never printed or written to a report.
Exit 0 when certified, 1 when not, 2 on a usage error or an unreachable target.

Examples:
  STOREFRONT_ADMIN_TOKEN=... storefront-contract certify-webhooks sender --admin-url http://127.0.0.1:4010 --time-scale 0.01
  WEBHOOK_SECRET=... storefront-contract certify-webhooks receiver --url http://127.0.0.1:3000/webhooks`;

export interface SenderArgs {
  command: 'sender';
  adminUrl?: string;
  adminToken?: string;
  store?: string;
  port: number;
  secret?: string;
  timeScale?: number;
  event: string;
  expectHeaders: Record<string, string>;
  toleranceMs?: number;
  quietMs?: number;
  waitMs?: number;
  reportDir: string;
  /** Warnings count as errors. */
  strict?: boolean;
}

export interface ReceiverArgs {
  command: 'receiver';
  url: string;
  secret: string;
  probeUrl?: string;
  oversizeBytes?: number;
  reportDir: string;
  /** Warnings count as errors. */
  strict?: boolean;
}

export type WebhookCliArgs = SenderArgs | ReceiverArgs | { command: 'help' };

function number(name: string, raw: unknown, check: (n: number) => boolean, what: string): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || !check(n)) throw new UsageError(`--${name} must be ${what}, not ${String(raw)}`);
  return n;
}

function httpUrl(name: string, raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new UsageError(`--${name} ${raw} is not a URL (e.g. http://127.0.0.1:4010)`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`--${name} must be http or https, not ${u.protocol}`);
  return raw;
}

export function parseWebhookArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): WebhookCliArgs {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') return { command: 'help' };
  // `sender --help`, `receiver -h`: the help, as every other command gives it.
  if (rest.includes('--help') || rest.includes('-h')) return { command: 'help' };
  if (command !== 'sender' && command !== 'receiver') throw new UsageError(`unknown command "${command}": use sender or receiver`);
  let values: Record<string, string | string[] | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        'admin-url': { type: 'string' },
        'admin-token': { type: 'string' },
        store: { type: 'string' },
        port: { type: 'string' },
        secret: { type: 'string' },
        'time-scale': { type: 'string' },
        event: { type: 'string' },
        'expect-header': { type: 'string', multiple: true },
        'tolerance-ms': { type: 'string' },
        'quiet-ms': { type: 'string' },
        'wait-ms': { type: 'string' },
        url: { type: 'string' },
        'probe-url': { type: 'string' },
        'oversize-bytes': { type: 'string' },
        'report-dir': { type: 'string' },
        strict: { type: 'boolean' },
      },
    }));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const secret = (values.secret as string | undefined) ?? env.WEBHOOK_SECRET ?? env.CERTIFY_WEBHOOK_SECRET;
  const reportDir = (values['report-dir'] as string | undefined) ?? `.reports/certify-webhooks-${command}`;

  if (command === 'receiver') {
    if (!values.url) throw new UsageError('receiver: --url <subscriber endpoint> is required');
    if (!secret) throw new UsageError('receiver needs the signing secret the receiver verifies with: set WEBHOOK_SECRET (or pass --secret)');
    return {
      command,
      url: httpUrl('url', values.url as string),
      secret,
      probeUrl: values['probe-url'] === undefined ? undefined : httpUrl('probe-url', values['probe-url'] as string),
      oversizeBytes: number('oversize-bytes', values['oversize-bytes'], (n) => Number.isInteger(n) && n > 0, 'a positive integer'),
      reportDir,
      strict: values.strict === true,
    };
  }

  const adminUrl = values['admin-url'] === undefined ? undefined : httpUrl('admin-url', values['admin-url'] as string);
  const adminToken = (values['admin-token'] as string | undefined) ?? env.STOREFRONT_ADMIN_TOKEN ?? env.CERTIFY_ADMIN_TOKEN;
  if (adminUrl && !adminToken) throw new UsageError('sender with --admin-url needs the Admin API token: set STOREFRONT_ADMIN_TOKEN (or pass --admin-token)');
  if (!adminUrl && !secret) throw new UsageError('sender: give --admin-url with STOREFRONT_ADMIN_TOKEN (the certifier registers itself), or WEBHOOK_SECRET (you register it on the sender)');
  const event = (values.event as string | undefined) ?? 'order.created';
  if (!webhookEventNames.includes(event)) throw new UsageError(`--event ${event} is not an event of the contract (see GET /webhooks/event-types)`);
  const expectHeaders: Record<string, string> = {};
  for (const pair of (values['expect-header'] as string[] | undefined) ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--expect-header ${pair.split('=')[0]}: expected <Name>=<value>`);
    expectHeaders[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return {
    command,
    adminUrl,
    adminToken,
    store: values.store as string | undefined,
    port: number('port', values.port, (n) => Number.isInteger(n) && n >= 0 && n <= 65535, 'a port number (0 picks a free one)') ?? 0,
    secret,
    timeScale: number('time-scale', values['time-scale'], (n) => n > 0, 'a positive number (1 = real time, 0.01 = 100x faster)'),
    event,
    expectHeaders,
    toleranceMs: number('tolerance-ms', values['tolerance-ms'], (n) => n >= 0, 'a number of ms >= 0'),
    quietMs: number('quiet-ms', values['quiet-ms'], (n) => n > 0, 'a number of ms > 0'),
    waitMs: number('wait-ms', values['wait-ms'], (n) => n > 0, 'a number of ms > 0'),
    reportDir,
    strict: values.strict === true,
  };
}
