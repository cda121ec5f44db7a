// The terminal summary: verdict, counts, the failing rules by operation, coverage, report files.
import type { Certificate } from '../rest/certificate.js';

export function summaryText(cert: Certificate, files: string[] = []): string {
  const s = cert.summary;
  const lines: string[] = [];
  lines.push('');
  lines.push(`${cert.verdict === 'certified' ? 'CERTIFIED' : 'NOT CERTIFIED'}: ${cert.target.baseUrl} (store ${cert.target.storeId}${cert.target.embeddedMock ? ', embedded mock' : ''})`);
  lines.push(`  contract ${cert.spec.source} ${cert.spec.version} sha256:${cert.spec.sha256.slice(0, 12)}`);
  lines.push(`  ${s.judged} exchanges judged: ${s.passed} passed, ${s.failed} failed; ${s.errors} errors, ${s.warnings} warnings; ${(cert.durationMs / 1000).toFixed(1)} s`);
  const failing = new Map<string, Set<string>>();
  for (const ex of cert.exchanges) {
    if (!ex.judged) continue;
    for (const f of ex.findings) {
      if (f.severity !== 'error') continue;
      if (!failing.has(f.rule)) failing.set(f.rule, new Set());
      failing.get(f.rule)!.add(ex.operationId);
    }
  }
  if (failing.size) {
    lines.push('  failing rules:');
    for (const [rule, ops] of failing) lines.push(`    ${rule}: ${[...ops].join(', ')}`);
  }
  const warned = cert.rules.filter((r) => r.warnings > 0);
  if (warned.length) lines.push(`  warnings: ${warned.map((r) => `${r.id} (${r.warnings})`).join(', ')}`);
  let documented = 0;
  let exercised = 0;
  let passed = 0;
  for (const statuses of Object.values(cert.coverage)) {
    for (const cell of Object.values(statuses)) {
      documented++;
      if (cell.exercised) exercised++;
      if (cell.passed) passed++;
    }
  }
  lines.push(`  coverage: ${exercised}/${documented} documented statuses exercised, ${passed} passed`);
  const missing = Object.entries(cert.coverage).flatMap(([op, st]) => Object.entries(st).filter(([, c]) => !c.exercised).map(([code]) => `${op} ${code}`));
  if (missing.length) lines.push(`  not exercised: ${missing.join(', ')}`);
  for (const f of files) lines.push(`  report: ${f}`);
  return lines.join('\n');
}
