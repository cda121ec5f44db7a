// Thin adapter onto the REST certifier's reporters (conformance/src/reporters), which take a REST
// Certificate: each webhook rule becomes a "scenario" (a junit testsuite) and each of its outcomes an
// "exchange" (a testcase) whose problems are error findings; skipped outcomes become warnings (junit
// system-out). The REST page's REST-specific wording is replaced on the way out.
import type { Certificate } from '../../rest/certificate.js';
import { reportHtml } from '../../report/html.js';
import { junitXml, xmlEscape } from '../../report/junit.js';
import type { ExchangeResult } from '../../rest/types.js';
import type { WebhookCertificate } from './certificate.js';

export function toRestCertificate(cert: WebhookCertificate): Certificate {
  const exchanges: ExchangeResult[] = [];
  for (const rule of cert.rules) {
    rule.outcomes.forEach((o, index) => {
      const skipped = 'skipped' in o;
      exchanges.push({
        id: `${rule.id}#${index}`,
        scenario: rule.id,
        step: o.subject,
        index,
        operationId: rule.id,
        // The REST testcase name is `${step}: ${method} ${path} -> ${status}`; webhookJunit trims the rest.
        method: rule.id,
        path: '',
        recordedStatus: 0,
        durationMs: 0,
        findings: skipped
          ? [{ rule: rule.id, severity: 'warn', message: `skipped: ${o.skipped}` }]
          : o.problems.map((message) => ({ rule: rule.id, severity: 'error' as const, message })),
        judged: true,
      });
    });
  }
  const failed = exchanges.filter((e) => e.findings.some((f) => f.severity === 'error')).length;
  const coverage: Certificate['coverage'] = {};
  for (const r of cert.rules) coverage[r.id] = { verdict: { recorded: true, exercised: r.status !== 'skip', passed: r.status === 'pass' } };
  return {
    kind: 'storefront-contract/rest-certificate',
    formatVersion: 1,
    verdict: cert.verdict,
    tool: cert.tool,
    spec: cert.spec as unknown as Certificate['spec'],
    target: { baseUrl: cert.target, storeId: '-', embeddedMock: false },
    startedAt: cert.startedAt,
    finishedAt: cert.finishedAt,
    durationMs: cert.durationMs,
    options: { concurrency: 1, only: null, scenarios: cert.rules.map((r) => r.id) },
    summary: {
      exchanges: exchanges.length,
      judged: exchanges.length,
      passed: exchanges.length - failed,
      failed,
      errors: exchanges.reduce((n, e) => n + e.findings.filter((f) => f.severity === 'error').length, 0),
      warnings: exchanges.reduce((n, e) => n + e.findings.filter((f) => f.severity === 'warn').length, 0),
    },
    rules: cert.rules.map((r) => ({ id: r.id, severity: 'error', summary: r.summary, errors: r.failedChecks, warnings: r.outcomes.filter((o) => 'skipped' in o).length })),
    operations: [],
    coverage,
    exchanges,
  };
}

export function webhookJunit(cert: WebhookCertificate): string {
  return junitXml(toRestCertificate(cert))
    .replace('<testsuites name="storefront certification"', `<testsuites name="storefront webhook ${cert.subject} certification"`)
    .replace(/ +-&gt; no answer" time=/g, '" time=');
}

export function webhookHtml(cert: WebhookCertificate): string {
  const settings = Object.entries(cert.settings)
    .map(([k, v]) => `<dt>${xmlEscape(k)}</dt><dd>${xmlEscape(String(v))}</dd>`)
    .join('');
  const notes = cert.notes.map((n) => `<li>${xmlEscape(n)}</li>`).join('');
  const extra = `<h2>Settings and tolerances</h2>\n<dl>${settings}</dl>\n${notes ? `<h2>Notes</h2>\n<ul>${notes}</ul>\n` : ''}<h2>Rules × verdict</h2>`;
  return reportHtml(toRestCertificate(cert))
    .replace('<h1>Storefront REST certification</h1>', `<h1>Storefront webhook ${cert.subject} certification</h1>`)
    .replace(/Storefront certification: /, `Storefront webhook ${cert.subject} certification: `)
    .replace('<h2>Coverage: operation × documented status</h2>', extra)
    .replace(', store <code>-</code>', '')
    .replace('<dt>Exchanges</dt>', '<dt>Checks</dt>')
    .replace('<h2>Exchanges</h2>', '<h2>Checks</h2>');
}
