// `storefront-contract mock` (and `npm start`): the workbench on 127.0.0.1:4010. Parses flags, starts
// createWorkbench, prints where everything is, and shuts down cleanly on SIGINT/SIGTERM.
import { DATABASE_FILE, DataDirRefused, StoreVersionError } from './store/database.js';
import { storeFailureCode } from './store/failure.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { basePathTemplate } from 'storefront-contract/contract';
import { parseArgs } from 'node:util';
import { integerOption, readSecret, stopSignal, UsageError } from './cli-support.js';
import { TOOLS_CACHE } from './contract/cache-dir.js';
import { CACHE_ENV } from './contract/document-cache.js';
import { createWorkbench } from './index.js';
import type { AgentToolFactory } from './agents/index.js';
import { FaultRuleError, MAX_DELAY_MS, parseFaultFlag, type StartRule } from './mock/faults.js';
import { FixtureError } from './sandbox/fixtures.js';
import { JournalReadError } from './sandbox/journal.js';
import { ClockError } from './clock/clocks.js';
import { parseTimeScale } from './simulator/index.js';
import { parseRetention, type Retention } from './simulator/retention.js';

/** File-system refusals of a --data-dir (a file, a path under a file, no permission, a read-only disk). */
const DATA_DIR_REFUSALS = new Set(['EEXIST', 'ENOENT', 'ENOTDIR', 'EISDIR', 'EACCES', 'EPERM', 'EROFS']);

export const MOCK_HELP = `Usage: storefront-contract mock [options]

The workbench: the storefront API on its real paths (${basePathTemplate.storefront}/...) answered by a
stateful sandbox (a seeded world per store: catalog, customers, carts, orders, coupons), the live Admin
webhook API with the webhook simulator (${basePathTemplate.admin}/webhooks...), the sandbox's back office
under /__simulator/stores/{store_id}/... (outside the contract), /docs, and the console at /console (one
page: the live request log, the world, webhooks and their attempts, events, the back office's buttons).

Options:
  --port <n>             port (env PORT, default 4010; 0 = any free port)
  --host <addr>          interface (default 127.0.0.1)
  --data-dir <dir>       keep every store's state there, across restarts, in one database (workbench.sqlite):
                         the sandbox's writes, clocks, webhook subscriptions, events, pending retries and the
                         delivery log (default: in memory, lost on exit). A 0.2.x directory is upgraded once
  --seed <n|word>        seed of the sandbox's worlds: the same seed gives the same data (default 1)
  --data <dir>           fixture files replacing seeded resources (products.json, categories.json,
                         customers.json, carts.json, orders.json, countries.json, customer-groups.json,
                         coupons.json, locations.json), validated against the spec's schemas at start
  --api-key <key>        the only store API key accepted, for every store (env STOREFRONT_API_KEY). Default:
                         each store opens with its own sandbox test key (demo-store's is printed at start;
                         any store's: GET /__simulator/stores/{store_id}/keys), the same on every run of a seed
  --any-api-key          accept any well-formed store API key (so does --lenient-auth)
  --admin-token <token>  the only Admin API bearer token accepted (env STOREFRONT_ADMIN_TOKEN; default: any)
  --max-worlds <n>       store worlds held in memory, least recently used dropped and rebuilt from seed
                         plus journal when next used (about 1.5 MB each; default 64)
  --lenient-auth         accept any well-formed bearer token and store API key (default: only tokens issued by
                         POST /auth/anonymous, only the store's own key)
  --strict-auth          only tokens issued by POST /auth/anonymous (the default; kept for scripts)
  --token-lifetime <s>   seconds an issued access token is accepted, on its store's clock (default 86400;
                         POST /__simulator/stores/{id}/clock moves a store's clock past it)
  --ownership <mode>     who reads a customer's cards, orders and carts: open (default: any token of the
                         store) or strict (only a token bound to that customer: the one that created it
                         with POST /customers, or POST /__simulator/stores/{id}/customers/{id}/sign-in)
  --no-sandbox           answer every storefront operation from the spec's examples (the plain mock)
  --dynamic              Prism dynamic bodies instead of the named examples (turns the sandbox off)
  --max-body-bytes <n>   reject bodies larger than this with 413 (default 1048576)
  --spec <file>          storefront document (default: the package's spec/openapi/storefront.yaml)
  --admin-spec <file>    admin document (default: the package's spec/openapi/admin.yaml)
  --time-scale <x>       multiply webhook retry delays and the time-out (env WEBHOOK_TIME_SCALE; 0.01 = 100x faster)
  --deny-private         refuse loopback, private, link-local and metadata webhook receiver addresses
  --webhook-retention <days=30,events=10000,unreceived=1000>
                         webhook history kept per store (any subset of the keys): events and their delivery
                         log younger than days (store clock), at most the newest events sent to a subscription
                         and the newest unreceived ones (no subscription got them; kept for replays); older
                         ones are pruned, never an attempt still scheduled or in flight
  --fault <rule>         inject a fault in every store (repeatable): <operationId|*>:<key>=<value>,...
                         keys: delay=800 or delay=100..900 (ms, at most ${MAX_DELAY_MS}), status=404 (one the
                         operation documents, unless allow_undocumented), drop (close without an answer),
                         rate=0.3 (share of requests), times=5, seed=S (reproducible draws), store=ID (one
                         store); e.g. --fault 'listProducts:delay=200..1500,rate=0.5'. Rules are listed and
                         changed at /__simulator/stores/{store_id}/faults; answers they change carry
                         X-Sandbox-Fault and are marked in the log
  --quiet                no request log
  --help                 this text

Environment: PORT, STOREFRONT_API_KEY, STOREFRONT_ADMIN_TOKEN, WEBHOOK_TIME_SCALE. Secrets are never printed;
the one key printed at start is demo-store's sandbox test key, made to be shared (derived from the seed).
${CACHE_ENV}: where parsed documents are cached by content (default
${path.posix.join('node_modules', TOOLS_CACHE)}, or ~/${TOOLS_CACHE} outside a project; off to turn it off).

Per request: "Prefer: code=404", "Prefer: example=<Name>", "Prefer: dynamic=true" answer from the spec's
examples (the sandbox steps aside for that request); "Prefer: delay=800" waits 800 ms before the answer,
whoever gives it (at most ${MAX_DELAY_MS}; it replaces a fault rule's delay for that request).

Example:
  STOREFRONT_ADMIN_TOKEN=dev-admin storefront-contract mock --port 4010 --data-dir .workbench --time-scale 0.01 --seed 7`;

