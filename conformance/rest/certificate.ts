// The REST certificate: the common frame (conformance/report/certificate.ts) with the REST evidence: the
// verdict per operation and status, the coverage matrix operation x documented status, every exchange.
import { certificateFrame, type CoverageCell, type OperationVerdict, type RestCertificate } from '../report/certificate.js';
import type { ReplayRun } from './engine.js';
import type { ExchangeResult } from './exchange.js';
import { storefrontOperationList as operations, type Scenario } from './load.js';

export function failed(result: ExchangeResult): boolean {
  return !!result.error || result.findings.some((f) => f.severity === 'error');
}

/** `operationId status` of every recorded exchange: the coverage matrix's "recorded". */
export function recordedStatuses(scenarios: readonly Scenario[]): string[] {
  return [...new Set(scenarios.flatMap((s) => s.steps.map((st) => `${st.operation.operationId} ${st.recorded.status}`)))].sort();
}

function coverageOf(run: ReplayRun, recordedList: readonly string[], only?: string[]): Pick<RestCertificate, 'operations' | 'coverage'> {
  const judged = run.results.filter((r) => r.judged);
  const recorded = new Set(recordedList);
  const coverage: RestCertificate['coverage'] = {};
  const ops: RestCertificate['operations'] = [];
  for (const op of operations) {
    if (only?.length && !only.includes(op.operationId)) continue;
    const mine = judged.filter((r) => r.operationId === op.operationId);
    coverage[op.operationId] = {};
    const statuses: RestCertificate['operations'][number]['statuses'] = [];
    const seen = new Set<string>([...op.responses, ...mine.map((r) => String(r.status ?? 'none'))]);
    for (const status of seen) {
      const at = mine.filter((r) => String(r.status ?? 'none') === status);
      const verdict: OperationVerdict = at.length === 0 ? 'not-run' : at.some(failed) ? 'fail' : 'pass';
      statuses.push({ status, verdict, exchanges: at.length });
      if ((op.responses as readonly string[]).includes(status)) {
        const cell: CoverageCell = { recorded: recorded.has(`${op.operationId} ${status}`), exercised: at.length > 0, passed: verdict === 'pass' };
        coverage[op.operationId][status] = cell;
      }
    }
    const verdict: OperationVerdict = mine.length === 0 ? 'not-run' : mine.some(failed) ? 'fail' : 'pass';
    ops.push({ operationId: op.operationId, method: op.method.toUpperCase(), path: op.path, verdict, statuses, generatedCases: mine.filter((r) => r.generated && !r.generated.shrinks).length });
  }
  return { operations: ops, coverage };
}

/**
 * The certificate of a run from its exchanges and rule results. `recorded` and `scenarios` describe the
 * recordings (all of them, also for a shard's part): the coverage matrix and the settings read them.
 */
export function buildRestCertificate(input: {
  run: ReplayRun;
  recorded: readonly string[];
  scenarios: readonly string[];
  target: RestCertificate['target'];
  concurrency: number;
  only?: string[];
  strict: boolean;
  generation?: RestCertificate['generation'];
  /** A shard's part of a run (`certify --shard`): not a certificate until merged. */
  shard?: RestCertificate['shard'];
  notes?: string[];
}): RestCertificate {
  const { run } = input;
  const judged = run.results.filter((r) => r.judged);
  const failedCount = judged.filter(failed).length;
  const unsent = run.results.filter((r) => r.error).length;
  const frame = certificateFrame({
    certifies: 'rest',
    target: input.target,
    rules: run.rules,
    runOk: judged.length > 0 && unsent === 0,
    strict: input.strict,
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    settings: {
      concurrency: input.concurrency,
      only: input.only?.length ? input.only.join(',') : null,
      scenarios: input.scenarios.join(','),
      generate: input.generation?.count ?? 0,
      seed: input.generation?.seed ?? null,
    },
    notes: input.notes,
  });
  return {
    ...frame,
    certifies: 'rest',
    ...(input.shard ? { shard: input.shard } : {}),
    exchangeSummary: { exchanges: run.results.length, judged: judged.length, passed: judged.length - failedCount, failed: failedCount, unsent },
    ...coverageOf(run, input.recorded, input.only),
    ...(input.generation ? { generation: input.generation } : {}),
    exchanges: run.results,
  };
}
