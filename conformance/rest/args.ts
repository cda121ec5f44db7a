// Command-line options of `npm run certify`, checked with messages that say what to fix.
import { parseArgs } from 'node:util';

export const USAGE = `usage: npm run certify -- [--base-url <url> --api-key <key>] [--store-id <id>] [--report-dir <dir>]
                          [--only <operationId,...>] [--concurrency <n>] [--input <name>=<value>]... [--all] [--strict] [--quiet]
  Without --base-url the embedded mock is started in process and certified.
  --strict counts warnings as errors: advice from rules on designed parts of the contract then fails.
  Exit 0 when certified, 1 when not, 2 on a usage error or an unreachable target.`;

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
  concurrency: number;
  inputs: Record<string, string>;
  quiet: boolean;
  help: boolean;
}

export class UsageError extends Error {}

export function parseCliArgs(argv: string[], knownOperations: string[]): CliOptions {
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
        strict: { type: 'boolean' },
        quiet: { type: 'boolean', short: 'q' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const baseUrl = values['base-url'] as string | undefined;
  if (baseUrl !== undefined) {
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      throw new UsageError(`--base-url ${baseUrl} is not a URL (e.g. https://api.example.com)`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--base-url must be http or https, not ${url.protocol}`);
    if (!values['api-key']) throw new UsageError('--api-key is required with --base-url (the store API key of the target)');
  }
  const concurrency = values.concurrency === undefined ? 1 : Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256) throw new UsageError(`--concurrency must be an integer from 1 to 256, not ${values.concurrency}`);
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
    apiKey: values['api-key'] as string | undefined,
    storeId: values['store-id'] as string | undefined,
    reportDir: (values['report-dir'] as string | undefined) ?? '.reports/certify',
    only,
    concurrency,
    inputs,
    all: values.all === true,
    strict: values.strict === true,
    quiet: values.quiet === true,
    help: values.help === true,
  };
}
