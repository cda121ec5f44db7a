// The REST certificate: the common frame (conformance/report/certificate.ts) with the REST evidence: the
// verdict per operation and status, the coverage matrix operation x documented status, every exchange.
import { certificateFrame, type CoverageCell, type OperationVerdict, type RestCertificate } from '../report/certificate.js';
import type { ReplayRun } from './engine.js';
import type { ExchangeResult } from './exchange.js';
import { storefrontOperationList as operations, type Scenario } from './load.js';

export function failed(result: ExchangeResult): boolean {
  return !!result.error || result.findings.some((f) => f.severity === 'error');
}

/** Judged exchanges per operation and status: how many, how many failed, how many were generated cases. */
export type StatusCounts = Map<string, Map<string, { exchanges: number; failed: number; generated: number }>>;

/** Adds a judged exchange to the counts the verdicts and coverage are computed from (an unjudged one is not counted). */
export function countExchange(counts: StatusCounts, result: ExchangeResult): void {
  if (!result.judged) return;
  const byStatus = counts.get(result.operationId) ?? new Map();
  counts.set(result.operationId, byStatus);
  const status = String(result.status ?? 'none');
  const cell = byStatus.get(status) ?? { exchanges: 0, failed: 0, generated: 0 };
  byStatus.set(status, cell);
  cell.exchanges++;
  if (failed(result)) cell.failed++;
  if (result.generated && !result.generated.shrinks) cell.generated++;
}

/** `operationId status` of every recorded exchange: the coverage matrix's "recorded". */
export function recordedStatuses(scenarios: readonly Scenario[]): string[] {
  return [...new Set(scenarios.flatMap((s) => s.steps.map((st) => `${st.operation.operationId} ${st.recorded.status}`)))].sort();
}

function coverageOf(counts: StatusCounts, recordedList: readonly string[], only?: string[]): Pick<RestCertificate, 'operations' | 'coverage'> {
  const recorded = new Set(recordedList);
  const coverage: RestCertificate['coverage'] = {};
  const ops: RestCertificate['operations'] = [];
  for (const op of operations) {
    if (only?.length && !only.includes(op.operationId)) continue;
    const mine = counts.get(op.operationId) ?? new Map<string, { exchanges: number; failed: number; generated: number }>();
    coverage[op.operationId] = {};
    const statuses: RestCertificate['operations'][number]['statuses'] = [];
    const seen = new Set<string>([...op.responses, ...mine.keys()]);
    let exchanges = 0;
    let failing = 0;
    let generated = 0;
    for (const status of seen) {
      const at = mine.get(status) ?? { exchanges: 0, failed: 0, generated: 0 };
      exchanges += at.exchanges;
      failing += at.failed;
      generated += at.generated;
      const verdict: OperationVerdict = at.exchanges === 0 ? 'not-run' : at.failed ? 'fail' : 'pass';
      statuses.push({ status, verdict, exchanges: at.exchanges });
      if ((op.responses as readonly string[]).includes(status)) {
        const cell: CoverageCell = { recorded: recorded.has(`${op.operationId} ${status}`), exercised: at.exchanges > 0, passed: verdict === 'pass' };
        coverage[op.operationId][status] = cell;
      }
    }
    const verdict: OperationVerdict = exchanges === 0 ? 'not-run' : failing ? 'fail' : 'pass';
    ops.push({ operationId: op.operationId, method: op.method.toUpperCase(), path: op.path, verdict, statuses, generatedCases: generated });
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
  /**
   * Traffic judged without a recording (the validating proxy, `certify --from-har`): `run.results` are the
   * exchanges kept for the report, `counts` and `exchangeSummary` cover every exchange judged.
   */
  observed?: { counts: StatusCounts; exchangeSummary: RestCertificate['exchangeSummary']; traffic: NonNullable<RestCertificate['traffic']>; settings: RestCertificate['settings']; command: string; notes: string[] };
}): RestCertificate {
  const { run, observed } = input;
  const judged = run.results.filter((r) => r.judged);
  const failedCount = judged.filter(failed).length;
  const unsent = run.results.filter((r) => r.error).length;
  const counts: StatusCounts = observed?.counts ?? new Map();
  if (!observed) for (const r of run.results) countExchange(counts, r);
  const exchangeSummary = observed?.exchangeSummary ?? { exchanges: run.results.length, judged: judged.length, passed: judged.length - failedCount, failed: failedCount, unsent };
  const frame = certificateFrame({
    certifies: 'rest',
    target: input.target,
    rules: run.rules,
    runOk: exchangeSummary.judged > 0 && exchangeSummary.unsent === 0,
    strict: input.strict,
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    settings: observed?.settings ?? {
      concurrency: input.concurrency,
      only: input.only?.length ? input.only.join(',') : null,
      scenarios: input.scenarios.join(','),
      generate: input.generation?.count ?? 0,
      seed: input.generation?.seed ?? null,
    },
    ...(observed ? { command: observed.command, notes: observed.notes } : { notes: input.notes }),
  });
  return {
    ...frame,
    certifies: 'rest',
    ...(input.shard ? { shard: input.shard } : {}),
    exchangeSummary,
    ...coverageOf(counts, input.recorded, input.only),
    ...(input.generation ? { generation: input.generation } : {}),
    ...(observed ? { traffic: observed.traffic } : {}),
    exchanges: run.results,
  };
}
