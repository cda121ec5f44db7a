// Command-line options of `storefront-contract certify`, checked with messages that say what to fix.
import { parseArgs } from 'node:util';
import { readSecret, UsageError } from '../../workbench/cli-support.js';
import { basePathTemplate } from 'storefront-contract/contract';
import { MAX_SHARDS, parseShard, type ShardSpec } from './shard.js';

export { UsageError };

/** Generated requests per operation that --all sends when --generate is not given. */
export const ALL_GENERATE = 10;

export const USAGE = `Usage: storefront-contract certify [options]
       storefront-contract certify merge <dir>... [--report-dir <dir>]

Replays the recorded storefront traffic against a live implementation and judges every exchange by the
contract's rules. Writes report.json (the certificate), junit.xml and report.html.

Options:
  --base-url <url>         the service root, e.g. https://api.example.com (the certifier adds
                           ${basePathTemplate.storefront}); without it the embedded workbench is certified
  --api-key <key>          the store API key of the target (env STOREFRONT_API_KEY; required with --base-url)
  --store-id <id>          the store to certify (default demo-store)
  --report-dir <dir>       where the reports go (default .reports/certify)
  --only <op,...>          certify only these operationIds
  --concurrency <n>        exchanges in flight (default 1, at most 256)
  --input <name>=<value>   a value the recorded traffic needs from your data (repeatable)
  --generate <n>           after the replay, send generated requests per operation: edge cases, <n> valid,
                           <n> that each break one constraint, and the credential variants (default 0;
                           ${ALL_GENERATE} with --all); a failure is shrunk and printed with a curl line
  --seed <n>               the generator's seed (printed in every report), to send the same cases again
  --shard <i>/<N>          send only part i of N of the run (whole scenarios, whole operations' generated
                           cases; the same split on every machine) and write shard-<i>-of-<N>.json for
                           certify merge; with --generate, give the same --seed to every shard
  --all                    also certify the workbench's webhook sender (REST and webhooks in one run)
  --from-har <file.har>    judge recorded traffic offline instead (a HAR 1.2 file: the proxy's --har,
                           record, a browser's export) by the rules that need no recording
  --from-log <file>        the same for an NDJSON access log, one exchange a line (the format:
                           docs/guides/certification.md, "Judge recorded traffic offline")
  --strict                 count warnings as errors: advice on designed parts of the contract then fails
  --quiet                  no progress lines
  --help                   this text

Environment: STOREFRONT_API_KEY. Secrets are never printed or written to a report.
Exit 0 when certified, 1 when not, 2 on a usage error or an unreachable target. A shard exits 0 when its
part passed, 1 when it did not; certify merge gives the verdict of the run.

Example:
  STOREFRONT_API_KEY=... storefront-contract certify --base-url https://staging.example.com --store-id my-store
  STOREFRONT_API_KEY=... storefront-contract certify --base-url ... --generate 100 --seed 7 --shard 2/4 --report-dir shard-2`;

export interface CliOptions {
  baseUrl?: string;
  apiKey?: string;
  storeId?: string;
  reportDir: string;
  only?: string[];
  /** Also certify the workbench's webhook simulator as a sender (REST + webhooks in one run). */
  all?: boolean;
  /** Warnings count as errors. */
  strict: boolean;
  /** Generated valid and invalid requests per operation (0: no generative phase). */
  generate: number;
  seed?: number;
  /** --shard i/N: this part of the run only. */
  shard?: ShardSpec;
  concurrency: number;
  inputs: Record<string, string>;
  quiet: boolean;
  help: boolean;
  /** Judge a HAR file or an NDJSON access log offline instead of replaying. */
  fromFile?: { format: 'har' | 'log'; file: string };
}

