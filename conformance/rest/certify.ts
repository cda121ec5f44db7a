// certify(): the whole run as a function (the CLI and the tests call it): load the recordings, start
// the embedded mock when no base URL is given, replay with the rules, build the certificate, write
// the reports. With `shard`, only that shard's part of the run (shard.ts) is sent and judged, and the
// shard's report (report/shard.ts) is written for `certify merge` (merge.ts).
import { randomBytes, randomInt } from 'node:crypto';
import { createMockServer } from '../../workbench/adapters/node-http.js';
import type { RestCertificate } from '../report/certificate.js';
import { writeReports } from '../report/write.js';
import type { Rule } from '../rules/model.js';
import { buildRestCertificate, recordedStatuses } from './certificate.js';
import { replay, type ReplayRun } from './engine.js';
import { restRules } from '../rules/rest/index.js';
import { RuleTally } from '../rules/run.js';
import { createDispatcher } from './http.js';
import { apiBaseUrl, basePath } from 'storefront-contract/contract';
import { documents } from '../../workbench/contract/files.js';
import type { CaseCounts } from './generate/phase.js';
import type { ExchangeResult } from './exchange.js';
import type { Exchange, LiveResponse, OutgoingRequest } from '../rules/observations/rest.js';
import type { Step } from './load.js';
import { loadScenarios, trafficDir } from './load.js';
import { Secrets } from './secrets.js';
import { ObservedTally, SHARD_REPORT_KIND, shardDigest, shardReportText, writeShardReports, type ShardReport } from '../report/shard.js';
import { loadRequestCosts, operationUnit, partOf, recordingsHash, scenarioUnits, teachingSteps, type ShardPart, type ShardSpec } from './shard.js';

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
  /** The generative phase's seed (printed in every report); default a random one (required with `shard`). */
  seed?: number;
  /**
   * Send only this shard's part of the run (`certify --shard i/N`) and write its shard report instead of
   * report.json; `certify merge` of all N gives the certificate.
   */
  shard?: ShardSpec;
}

export interface CertifyOutcome {
  /** The certificate; for a shard, the certificate of its part (`shard` set), which `certify merge` replaces. */
  certificate: RestCertificate;
  files: string[];
  /** A shard's report (with `shard`). */
  shard?: ShardReport;
  /** Its digest (with `shard`): `sha256:<hex>` of the report file's bytes, which the shard job prints for `certify merge --expect-digest`. */
  shardDigest?: string;
}

export const DEFAULT_STORE_ID = 'demo-store';

