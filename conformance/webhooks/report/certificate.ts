// report.json of a webhook certification: the same frame as the REST certificate (kind, verdict, tool,
// spec hash, target, times, rules with counts) with the webhook specifics (settings and tolerances,
// outcomes per rule, notes). Built from a WebhookReport; no secret is ever part of one.
import { specInfo } from '../../../generated/spec-info.js';
import { packageVersion } from '../../rest/certificate.js';
import type { WebhookReport } from '../types.js';

export interface WebhookCertificate {
  kind: 'storefront-contract/webhook-certificate';
  formatVersion: 1;
  subject: 'sender' | 'receiver';
  verdict: 'certified' | 'not-certified';
  tool: { package: string; version: string; command: string };
  spec: { api: 'webhooks'; source: string; version: string; sha256: string };
  target: string;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  settings: WebhookReport['settings'];
  summary: { rules: number; passed: number; failed: number; skipped: number; checks: number; failedChecks: number };
  rules: Array<WebhookReport['rules'][number] & { failedChecks: number }>;
  notes: string[];
}

export function buildWebhookCertificate(report: WebhookReport): WebhookCertificate {
  const pkg = packageVersion();
  const subject = report.kind === 'webhook-sender' ? 'sender' : 'receiver';
  const rules = report.rules.map((r) => ({ ...r, failedChecks: r.outcomes.filter((o) => 'problems' in o && o.problems.length > 0).length }));
  const checks = report.rules.reduce((n, r) => n + r.outcomes.filter((o) => 'problems' in o).length, 0);
  return {
    kind: 'storefront-contract/webhook-certificate',
    formatVersion: 1,
    subject,
    verdict: report.certified ? 'certified' : 'not-certified',
    tool: { package: pkg.name, version: pkg.version, command: `npm run certify:webhooks -- ${subject}` },
    spec: { api: 'webhooks', ...specInfo.webhooks },
    target: report.target,
    startedAt: report.startedAt,
    finishedAt: new Date(Date.parse(report.startedAt) + report.durationMs).toISOString(),
    durationMs: report.durationMs,
    settings: report.settings,
    summary: {
      rules: rules.length,
      passed: rules.filter((r) => r.status === 'pass').length,
      failed: rules.filter((r) => r.status === 'fail').length,
      skipped: rules.filter((r) => r.status === 'skip').length,
      checks,
      failedChecks: rules.reduce((n, r) => n + r.failedChecks, 0),
    },
    rules,
    notes: report.notes,
  };
}
