// Live progress: one line per REST exchange as it is answered (its findings indented below it), and one
// line per webhook rule as its verdict is known.
import type { ExchangeResult } from '../rest/exchange.js';
import type { RuleResult } from '../rules/run.js';

const MAX_FINDINGS = 3;

export function progressLine(r: ExchangeResult): string {
  const errors = r.findings.filter((f) => f.severity === 'error');
  const mark = !r.judged ? '·' : r.error || errors.length ? '✗' : r.findings.length ? '!' : '✓';
  const status = r.status ?? '---';
  const head = `${mark} ${status} ${r.method.padEnd(4)} ${r.path}  ${r.operationId}  [${r.scenario}/${r.step}] ${r.durationMs.toFixed(0)}ms`;
  const details = r.judged ? r.findings.map((f) => `    ${f.severity === 'error' ? 'error' : 'warn '} ${f.rule}: ${f.message}`) : [];
  if (r.generated?.curl) details.push(`    minimal failing request (${r.generated.shrinks} shrinking steps): ${r.generated.curl}`);
  return [head, ...details].join('\n');
}

const MARK = { passed: '✓', failed: '✗', warned: '!', skipped: '·' } as const;

export function ruleLines(rules: readonly RuleResult[]): string[] {
  const lines: string[] = [];
  for (const r of rules) {
    lines.push(`${MARK[r.status]} ${r.id}${r.status === 'skipped' ? ` (skipped: ${r.skipped})` : ''}`);
    for (const f of r.findings.slice(0, MAX_FINDINGS)) lines.push(`    ${f.severity === 'error' ? 'error' : 'warn '} ${f.subject}: ${f.message}`);
    if (r.findings.length > MAX_FINDINGS) lines.push(`    … ${r.findings.length - MAX_FINDINGS} more (see the report)`);
  }
  return lines;
}
