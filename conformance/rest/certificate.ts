// The certificate (report.json): what was certified against which contract, the verdict per
// operation and status, and the coverage matrix operation x documented status.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { specInfo } from '../../generated/spec-info.js';
import { repoRoot } from '../../src/contract/spec-files.js';
import { rules as allRules } from '../rules/rest/index.js';
import type { ReplayRun } from './engine.js';
import type { Scenario } from './load.js';
import { operations } from './operations.js';
import type { ExchangeResult, Severity } from './types.js';

export type Verdict = 'pass' | 'fail' | 'not-run';

export interface CoverageCell {
  /** A recording holds an exchange of this operation answered with this status. */
  recorded: boolean;
  /** The target answered an exchange of this operation with this status in this run. */
  exercised: boolean;
  /** Every such exchange passed every error-level rule. */
  passed: boolean;
}

export interface Certificate {
  kind: 'storefront-contract/rest-certificate';
  formatVersion: 1;
  verdict: 'certified' | 'not-certified';
  tool: { package: string; version: string; command: string };
  spec: { api: 'storefront'; source: string; version: string; sha256: string };
  target: { baseUrl: string; storeId: string; embeddedMock: boolean };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  options: { concurrency: number; only: string[] | null; scenarios: string[] };
  summary: { exchanges: number; judged: number; passed: number; failed: number; errors: number; warnings: number };
  rules: Array<{ id: string; severity: Severity; summary: string; errors: number; warnings: number }>;
  operations: Array<{ operationId: string; method: string; path: string; verdict: Verdict; statuses: Array<{ status: string; verdict: Verdict; exchanges: number }> }>;
  coverage: Record<string, Record<string, CoverageCell>>;
  exchanges: ExchangeResult[];
}

export function packageVersion(): { name: string; version: string } {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  return { name: pkg.name, version: pkg.version };
}

export function failed(result: ExchangeResult): boolean {
  return !!result.error || result.findings.some((f) => f.severity === 'error');
}

export function buildCertificate(input: {
  run: ReplayRun;
  scenarios: Scenario[];
  target: { baseUrl: string; storeId: string; embeddedMock: boolean };
  concurrency: number;
  only?: string[];
}): Certificate {
  const { run, scenarios } = input;
  const judged = run.results.filter((r) => r.judged);
  const pkg = packageVersion();
  const recorded = new Set(scenarios.flatMap((s) => s.steps.map((st) => `${st.operation.operationId} ${st.recorded.status}`)));

  const coverage: Certificate['coverage'] = {};
  const ops: Certificate['operations'] = [];
  for (const op of operations) {
    if (input.only?.length && !input.only.includes(op.operationId)) continue;
    const mine = judged.filter((r) => r.operationId === op.operationId);
    coverage[op.operationId] = {};
    const statuses: Certificate['operations'][number]['statuses'] = [];
    const seen = new Set<string>([...op.responses, ...mine.map((r) => String(r.status ?? 'none'))]);
    for (const status of seen) {
      const at = mine.filter((r) => String(r.status ?? 'none') === status);
      const verdict: Verdict = at.length === 0 ? 'not-run' : at.some(failed) ? 'fail' : 'pass';
      statuses.push({ status, verdict, exchanges: at.length });
      if ((op.responses as readonly string[]).includes(status)) {
        coverage[op.operationId][status] = { recorded: recorded.has(`${op.operationId} ${status}`), exercised: at.length > 0, passed: verdict === 'pass' };
      }
    }
    const verdict: Verdict = mine.length === 0 ? 'not-run' : mine.some(failed) ? 'fail' : 'pass';
    ops.push({ operationId: op.operationId, method: op.method.toUpperCase(), path: op.path, verdict, statuses });
  }

  const findings = judged.flatMap((r) => r.findings);
  const failedCount = judged.filter(failed).length;
  const errors = findings.filter((f) => f.severity === 'error').length;
  const certified = judged.length > 0 && failedCount === 0 && run.results.every((r) => !r.error);
  return {
    kind: 'storefront-contract/rest-certificate',
    formatVersion: 1,
    verdict: certified ? 'certified' : 'not-certified',
    tool: { package: pkg.name, version: pkg.version, command: 'npm run certify' },
    spec: { api: 'storefront', ...specInfo.storefront },
    target: input.target,
    startedAt: run.startedAt.toISOString(),
    finishedAt: new Date(run.startedAt.getTime() + run.durationMs).toISOString(),
    durationMs: Math.round(run.durationMs),
    options: { concurrency: input.concurrency, only: input.only?.length ? input.only : null, scenarios: scenarios.map((s) => s.name) },
    summary: {
      exchanges: run.results.length,
      judged: judged.length,
      passed: judged.length - failedCount,
      failed: failedCount,
      errors,
      warnings: findings.filter((f) => f.severity === 'warn').length,
    },
    rules: [...allRules.map((r) => ({ id: r.id, severity: r.severity, summary: r.summary })), { id: 'replay', severity: 'error' as const, summary: 'The exchange could be sent and answered (captures present, transport ok).' }].map((r) => ({
      ...r,
      errors: findings.filter((f) => f.rule === r.id && f.severity === 'error').length,
      warnings: findings.filter((f) => f.rule === r.id && f.severity === 'warn').length,
    })),
    operations: ops,
    coverage,
    exchanges: run.results,
  };
}
