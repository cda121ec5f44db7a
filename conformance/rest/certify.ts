// certify(): the whole run as a function (the CLI and the tests call it): load the recordings, start
// the embedded mock when no base URL is given, replay with the rules, build the certificate, write
// the reports.
import { randomBytes } from 'node:crypto';
import { createMockServer } from '../../workbench/mock/server.js';
import type { RestCertificate } from '../report/certificate.js';
import { writeReports } from '../report/write.js';
import type { Rule } from '../rules/model.js';
import { buildRestCertificate } from './certificate.js';
import { replay } from './engine.js';
import type { Exchange, ExchangeResult } from './exchange.js';
import { loadScenarios, trafficDir } from './load.js';
import { Secrets } from './secrets.js';

export interface CertifyOptions {
  /** Target; undefined: the embedded mock, started in process on a free port. */
  baseUrl?: string;
  apiKey?: string;
  storeId?: string;
  /** Values of other inputs declared in the bindings (cart_id, restricted_api_key, ...). */
  inputs?: Record<string, string>;
  only?: string[];
  concurrency?: number;
  trafficDir?: string;
  scenarios?: string[];
  /** Write the reports here; undefined: no files. */
  reportDir?: string;
  rules?: readonly Rule<Exchange>[];
  /** --strict: warnings (advice from designed rules included) count as errors. */
  strict?: boolean;
  onResult?: (result: ExchangeResult) => void;
}

export interface CertifyOutcome {
  certificate: RestCertificate;
  files: string[];
}

export const DEFAULT_STORE_ID = 'demo-store';

export async function certify(options: CertifyOptions): Promise<CertifyOutcome> {
  const scenarios = loadScenarios(options.trafficDir ?? trafficDir, options.scenarios);
  const embedded = options.baseUrl === undefined;
  const mock = embedded ? await createMockServer({ port: 0, quiet: true, strictAuth: true }) : undefined;
  try {
    const baseUrl = mock?.url ?? options.baseUrl!;
    const apiKey = options.apiKey ?? (embedded ? `sk_certify_${randomBytes(12).toString('hex')}` : undefined);
    if (!apiKey) throw new Error('--api-key is required with --base-url');
    const inputs: Record<string, string> = { ...(options.inputs ?? {}), api_key: apiKey };
    // The mock answers 403 for any well-formed key when asked (Prefer: code=403): give it one.
    if (embedded) inputs.restricted_api_key ??= `sk_certify_pos_${randomBytes(8).toString('hex')}`;
    const secrets = new Secrets();
    const concurrency = options.concurrency ?? 1;
    const run = await replay(scenarios, {
      baseUrl,
      storeId: options.storeId,
      inputs,
      concurrency,
      only: options.only,
      rules: options.rules,
      strict: options.strict,
      secrets,
      onResult: options.onResult,
    });
    const certificate = buildRestCertificate({
      run,
      scenarios,
      target: { url: baseUrl, storeId: options.storeId ?? scenarios[0]?.steps[0]?.recordedStoreId ?? DEFAULT_STORE_ID, embeddedMock: embedded },
      concurrency,
      only: options.only,
      strict: options.strict ?? false,
    });
    const files = options.reportDir ? writeReports(certificate, options.reportDir) : [];
    return { certificate, files };
  } finally {
    await mock?.close();
  }
}
