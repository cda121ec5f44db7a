// junit.xml, for CI test reports. REST: one testsuite per scenario, one testcase per judged exchange.
// Webhooks: one testsuite, one testcase per rule. Error findings are <failure>s typed by the rule id,
// warnings go to <system-out>, a skipped rule is <skipped> with its reason.
import type { Certificate, RestCertificate, WebhookCertificate } from './certificate.js';
import { describeSource, targetLabel } from './source.js';
import { xmlEscape } from './xml.js';

const secs = (ms: number) => (ms / 1000).toFixed(3);

function restSuites(cert: RestCertificate): string[] {
  const sources = new Map(cert.rules.map((r) => [r.id, ` (${describeSource(r.source)})`]));
  const byScenario = new Map<string, RestCertificate['exchanges']>();
  for (const ex of cert.exchanges) {
    if (!ex.judged) continue;
    if (!byScenario.has(ex.scenario)) byScenario.set(ex.scenario, []);
    byScenario.get(ex.scenario)!.push(ex);
  }
  const out: string[] = [];
  for (const [scenario, list] of byScenario) {
    const failed = list.filter((e) => e.error || e.findings.some((f) => f.severity === 'error')).length;
    const time = list.reduce((t, e) => t + e.durationMs, 0);
    out.push(`  <testsuite name="${xmlEscape(scenario)}" tests="${list.length}" failures="${failed}" errors="0" skipped="0" time="${secs(time)}" timestamp="${cert.startedAt}">`);
    if (scenario === 'generated' && cert.generation) {
      const g = cert.generation;
      out.push('    <properties>');
      out.push(`      <property name="seed" value="${g.seed}"/>`);
      out.push(`      <property name="reproduce" value="${xmlEscape(g.reproduce)}"/>`);
      for (const [op, c] of Object.entries(g.perOperation)) out.push(`      <property name="cases.${xmlEscape(op)}" value="${c.total} (${c.valid} valid, ${c.invalid} invalid, ${c.security} credentials)"/>`);
      out.push('    </properties>');
    }
    for (const ex of list) {
      const name = `${ex.step}: ${ex.method} ${ex.path} -> ${ex.status ?? 'no answer'}`;
      out.push(`    <testcase classname="${xmlEscape(ex.operationId)}" name="${xmlEscape(name)}" time="${secs(ex.durationMs)}">`);
      for (const f of ex.findings.filter((x) => x.severity === 'error')) {
        const reproduce = ex.generated?.curl ? `\nminimal failing request (${ex.generated.shrinks} shrinking steps): ${ex.generated.curl}` : '';
        out.push(`      <failure type="${xmlEscape(f.rule)}" message="${xmlEscape(`${f.rule}: ${f.message}`)}">${xmlEscape(`${ex.operationId} ${ex.method} ${ex.path}\n${f.rule}${sources.get(f.rule) ?? ''}: ${f.message}${reproduce}`)}</failure>`);
      }
      const warnings = ex.findings.filter((x) => x.severity === 'warning');
      if (warnings.length) out.push(`      <system-out>${xmlEscape(warnings.map((f) => `warning ${f.rule}: ${f.message}`).join('\n'))}</system-out>`);
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  return out;
}

function webhookSuite(cert: WebhookCertificate): string[] {
  const failed = cert.rules.filter((r) => r.status === 'failed').length;
  const skipped = cert.rules.filter((r) => r.status === 'skipped').length;
  const out = [`  <testsuite name="${cert.certifies}" tests="${cert.rules.length}" failures="${failed}" errors="0" skipped="${skipped}" time="${secs(cert.durationMs)}" timestamp="${cert.startedAt}">`];
  for (const r of cert.rules) {
    out.push(`    <testcase classname="${cert.certifies}" name="${xmlEscape(r.id)}" time="0.000">`);
    if (r.status === 'skipped') out.push(`      <skipped message="${xmlEscape(r.skipped ?? '')}"/>`);
    for (const f of r.findings.filter((x) => x.severity === 'error')) {
      out.push(`      <failure type="${xmlEscape(r.id)}" message="${xmlEscape(`${f.subject}: ${f.message}`)}">${xmlEscape(`${r.id} (${describeSource(r.source)})\n${f.subject}: ${f.message}`)}</failure>`);
    }
    const warnings = r.findings.filter((x) => x.severity === 'warning');
    if (warnings.length) out.push(`      <system-out>${xmlEscape(warnings.map((f) => `warning ${f.subject}: ${f.message}`).join('\n'))}</system-out>`);
    out.push('    </testcase>');
  }
  out.push('  </testsuite>');
  return out;
}

export function junitXml(cert: Certificate): string {
  const tests = cert.certifies === 'rest' ? cert.exchangeSummary.judged : cert.rules.length;
  const failures = cert.certifies === 'rest' ? cert.exchangeSummary.failed : cert.summary.rules.failed;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="storefront ${targetLabel(cert.certifies)} certification${cert.certifies === 'rest' && cert.shard ? ` (shard ${cert.shard.index}/${cert.shard.total})` : ''}" tests="${tests}" failures="${failures}" time="${secs(cert.durationMs)}">`,
    ...(cert.certifies === 'rest' ? restSuites(cert) : webhookSuite(cert)),
    '</testsuites>',
  ];
  return `${out.join('\n')}\n`;
}