export function parseCliArgs(argv: string[], knownOperations: string[], warn: (line: string) => void = () => {}): CliOptions {
  let values: Record<string, string | string[] | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        'base-url': { type: 'string' },
        'api-key': { type: 'string' },
        'store-id': { type: 'string' },
        'report-dir': { type: 'string' },
        only: { type: 'string' },
        concurrency: { type: 'string' },
        input: { type: 'string', multiple: true },
        all: { type: 'boolean' },
        generate: { type: 'string' },
        seed: { type: 'string' },
        shard: { type: 'string' },
        strict: { type: 'boolean' },
        quiet: { type: 'boolean', short: 'q' },
        help: { type: 'boolean', short: 'h' },
        'from-har': { type: 'string' },
        'from-log': { type: 'string' },
      },
    }));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const fromFile = offlineSource(values);
  const baseUrl = values['base-url'] as string | undefined;
  if (baseUrl !== undefined) {
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      throw new UsageError(`--base-url ${baseUrl} is not a URL (e.g. https://api.example.com)`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--base-url must be http or https, not ${url.protocol}`);
    const prefix = /\/api\/v\d+(\/|$)/.exec(url.pathname);
    if (prefix) {
      const root = `${url.origin}${url.pathname.slice(0, prefix.index)}`;
      throw new UsageError(`--base-url ${baseUrl} already holds the API path; give the service root (--base-url ${root}): the certifier adds ${basePathTemplate.storefront} itself`);
    }
  }
  const apiKey = readSecret(values['api-key'] as string | undefined, 'api-key', 'STOREFRONT_API_KEY', warn).value;
  if (baseUrl !== undefined && !apiKey) throw new UsageError('--base-url needs the store API key of the target: set STOREFRONT_API_KEY (or pass --api-key)');
  const concurrency = values.concurrency === undefined ? 1 : Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256) throw new UsageError(`--concurrency must be an integer from 1 to 256, not ${values.concurrency}`);
  const generate = values.generate === undefined ? (values.all === true ? ALL_GENERATE : 0) : Number(values.generate);
  if (!Number.isInteger(generate) || generate < 0 || generate > 10_000) throw new UsageError(`--generate must be an integer from 0 to 10000 (requests per operation), not ${values.generate}`);
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && (!Number.isInteger(seed) || seed < 0 || seed >= 2 ** 31)) throw new UsageError(`--seed must be an integer from 0 to 2147483647 (the seed a report printed), not ${values.seed}`);
  if (seed !== undefined && generate === 0) throw new UsageError('--seed needs --generate <n>: it seeds the generated requests');
  const shardText = values.shard as string | undefined;
  const shard = shardText === undefined ? undefined : parseShard(shardText);
  if (shardText !== undefined && !shard) throw new UsageError(`--shard ${shardText} is not i/N with 1 <= i <= N <= ${MAX_SHARDS} (e.g. --shard 2/4: the second of four parts)`);
  if (shard && values.all === true) throw new UsageError('--shard does not combine with --all: shard the REST run, and certify the webhook sender in a job of its own (certify-webhooks sender)');
  if (shard && generate > 0 && seed === undefined) throw new UsageError('--shard with --generate needs --seed <n>, the same in every shard, so that all shards generate the cases of one run (e.g. --seed $GITHUB_RUN_NUMBER)');
  const only = values.only ? String(values.only).split(',').map((s) => s.trim()).filter(Boolean) : undefined;
  for (const op of only ?? []) {
    if (!knownOperations.includes(op)) throw new UsageError(`--only: ${op} is not a storefront operationId (known: ${knownOperations.join(', ')})`);
  }
  const inputs: Record<string, string> = {};
  for (const pair of (values.input as string[] | undefined) ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--input ${pair}: expected <name>=<value>`);
    inputs[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return {
    baseUrl: baseUrl?.replace(/\/+$/, ''),
    apiKey,
    storeId: values['store-id'] as string | undefined,
    reportDir: (values['report-dir'] as string | undefined) ?? '.reports/certify',
    only,
    concurrency,
    inputs,
    all: values.all === true,
    generate,
    seed,
    shard,
    strict: values.strict === true,
    quiet: values.quiet === true,
    help: values.help === true,
    ...(fromFile ? { fromFile } : {}),
  };
}

/** Flags that mean nothing when judging a file: the traffic is already there. */
const REPLAY_ONLY = ['base-url', 'api-key', 'only', 'concurrency', 'input', 'all', 'generate', 'seed'];

/** `--from-har` / `--from-log`, checked against the flags of a replay. */
function offlineSource(values: Record<string, unknown>): CliOptions['fromFile'] {
  const har = values['from-har'] as string | undefined;
  const log = values['from-log'] as string | undefined;
  if (har === undefined && log === undefined) return undefined;
  if (har !== undefined && log !== undefined) throw new UsageError('--from-har and --from-log: give one file per run (certify it twice for two files)');
  const flag = har !== undefined ? '--from-har' : '--from-log';
  const file = (har ?? log)!;
  if (file === '') throw new UsageError(`${flag} is empty; give the file to judge`);
  const clash = REPLAY_ONLY.find((name) => values[name] !== undefined);
  if (clash) throw new UsageError(`${flag} judges recorded traffic, nothing is sent: leave out --${clash}`);
  return { format: har !== undefined ? 'har' : 'log', file };
}
