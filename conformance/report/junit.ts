// junit.xml: one testsuite per scenario, one testcase per judged exchange; error findings are
// <failure>s, warnings go to <system-out>.
import type { Certificate } from '../rest/certificate.js';

export function xmlEscape(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

export function junitXml(cert: Certificate): string {
  const byScenario = new Map<string, Certificate['exchanges']>();
  for (const ex of cert.exchanges) {
    if (!ex.judged) continue;
    if (!byScenario.has(ex.scenario)) byScenario.set(ex.scenario, []);
    byScenario.get(ex.scenario)!.push(ex);
  }
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const failures = cert.summary.failed;
  out.push(`<testsuites name="storefront certification" tests="${cert.summary.judged}" failures="${failures}" time="${(cert.durationMs / 1000).toFixed(3)}">`);
  for (const [scenario, list] of byScenario) {
    const failed = list.filter((e) => e.error || e.findings.some((f) => f.severity === 'error')).length;
    const time = list.reduce((t, e) => t + e.durationMs, 0) / 1000;
    out.push(`  <testsuite name="${xmlEscape(scenario)}" tests="${list.length}" failures="${failed}" errors="0" skipped="0" time="${time.toFixed(3)}" timestamp="${cert.startedAt}">`);
    for (const ex of list) {
      const name = `${ex.step}: ${ex.method} ${ex.path} -> ${ex.status ?? 'no answer'}`;
      out.push(`    <testcase classname="${xmlEscape(ex.operationId)}" name="${xmlEscape(name)}" time="${(ex.durationMs / 1000).toFixed(3)}">`);
      const errors = ex.findings.filter((f) => f.severity === 'error');
      for (const f of errors) {
        out.push(`      <failure type="${xmlEscape(f.rule)}" message="${xmlEscape(`${f.rule}: ${f.message}`)}">${xmlEscape(`${ex.operationId} ${ex.method} ${ex.path}\n${f.rule}: ${f.message}`)}</failure>`);
      }
      const warnings = ex.findings.filter((f) => f.severity === 'warn');
      if (warnings.length) out.push(`      <system-out>${xmlEscape(warnings.map((f) => `warning ${f.rule}: ${f.message}`).join('\n'))}</system-out>`);
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}
