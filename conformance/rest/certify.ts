// certify(): the whole run as a function (the CLI and the tests call it): load the recordings, start
// the embedded mock when no base URL is given, replay with the rules, build the certificate, write
// the reports.
import { randomBytes, randomInt } from 'node:crypto';
import { createMockServer } from '../../workbench/mock/server.js';
import type { RestCertificate } from '../report/certificate.js';
import { writeReports } from '../report/write.js';
import type { Rule } from '../rules/model.js';
import { buildRestCertificate } from './certificate.js';
import { replay, type ReplayRun } from './engine.js';
import { restRules } from '../rules/rest/index.js';
import { RuleTally } from '../rules/run.js';
import { createDispatcher } from './http.js';
import { apiBaseUrl, basePath } from 'storefront-contract/contract';
import { documents } from '../../workbench/contract/files.js';
import type { CaseCounts } from './generate/phase.js';
import type { Exchange, ExchangeResult, LiveResponse } from './exchange.js';
import type { OutgoingRequest } from './bindings.js';
import type { Step } from './load.js';
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
  /** The generative phase: this many valid and this many invalid requests per operation (0: none). */
  generate?: number;
  /** The generative phase's seed (printed in every report); default a random one. */
  seed?: number;
}

export interface CertifyOutcome {
  certificate: RestCertificate;
  files: string[];
}

export const DEFAULT_STORE_ID = 'demo-store';

export async function certify(options: CertifyOptions): Promise<CertifyOutcome> {
  const scenarios = loadScenarios(options.trafficDir ?? trafficDir, options.scenarios);
  const embedded = options.baseUrl === undefined;
  const apiKey = options.apiKey ?? (embedded ? `sk_certify_${randomBytes(12).toString('hex')}` : undefined);
  const inputs: Record<string, string> = { ...(options.inputs ?? {}), ...(apiKey ? { api_key: apiKey } : {}) };
  // The mock answers 403 for any well-formed key when asked (Prefer: code=403): give it one.
  if (embedded) inputs.restricted_api_key ??= `sk_certify_pos_${randomBytes(8).toString('hex')}`;
  // Only the run's own keys open the embedded mock, as a store's keys open a real server.
  const mock = embedded ? await createMockServer({ port: 0, quiet: true, strictAuth: true, apiKeys: [apiKey!, inputs.restricted_api_key] }) : undefined;
  try {
    const baseUrl = mock?.url ?? options.baseUrl!;
    if (!apiKey) throw new Error('--api-key is required with --base-url');
    const secrets = new Secrets();
    const concurrency = options.concurrency ?? 1;
    const rules = options.rules ?? restRules;
    const tally = new RuleTally(rules, { strict: options.strict });
    const storeId = options.storeId ?? scenarios[0]?.steps[0]?.recordedStoreId ?? DEFAULT_STORE_ID;
    const generation = options.generate ? await prepareGeneration(baseUrl, storeId, apiKey, secrets) : undefined;
    // The generative phase reuses the replay's connections (and its session's ids); alone, the replay has its own pool.
    const dispatcher = generation ? createDispatcher(Math.max(concurrency, 4)) : undefined;
    let run: ReplayRun;
    let generated: RestCertificate['generation'];
    try {
      run = await replay(scenarios, {
        baseUrl,
        storeId: options.storeId,
        inputs,
        concurrency,
        only: options.only,
        rules: options.rules,
        strict: options.strict,
        secrets,
        onResult: options.onResult,
        tally,
        dispatcher,
        onExchange: generation?.learnFromReplay,
      });
      if (generation) {
        const { generate } = await import('./generate/phase.js');
        const gen = await generate({
          operations: generation.operations,
          count: options.generate!,
          seed: options.seed ?? randomInt(2 ** 31),
          target: generation.target,
          world: generation.world,
          rules: rules.filter((r) => GENERATED_CASE_RULES.has(r.id)),
          tally,
          policy: { strict: options.strict },
          secrets,
          dispatcher: dispatcher!,
          concurrency: Math.max(concurrency, 4),
          only: options.only,
          onResult: options.onResult,
        });
        run = { ...run, results: [...run.results, ...gen.results], rules: tally.results(), durationMs: run.durationMs + gen.durationMs };
        generated = generationSummary(options.generate!, gen.seed, gen.cases, gen.durationMs);
      }
    } finally {
      await dispatcher?.close();
    }
    const certificate = buildRestCertificate({
      run,
      scenarios,
      target: { url: baseUrl, storeId, embeddedMock: embedded },
      concurrency,
      only: options.only,
      strict: options.strict ?? false,
      generation: generated,
    });
    const files = options.reportDir ? writeReports(certificate, options.reportDir) : [];
    return { certificate, files };
  } finally {
    await mock?.close();
  }
}

/** The rules that judge a generated request: the response rules and the two generated-case rules. */
const GENERATED_CASE_RULES = new Set(['status-documented', 'content-type-json', 'response-schema', 'envelope', 'pagination', 'generated-accepted', 'generated-refused']);

/** The spec's operations and an empty world that the replay fills with the target's ids. */
async function prepareGeneration(baseUrl: string, storeId: string, apiKey: string, secrets: Secrets) {
  const [{ loadOperationSpecs }, { World }, { learnExchange }] = await Promise.all([
    import('./generate/operation-specs.js'),
    import('./generate/world.js'),
    import('./generate/phase.js'),
  ]);
  const operations = await loadOperationSpecs(documents.storefront);
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  const world = new World();
  const target = { apiBase: apiBaseUrl(baseUrl, 'storefront', storeId), apiBasePath: basePath('storefront', storeId), apiKey, storeId };
  const learning = { world, target, secrets, operations: byId };
  return {
    operations,
    world,
    target,
    learnFromReplay(step: Step, request: OutgoingRequest, live: LiveResponse) {
      const op = byId.get(step.operation.operationId);
      if (!op || live.status < 200 || live.status >= 300 || !request.url.startsWith(target.apiBase)) return;
      let body: unknown;
      try {
        body = request.body ? JSON.parse(request.body) : undefined;
      } catch {
        body = undefined;
      }
      learnExchange(learning, op, { url: request.url, pathParams: {}, query: {}, body }, live.status, live.body);
    },
  };
}

function generationSummary(count: number, seed: number, cases: CaseCounts, durationMs: number): NonNullable<RestCertificate['generation']> {
  const perOperation: NonNullable<RestCertificate['generation']>['perOperation'] = {};
  let total = 0;
  for (const [op, c] of Object.entries(cases)) {
    const sum = c.valid + c.invalid + c.security;
    perOperation[op] = { ...c, total: sum };
    total += sum;
  }
  return { count, seed, cases: total, durationMs: Math.round(durationMs), perOperation, reproduce: `--generate ${count} --seed ${seed}` };
}
