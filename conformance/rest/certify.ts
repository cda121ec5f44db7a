// certify(): the whole run as a function (the CLI and the tests call it): load the recordings, start
// the embedded mock when no base URL is given, replay with the rules, build the certificate, write
// the reports.
import { randomBytes } from 'node:crypto';
import { createMockServer } from '../../workbench/mock/server.js';
import { buildCertificate, type Certificate } from './certificate.js';
import { replay } from './engine.js';
import { loadScenarios, trafficDir } from './load.js';
import { writeReports } from '../report/write.js';
import { Secrets } from './secrets.js';
import type { ExchangeResult, Rule } from './types.js';

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
  rules?: Rule[];
  onResult?: (result: ExchangeResult) => void;
}

export interface CertifyOutcome {
  certificate: Certificate;
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
      secrets,
      onResult: options.onResult,
    });
    const certificate = buildCertificate({
      run,
      scenarios,
      target: { baseUrl, storeId: options.storeId ?? scenarios[0]?.steps[0]?.recordedStoreId ?? DEFAULT_STORE_ID, embeddedMock: embedded },
      concurrency,
      only: options.only,
    });
    const files = options.reportDir ? writeReports(certificate, options.reportDir) : [];
    return { certificate, files };
  } finally {
    await mock?.close();
  }
}