export async function certify(options: CertifyOptions): Promise<CertifyOutcome> {
  // Every shard must generate the same cases: a random seed per shard would not.
  if (options.shard && options.generate && options.seed === undefined) throw new Error('--shard with --generate needs --seed <n>, the same in every shard');
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
    // The generative phase has at least four operations' cases in flight.
    const generationInFlight = Math.max(concurrency, 4);
    const rules = options.rules ?? restRules;
    const tally = options.shard ? new ObservedTally(rules, { strict: options.strict }) : new RuleTally(rules, { strict: options.strict });
    const storeId = options.storeId ?? scenarios[0]?.steps[0]?.recordedStoreId ?? DEFAULT_STORE_ID;
    const generation = options.generate ? await prepareGeneration(baseUrl, storeId, apiKey, secrets) : undefined;
    const selectedOps = generation?.operations.filter((op) => !options.only?.length || options.only.includes(op.operationId));
    let part: ShardPart | undefined;
    if (options.shard) {
      const costs = loadRequestCosts();
      const units = [
        ...scenarioUnits(scenarios, { only: options.only, inFlight: concurrency, costs }),
        ...(selectedOps ?? []).map((op) => operationUnit(op.operationId, generation!.expectedCases(op, options.generate!), generationInFlight, costs)),
      ];
      part = partOf(units, options.shard);
    }
    const generatedOps = selectedOps?.filter((op) => !part || part.operations.has(op.operationId));
    const links = new Map((generation?.operations ?? []).map((op) => [op.operationId, op.links]));
    // The generative phase reuses the replay's connections (and its session's ids); alone, the replay has its own pool.
    const dispatcher = generation ? createDispatcher(generationInFlight) : undefined;
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
        part: part && { scenarios: part.scenarios, teaches: part.operations.size ? teachingSteps(part.operations, links, scenarios) : undefined },
      });
      const seed = options.seed ?? randomInt(2 ** 31);
      // A shard that generates no operation's cases still reports the run's N and seed.
      if (generation && !generatedOps?.length) generated = generationSummary(options.generate!, seed, {}, 0);
      if (generation && generatedOps?.length) {
        const { generate } = await import('./generate/phase.js');
        const gen = await generate({
          operations: generatedOps,
          count: options.generate!,
          seed,
          target: generation.target,
          world: generation.world,
          rules,
          tally,
          policy: { strict: options.strict },
          secrets,
          dispatcher: dispatcher!,
          concurrency: generationInFlight,
          only: options.only,
          onResult: options.onResult,
        });
        run = { ...run, results: [...run.results, ...gen.results], rules: tally.results(), durationMs: run.durationMs + gen.durationMs };
        generated = generationSummary(options.generate!, gen.seed, gen.cases, gen.durationMs);
      }
    } finally {
      await dispatcher?.close();
    }
    const recorded = recordedStatuses(scenarios);
    const certificate = buildRestCertificate({
      run,
      recorded,
      scenarios: scenarios.map((s) => s.name),
      target: { url: baseUrl, storeId, embeddedMock: embedded },
      concurrency,
      only: options.only,
      strict: options.strict ?? false,
      generation: generated,
      shard: part && { index: part.spec.index, total: part.spec.total },
    });
    if (!part) return { certificate, files: options.reportDir ? writeReports(certificate, options.reportDir) : [] };
    const ruleIds = rules.map((r) => r.id);
    const shard: ShardReport = {
      kind: SHARD_REPORT_KIND,
      formatVersion: 1,
      shard: { ...part.spec, scenarios: [...part.scenarios].sort(), operations: [...part.operations].sort() },
      tool: { package: certificate.tool.package, version: certificate.tool.version },
      spec: certificate.spec,
      recordings: { sha256: recordingsHash(scenarios), scenarios: scenarios.map((s) => s.name), recorded },
      target: certificate.target,
      // --strict too: the merge tallies the rules again, and must count warnings as this run does.
      settings: { ...certificate.settings, strict: certificate.strict },
      startedAt: certificate.startedAt,
      durationMs: certificate.durationMs,
      rules: ruleIds,
      ...(tally as ObservedTally).encode(ruleIds, run.results),
      ...(generated ? { generation: { ...withoutCases(generated), operations: selectedOps!.map((op) => op.operationId) } } : {}),
    };
    return { certificate, files: options.reportDir ? writeShardReports(shard, certificate, options.reportDir) : [], shard, shardDigest: shardDigest(shardReportText(shard)) };
  } finally {
    await mock?.close();
  }
}

/** The spec's operations and an empty world that the replay fills with the target's ids. */
async function prepareGeneration(baseUrl: string, storeId: string, apiKey: string, secrets: Secrets) {
  const [{ loadOperationSpecs }, { World }, { learnExchange, expectedCases }] = await Promise.all([
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
    expectedCases,
    learnFromReplay(step: Step, request: OutgoingRequest, live: LiveResponse) {
      const op = byId.get(step.operation.operationId);
      // Only what the recording shows accepted and the target accepted: a request the recording shows
      // refused (an unknown id, a bad credential) teaches nothing even when a faulty target serves it.
      if (!op || !accepted(step.recorded.status) || !accepted(live.status) || !request.url.startsWith(target.apiBase)) return;
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

const accepted = (status: number) => status >= 200 && status < 300;

function withoutCases({ cases: _cases, ...rest }: NonNullable<RestCertificate['generation']>) {
  return rest;
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