export interface MockCliOptions {
  /** Agent tools added to /mcp's (the CLI adds certification's). */
  agentTools?: readonly AgentToolFactory[];
}

export async function runMock(argv: string[], options: MockCliOptions = {}): Promise<number> {
  const warn = (line: string) => process.stderr.write(`${line}\n`);
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      dynamic: { type: 'boolean' },
      'strict-auth': { type: 'boolean' },
      'lenient-auth': { type: 'boolean' },
      'any-api-key': { type: 'boolean' },
      ownership: { type: 'string' },
      'no-sandbox': { type: 'boolean' },
      seed: { type: 'string' },
      data: { type: 'string' },
      'api-key': { type: 'string' },
      'admin-token': { type: 'string' },
      'max-body-bytes': { type: 'string' },
      spec: { type: 'string' },
      'admin-spec': { type: 'string' },
      quiet: { type: 'boolean' },
      'data-dir': { type: 'string' },
      'time-scale': { type: 'string' },
      'token-lifetime': { type: 'string' },
      'deny-private': { type: 'boolean' },
      'webhook-retention': { type: 'string' },
      'max-worlds': { type: 'string' },
      'compact-after': { type: 'string' },
      fault: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${MOCK_HELP}\n`);
    return 0;
  }
  const port = integerOption('port', values.port ?? process.env.PORT, 4010, 65535, values.port === undefined ? 'PORT' : '--port');
  const maxBodyBytes = integerOption('max-body-bytes', values['max-body-bytes'], 1024 * 1024);
  if (values['any-api-key'] && (values['api-key'] !== undefined || process.env.STOREFRONT_API_KEY)) {
    throw new UsageError(`--any-api-key and ${values['api-key'] === undefined ? 'STOREFRONT_API_KEY (set in the environment)' : '--api-key'} contradict each other: a key given is the only one accepted; drop one.`);
  }
  const apiKey = readSecret(values['api-key'], 'api-key', 'STOREFRONT_API_KEY', warn).value;
  const adminToken = readSecret(values['admin-token'], 'admin-token', 'STOREFRONT_ADMIN_TOKEN', warn).value;
  if (values['strict-auth'] && values['lenient-auth']) throw new UsageError('--strict-auth and --lenient-auth contradict each other; give one (strict is the default).');
  const maxWorlds = values['max-worlds'] === undefined ? undefined : integerOption('max-worlds', values['max-worlds'], 64, 1_000_000);
  if (maxWorlds === 0) throw new UsageError('--max-worlds must be at least 1 (the world a request is answered from is held).');
  // An empty value (`--data-dir "$DIR"` with DIR unset) ran in memory, silently: nothing was kept.
  if (values['data-dir'] !== undefined && values['data-dir'].trim() === '') throw new UsageError('--data-dir is empty: give the directory to keep the data in (created if missing), or drop --data-dir to run in memory.');
  if (values['compact-after'] !== undefined) throw new UsageError('--compact-after was removed in 0.3: writes are kept in workbench.sqlite, which needs no compaction; drop the flag.');
  const tokenLifetime = values['token-lifetime'] === undefined ? undefined : integerOption('token-lifetime', values['token-lifetime'], 86_400, 10 * 365 * 86_400);
  if (tokenLifetime === 0) throw new UsageError('--token-lifetime must be at least 1 second.');
  const seed = values.seed;
  if (seed !== undefined && !/^[A-Za-z0-9._-]{1,64}$/.test(seed)) throw new UsageError(`--seed must be a number or a word (letters, digits, . _ -), got "${seed}".`);
  for (const flag of ['spec', 'admin-spec'] as const) {
    const file = values[flag];
    if (file !== undefined && !existsSync(file)) throw new UsageError(`--${flag} ${file}: no such file; give the path of an OpenAPI document (YAML or JSON).`);
  }
  const sandboxOff = values['no-sandbox'] === true || values.dynamic === true || values.spec !== undefined;
  const ownership = values.ownership;
  if (ownership !== undefined && ownership !== 'open' && ownership !== 'strict') throw new UsageError(`--ownership is open or strict, got "${ownership.slice(0, 40)}".`);
  if (sandboxOff && (seed !== undefined || values.data !== undefined || values['lenient-auth'] || values['any-api-key'] || ownership !== undefined || maxWorlds !== undefined || tokenLifetime !== undefined)) {
    const why = values['no-sandbox'] ? '--no-sandbox' : values.dynamic ? '--dynamic' : '--spec';
    throw new UsageError(`--seed, --data, --lenient-auth, --any-api-key, --ownership, --max-worlds and --token-lifetime configure the sandbox, which ${why} turns off (it accepts any well-formed key unless --api-key); drop one of them.`);
  }
  const faults: StartRule[] = (values.fault ?? []).map((text) => {
    try {
      return { ...parseFaultFlag(text), source: text };
    } catch (e) {
      throw faultUsage(e, text);
    }
  });
  let timeScale: number | undefined;
  try {
    timeScale = parseTimeScale(values['time-scale'] ?? process.env.WEBHOOK_TIME_SCALE);
  } catch (e) {
    throw new UsageError(`${values['time-scale'] === undefined ? 'WEBHOOK_TIME_SCALE' : '--time-scale'}: ${(e as Error).message}.`);
  }
  let retention: Retention | undefined;
  try {
    retention = values['webhook-retention'] === undefined ? undefined : parseRetention(values['webhook-retention']);
  } catch (e) {
    throw new UsageError(`--webhook-retention: ${(e as Error).message}.`);
  }

  const server = await createWorkbench({
    mcp: { extraTools: options.agentTools },
    faults,
    webhooks: {
      dataDir: values['data-dir'],
      timeScale,
      denyPrivate: values['deny-private'] === true,
      retention,
      adminTokens: adminToken ? [adminToken] : undefined,
      log: values.quiet ? undefined : (line) => process.stderr.write(`${line}\n`),
    },
    sandbox: sandboxOff
      ? false
      : {
          seed: seed === undefined ? undefined : /^\d+$/.test(seed) ? Number(seed) : seed,
          dataDir: values['data-dir'],
          fixturesDir: values.data,
          lenientAuth: values['lenient-auth'] === true,
          apiKeyMode: values['any-api-key'] ? 'any' : undefined,
          ownership,
          maxWorlds,
          tokenLifetimeSeconds: tokenLifetime,
        },
    port,
    host: values.host ?? '127.0.0.1',
    dynamic: values.dynamic === true,
    strictAuth: values['strict-auth'] === true,
    apiKeys: apiKey ? [apiKey] : undefined,
    maxBodyBytes,
    quiet: values.quiet === true,
    specs: { storefront: values.spec, admin: values['admin-spec'] },
  }).catch((e: unknown) => {
    // A data dir the sandbox cannot start from: one line naming the file, the line and the fix (exit 2).
    if (e instanceof JournalReadError) throw new UsageError(`--data-dir ${values['data-dir']}: ${e.message}`);
    // A clocks.json it cannot take (hand-edited): its message names the file, the store, the field and the fix.
    if (e instanceof ClockError) throw new UsageError(`--data-dir ${values['data-dir']}: ${e.message}`);
    // A database written by a newer workbench.
    if (e instanceof StoreVersionError) throw new UsageError(`--data-dir ${values['data-dir']}: ${e.message}`);
    // Served by another workbench already, or a database that is a symbolic link.
    if (e instanceof DataDirRefused) throw new UsageError(`--data-dir ${values['data-dir']}: ${e.message}`);
    // A workbench.sqlite SQLite cannot open or read (not a database, damaged, read-only, disk full).
    const sqlite = values['data-dir'] !== undefined ? storeFailureCode(e) : undefined;
    if (sqlite) {
      throw new UsageError(`--data-dir ${values['data-dir']}: cannot use its database ${DATABASE_FILE} (${sqlite}: ${(e as Error).message.split('\n')[0].slice(0, 200)}); restore it from a backup, free disk space, or move the data directory away to start afresh.`);
    }
    // Fixtures (--data) that cannot be loaded: the message names the file, the record and the field (exit 2).
    if (e instanceof FixtureError) throw new UsageError(e.message);
    // A data dir that is a file, lies under one, or cannot be written: the file system's refusal, in one line.
    const code = (e as NodeJS.ErrnoException | undefined)?.code;
    if (values['data-dir'] !== undefined && code && DATA_DIR_REFUSALS.has(code)) {
      throw new UsageError(`--data-dir ${values['data-dir']}: cannot keep data there (${code} on ${(e as NodeJS.ErrnoException).path ?? 'it'}); give a directory this user can create and write, or drop --data-dir.`);
    }
    throw e instanceof FaultRuleError ? faultUsage(e, e.source) : e;
  });

  const modes = [
    server.sandbox ? 'sandbox' : 'examples only',
    (server.sandbox ? !values['lenient-auth'] : values['strict-auth']) && 'strict auth',
    ownership === 'strict' && 'strict ownership',
    values.dynamic && 'dynamic',
    apiKey && 'API key required',
  ].filter(Boolean);
  // Listening for SIGINT/SIGTERM before the banner says it listens: a supervisor that stops it on seeing the
  // banner gets a clean close (the data directory's lock released), not node's default death by the signal.
  const stop = stopSignal();
  process.stdout.write([`Mock workbench listening on ${server.url}${modes.length ? ` (${modes.join(', ')})` : ''}`, ...server.describe(), ''].join('\n'));

  const signal = await stop.received;
  process.stderr.write(`mock: ${signal} received, closing\n`);
  await server.close().catch(() => {});
  return 0;
}

/** A --fault rule that cannot be taken, as one usage line naming it. */
function faultUsage(error: unknown, text: string): Error {
  if (!(error instanceof FaultRuleError)) return error as Error;
  return new UsageError(`--fault ${JSON.stringify(text.slice(0, 120))}: ${error.message}`);
}
