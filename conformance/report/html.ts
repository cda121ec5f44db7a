// report.html: one self-contained page (inline CSS, no scripts, no external assets) a person can read:
// the verdict, the coverage matrix, the failures by rule, every exchange.
import type { Certificate } from '../rest/certificate.js';
import { xmlEscape as esc } from './junit.js';

const CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1200px;padding:0 1rem;color:#1d1d1f}
h1{font-size:1.5rem;margin:0 0 .25rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ddd;padding-bottom:.25rem}
.verdict{display:inline-block;padding:.3rem .8rem;border-radius:4px;font-weight:700;color:#fff}
.certified{background:#1a7f37}.not-certified{background:#cf222e}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}td.pass{background:#dafbe1}td.fail{background:#ffebe9}td.not-run{background:#f6f8fa;color:#666}td.na{background:#fff}
code{font:12px ui-monospace,monospace}.warn{color:#9a6700}.error{color:#cf222e}dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{font-weight:600}
`;

export function reportHtml(cert: Certificate): string {
  const statuses = [...new Set(Object.values(cert.coverage).flatMap((s) => Object.keys(s)))].sort();
  const matrix = Object.entries(cert.coverage)
    .map(([op, cells]) => {
      const tds = statuses
        .map((code) => {
          const c = cells[code];
          if (!c) return '<td class="na"></td>';
          const cls = !c.exercised ? 'not-run' : c.passed ? 'pass' : 'fail';
          const label = !c.exercised ? (c.recorded ? 'recorded, not exercised' : 'not recorded') : c.passed ? 'passed' : 'FAILED';
          return `<td class="${cls}">${label}</td>`;
        })
        .join('');
      return `<tr><th><code>${esc(op)}</code></th>${tds}</tr>`;
    })
    .join('\n');
  const failures = cert.exchanges
    .filter((e) => e.judged && e.findings.length)
    .map(
      (e) =>
        `<tr><td><code>${esc(e.operationId)}</code></td><td><code>${esc(`${e.method} ${e.path}`)}</code><br>${esc(`${e.scenario}/${e.step}`)}</td><td>${e.status ?? '—'} (recorded ${e.recordedStatus})</td><td>${e.findings
          .map((f) => `<div class="${f.severity}"><b>${esc(f.rule)}</b> (${f.severity}): ${esc(f.message)}</div>`)
          .join('')}</td></tr>`,
    )
    .join('\n');
  const rules = cert.rules
    .map((r) => `<tr><td><code>${esc(r.id)}</code></td><td>${r.severity}</td><td>${esc(r.summary)}</td><td>${r.errors}</td><td>${r.warnings}</td></tr>`)
    .join('\n');
  const exchanges = cert.exchanges
    .filter((e) => e.judged)
    .map((e) => {
      const bad = e.error || e.findings.some((f) => f.severity === 'error');
      return `<tr><td>${esc(e.scenario)}</td><td>${esc(e.step)}</td><td><code>${esc(e.operationId)}</code></td><td><code>${esc(`${e.method} ${e.path}`)}</code></td><td>${e.recordedStatus}</td><td>${e.status ?? '—'}</td><td class="${bad ? 'fail' : 'pass'}">${bad ? 'fail' : e.findings.length ? 'pass (warnings)' : 'pass'}</td><td>${e.durationMs.toFixed(1)} ms</td></tr>`;
    })
    .join('\n');
  const s = cert.summary;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Storefront certification: ${esc(cert.verdict)}</title><style>${CSS}</style></head>
<body>
<h1>Storefront REST certification</h1>
<p><span class="verdict ${cert.verdict}">${cert.verdict === 'certified' ? 'CERTIFIED' : 'NOT CERTIFIED'}</span></p>
<dl>
<dt>Target</dt><dd><code>${esc(cert.target.baseUrl)}</code>, store <code>${esc(cert.target.storeId)}</code>${cert.target.embeddedMock ? ' (embedded mock)' : ''}</dd>
<dt>Contract</dt><dd><code>${esc(cert.spec.source)}</code> version ${esc(cert.spec.version)}, sha256 <code>${esc(cert.spec.sha256)}</code></dd>
<dt>Certifier</dt><dd>${esc(cert.tool.package)} ${esc(cert.tool.version)}</dd>
<dt>Run</dt><dd>${esc(cert.startedAt)}, ${(cert.durationMs / 1000).toFixed(1)} s, concurrency ${cert.options.concurrency}${cert.options.only ? `, only ${esc(cert.options.only.join(', '))}` : ''}</dd>
<dt>Exchanges</dt><dd>${s.judged} judged: ${s.passed} passed, ${s.failed} failed; ${s.errors} errors, ${s.warnings} warnings</dd>
</dl>
<h2>Coverage: operation × documented status</h2>
<table><tr><th>operation</th>${statuses.map((c) => `<th>${c}</th>`).join('')}</tr>
${matrix}
</table>
<h2>Findings</h2>
${failures ? `<table><tr><th>operation</th><th>request</th><th>status</th><th>findings</th></tr>\n${failures}\n</table>` : '<p>None.</p>'}
<h2>Rules</h2>
<table><tr><th>rule</th><th>severity</th><th>requires</th><th>errors</th><th>warnings</th></tr>
${rules}
</table>
<h2>Exchanges</h2>
<table><tr><th>scenario</th><th>step</th><th>operation</th><th>request</th><th>recorded</th><th>live</th><th>result</th><th>time</th></tr>
${exchanges}
</table>
</body></html>
`;
}
