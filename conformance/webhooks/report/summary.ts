// Terminal output of a webhook certification: one line per rule as the verdicts come in, then the
// summary (verdict, counts, failing rules with their first problems, tolerances, report files).
import type { WebhookCertificate } from './certificate.js';

const MARK = { pass: '✓', fail: '✗', skip: '·' } as const;
const MAX_PROBLEMS = 3;

export function ruleLines(cert: WebhookCertificate): string[] {
  const lines: string[] = [];
  for (const r of cert.rules) {
    lines.push(`${MARK[r.status]} ${r.id}${r.status === 'skip' ? ' (skipped)' : ''}`);
    const problems = r.outcomes.flatMap((o) => ('problems' in o ? o.problems.map((p) => `${o.subject}: ${p}`) : []));
    for (const p of problems.slice(0, MAX_PROBLEMS)) lines.push(`    ${p}`);
    if (problems.length > MAX_PROBLEMS) lines.push(`    … ${problems.length - MAX_PROBLEMS} more (see the report)`);
  }
  return lines;
}

export function webhookSummary(cert: WebhookCertificate, files: string[] = []): string {
  const s = cert.summary;
  const lines = [
    '',
    `${cert.verdict === 'certified' ? 'CERTIFIED' : 'NOT CERTIFIED'}: webhook ${cert.subject} ${cert.target}`,
    `  contract ${cert.spec.source} ${cert.spec.version} sha256:${cert.spec.sha256.slice(0, 12)}`,
    `  ${s.rules} rules: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped; ${s.checks} checks, ${s.failedChecks} failed; ${(cert.durationMs / 1000).toFixed(1)} s`,
  ];
  const failing = cert.rules.filter((r) => r.status === 'fail');
  if (failing.length) lines.push(`  failing rules: ${failing.map((r) => r.id).join(', ')}`);
  if (typeof cert.settings.tolerances === 'string') lines.push(`  timing: ${cert.settings.tolerances}`);
  for (const f of files) lines.push(`  report: ${f}`);
  return lines.join('\n');
}
