// Live progress: one line per exchange as it is answered, its findings indented below it.
import type { ExchangeResult } from '../rest/types.js';

export function progressLine(r: ExchangeResult): string {
  const errors = r.findings.filter((f) => f.severity === 'error');
  const mark = !r.judged ? '·' : r.error || errors.length ? '✗' : r.findings.length ? '!' : '✓';
  const status = r.status ?? '---';
  const head = `${mark} ${status} ${r.method.padEnd(4)} ${r.path}  ${r.operationId}  [${r.scenario}/${r.step}] ${r.durationMs.toFixed(0)}ms`;
  const details = r.judged ? r.findings.map((f) => `    ${f.severity === 'error' ? 'error' : 'warn '} ${f.rule}: ${f.message}`) : [];
  return [head, ...details].join('\n');
}
