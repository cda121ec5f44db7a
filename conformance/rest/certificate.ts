// The REST certificate: the common frame (conformance/report/certificate.ts) with the REST evidence: the
// verdict per operation and status, the coverage matrix operation x documented status, every exchange.
import { certificateFrame, type CoverageCell, type OperationVerdict, type RestCertificate } from '../report/certificate.js';
import type { ReplayRun } from './engine.js';
import type { ExchangeResult } from './exchange.js';
import { storefrontOperationList as operations, type Scenario } from './load.js';

export function failed(result: ExchangeResult): boolean {
  return !!result.error || result.findings.some((f) => f.severity === 'error');
}

function coverageOf(run: ReplayRun, scenarios: Scenario[], only?: string[]): Pick<RestCertificate, 'operations' | 'coverage'> {
  const judged = run.results.filter((r) => r.judged);
  const recorded = new Set(scenarios.flatMap((s) => s.steps.map((st) => `${st.operation.operationId} ${st.recorded.status}`)));
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

export function buildRestCertificate(input: {
  run: ReplayRun;
  scenarios: Scenario[];
  target: RestCertificate['target'];
  concurrency: number;
  only?: string[];
  strict: boolean;
  generation?: RestCertificate['generation'];
}): RestCertificate {
  const { run, scenarios } = input;
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
      scenarios: scenarios.map((s) => s.name).join(','),
      generate: input.generation?.count ?? 0,
      seed: input.generation?.seed ?? null,
    },
  });
  return {
    ...frame,
    certifies: 'rest',
    exchangeSummary: { exchanges: run.results.length, judged: judged.length, passed: judged.length - failedCount, failed: failedCount, unsent },
    ...coverageOf(run, scenarios, input.only),
    ...(input.generation ? { generation: input.generation } : {}),
    exchanges: run.results,
  };
}
