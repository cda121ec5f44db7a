// report.html: one self-contained page (inline CSS, no scripts, no external assets) a person can read:
// the verdict, the rules with the contract statement each enforces (stated or designed), then the
// evidence: the REST coverage matrix, findings and exchanges, or the webhook settings, findings, probes
// and deliveries.
import { verdictLabel, type Certificate, type RestCertificate, type WebhookCertificate } from './certificate.js';
import { describeSource, targetLabel } from './source.js';
import { xmlEscape as esc } from './xml.js';

const CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1200px;padding:0 1rem;color:#1d1d1f}
h1{font-size:1.5rem;margin:0 0 .25rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ddd;padding-bottom:.25rem}
.verdict{display:inline-block;padding:.3rem .8rem;border-radius:4px;font-weight:700;color:#fff}
.certified{background:#1a7f37}.not-certified{background:#cf222e}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}td.pass,td.passed{background:#dafbe1}td.fail,td.failed{background:#ffebe9}td.not-run,td.skipped{background:#f6f8fa;color:#666}td.warned{background:#fff8c5}td.na{background:#fff}
code{font:12px ui-monospace,monospace}.warning{color:#9a6700}.error{color:#cf222e}dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{font-weight:600}
`;

function rulesTable(cert: Certificate): string {
  const rows = cert.rules
    .map(
      (r) =>
        `<tr><td><code>${esc(r.id)}</code></td><td>${esc(describeSource(r.source))}</td><td>${r.severity}</td><td>${esc(r.summary)}</td><td class="${r.status}">${r.status}${r.skipped ? `: ${esc(r.skipped)}` : ''}</td><td>${r.errors}</td><td>${r.warnings}</td></tr>`,
    )
    .join('\n');
  return `<h2>Rules</h2>
<p>A <b>stated</b> rule enforces what the platform's interface document says; a <b>designed</b> rule enforces what this spec designed where that document leaves the matter open, and only advises (warnings) unless the run is strict. A skipped rule could not observe what it judges: it has not passed.</p>
<table><tr><th>rule</th><th>source</th><th>severity</th><th>requires</th><th>result</th><th>errors</th><th>warnings</th></tr>
${rows}
</table>`;
}

function restSections(cert: RestCertificate): string {
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
  const findings = cert.exchanges
    .filter((e) => e.judged && e.findings.length)
    .map(
      (e) =>
        `<tr><td><code>${esc(e.operationId)}</code></td><td><code>${esc(`${e.method} ${e.path}`)}</code><br>${esc(`${e.scenario}/${e.step}`)}${e.generated?.curl ? `<br>minimal failing request (${e.generated.shrinks} shrinking steps):<br><code>${esc(e.generated.curl)}</code>` : ''}</td><td>${e.status ?? '—'} ${e.generated ? '(generated)' : e.observed ? '(observed)' : `(recorded ${e.recordedStatus})`}</td><td>${e.findings
          .map((f) => `<div class="${f.severity}"><b>${esc(f.rule)}</b> (${f.severity}): ${esc(f.message)}</div>`)
          .join('')}</td></tr>`,
    )
    .join('\n');
  const exchanges = cert.exchanges
    .filter((e) => e.judged)
    .map((e) => {
      const bad = e.error || e.findings.some((f) => f.severity === 'error');
      return `<tr><td>${esc(e.scenario)}</td><td>${esc(e.step)}</td><td><code>${esc(e.operationId)}</code></td><td><code>${esc(`${e.method} ${e.path}`)}</code></td><td>${e.generated ? 'generated' : e.observed ? '—' : e.recordedStatus}</td><td>${e.status ?? '—'}</td><td class="${bad ? 'fail' : 'pass'}">${bad ? 'fail' : e.findings.length ? 'pass (warnings)' : 'pass'}</td><td>${e.durationMs.toFixed(1)} ms</td></tr>`;
    })
    .join('\n');
  const traffic = cert.traffic ? `<h2>Traffic</h2>\n<ul>${cert.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>\n` : '';
  return `${traffic}<h2>Coverage: operation × documented status</h2>
<table><tr><th>operation</th>${statuses.map((c) => `<th>${c}</th>`).join('')}</tr>
${matrix}
</table>
${generationSection(cert)}
<h2>Findings</h2>
${findings ? `<table><tr><th>operation</th><th>request</th><th>status</th><th>findings</th></tr>\n${findings}\n</table>` : '<p>None.</p>'}
${rulesTable(cert)}
<h2>Exchanges</h2>
<table><tr><th>scenario</th><th>step</th><th>operation</th><th>request</th><th>recorded</th><th>live</th><th>result</th><th>time</th></tr>
${exchanges}
</table>`;
}

function generationSection(cert: RestCertificate): string {
  const g = cert.generation;
  if (!g) return '';
  const rows = Object.entries(g.perOperation)
    .map(([op, c]) => `<tr><th><code>${esc(op)}</code></th><td>${c.valid}</td><td>${c.invalid}</td><td>${c.security}</td><td>${c.shrunk}</td><td>${c.total}</td></tr>`)
    .join('\n');
  return `<h2>Generated cases</h2>
<p>${g.cases} requests generated from the spec's schemas in ${(g.durationMs / 1000).toFixed(1)} s, seed <code>${g.seed}</code> (send the same again with <code>${esc(g.reproduce)}</code>). Valid requests must be served; each invalid one breaks exactly one constraint and must be refused with a 4XX; each credential variant with 401 or 403.</p>
<table><tr><th>operation</th><th>valid</th><th>invalid</th><th>credentials</th><th>shrunk failures</th><th>total</th></tr>
${rows}
</table>`;
}

function webhookSections(cert: WebhookCertificate): string {
  const settings = Object.entries(cert.settings)
    .map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(String(v))}</dd>`)
    .join('');
  const notes = cert.notes.map((n) => `<li>${esc(n)}</li>`).join('');
  const findings = cert.rules
    .filter((r) => r.findings.length)
    .map((r) => `<tr><td><code>${esc(r.id)}</code></td><td>${r.findings.map((f) => `<div class="${f.severity}">${esc(f.subject)}: ${esc(f.message)}</div>`).join('')}</td></tr>`)
    .join('\n');
  const probes = (cert.probes ?? [])
    .map((p) => `<tr><td>${esc(p.group)}</td><td>${esc(p.name)}</td><td>${esc(p.expect)}</td><td>${p.status ?? esc(`no answer (${p.transportError ?? 'transport error'})`)}</td></tr>`)
    .join('\n');
  const deliveries = (cert.deliveries ?? [])
    .map((d) => `<tr><td>${d.seq}</td><td>${esc(d.phase)}</td><td>${esc(d.event ?? '—')}</td><td>${esc(d.method)}</td><td>${d.answer}${d.abandonedBySender ? ' (abandoned by the sender)' : ''}</td><td>${d.receivedAtMs.toFixed(0)} ms</td><td>${d.endedAtMs === undefined ? '—' : `${d.endedAtMs.toFixed(0)} ms`}</td></tr>`)
    .join('\n');
  return `<h2>Settings and tolerances</h2>
<dl>${settings}</dl>
${notes ? `<h2>Notes</h2>\n<ul>${notes}</ul>\n` : ''}${rulesTable(cert)}
<h2>Findings</h2>
${findings ? `<table><tr><th>rule</th><th>findings</th></tr>\n${findings}\n</table>` : '<p>None.</p>'}
${probes ? `<h2>Probes</h2>\n<table><tr><th>group</th><th>probe</th><th>expected</th><th>answer</th></tr>\n${probes}\n</table>` : ''}
${deliveries ? `<h2>Deliveries received</h2>\n<table><tr><th>#</th><th>phase</th><th>event</th><th>method</th><th>answered</th><th>arrived</th><th>ended</th></tr>\n${deliveries}\n</table>` : ''}`;
}

export function reportHtml(cert: Certificate): string {
  const title = `Storefront ${targetLabel(cert.certifies)} certification`;
  const r = cert.summary.rules;
  const where =
    cert.certifies === 'rest'
      ? `<code>${esc(cert.target.url)}</code>, store <code>${esc(cert.target.storeId)}</code>${cert.target.embeddedMock ? ' (embedded mock)' : ''}`
      : `<code>${esc(cert.target.url)}</code>`;
  const exchanges =
    cert.certifies === 'rest'
      ? `<dt>Exchanges</dt><dd>${cert.exchangeSummary.judged} judged: ${cert.exchangeSummary.passed} passed, ${cert.exchangeSummary.failed} failed</dd>\n`
      : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}: ${esc(cert.verdict)}</title><style>${CSS}</style></head>
<body>
<h1>${title}</h1>
<p><span class="verdict ${cert.verdict}">${esc(verdictLabel(cert))}</span>${cert.strict ? ' strict: warnings counted as errors' : ''}</p>
<dl>
<dt>Target</dt><dd>${where}</dd>
<dt>Contract</dt><dd><code>${esc(cert.spec.source)}</code> version ${esc(cert.spec.version)}, sha256 <code>${esc(cert.spec.sha256)}</code></dd>
<dt>Certifier</dt><dd>${esc(cert.tool.package)} ${esc(cert.tool.version)} (<code>${esc(cert.tool.command)}</code>)</dd>
<dt>Run</dt><dd>${esc(cert.startedAt)}, ${(cert.durationMs / 1000).toFixed(1)} s</dd>
<dt>Rules</dt><dd>${r.total} (${r.stated} stated, ${r.designed} designed): ${r.passed} passed, ${r.failed} failed, ${r.warned} warned, ${r.skipped} skipped; ${cert.summary.errors} errors, ${cert.summary.warnings} warnings</dd>
${exchanges}</dl>
${cert.certifies === 'rest' ? restSections(cert) : webhookSections(cert)}
</body></html>
`;
}
