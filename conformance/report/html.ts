// report.html: one self-contained page (inline CSS, no scripts, no external assets) a person can read:
// the verdict, the rules with the contract statement each enforces (stated or designed), then the
// evidence: the REST coverage matrix, findings and exchanges, or the webhook settings, findings, probes
// and deliveries. Built only from `markup` templates (markup.ts): every value a certificate holds is escaped
// where it is put into the page, whatever field it comes from.
import { verdictLabel, type Certificate, type RestCertificate, type WebhookCertificate } from './certificate.js';
import { describeSource, targetLabel } from './source.js';
import { markup as html, serialize, type Markup } from './markup.js';

const CSS = html`
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1200px;padding:0 1rem;color:#1d1d1f}
h1{font-size:1.5rem;margin:0 0 .25rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ddd;padding-bottom:.25rem}
.verdict{display:inline-block;padding:.3rem .8rem;border-radius:4px;font-weight:700;color:#fff}
.certified{background:#1a7f37}.not-certified{background:#cf222e}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}td.pass,td.passed{background:#dafbe1}td.fail,td.failed{background:#ffebe9}td.not-run,td.skipped{background:#f6f8fa;color:#666}td.warned{background:#fff8c5}td.na{background:#fff}
code{font:12px ui-monospace,monospace}.warning{color:#9a6700}.error{color:#cf222e}dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{font-weight:600}
`;

/** Rows of a table, one a line. */
const lines = (rows: readonly Markup[]): Markup[] => rows.map((row, i) => (i ? html`\n${row}` : row));

function rulesTable(cert: Certificate): Markup {
  const rows = cert.rules.map(
    (r) =>
      html`<tr><td><code>${r.id}</code></td><td>${describeSource(r.source)}</td><td>${r.severity}</td><td>${r.summary}</td><td class="${r.status}">${r.status}${r.skipped ? `: ${r.skipped}` : ''}</td><td>${r.errors}</td><td>${r.warnings}</td></tr>`,
  );
  return html`<h2>Rules</h2>
<p>A <b>stated</b> rule enforces what the platform's interface document says; a <b>designed</b> rule enforces what this spec designed where that document leaves the matter open, and only advises (warnings) unless the run is strict. A skipped rule could not observe what it judges: it has not passed.</p>
<table><tr><th>rule</th><th>source</th><th>severity</th><th>requires</th><th>result</th><th>errors</th><th>warnings</th></tr>
${lines(rows)}
</table>`;
}

function restSections(cert: RestCertificate): Markup {
  const statuses = [...new Set(Object.values(cert.coverage).flatMap((s) => Object.keys(s)))].sort();
  const matrix = Object.entries(cert.coverage).map(([op, cells]) => {
    const tds = statuses.map((code) => {
      const c = cells[code];
      if (!c) return html`<td class="na"></td>`;
      const cls = !c.exercised ? 'not-run' : c.passed ? 'pass' : 'fail';
      const label = !c.exercised ? (c.recorded ? 'recorded, not exercised' : 'not recorded') : c.passed ? 'passed' : 'FAILED';
      return html`<td class="${cls}">${label}</td>`;
    });
    return html`<tr><th><code>${op}</code></th>${tds}</tr>`;
  });
  const findings = cert.exchanges
    .filter((e) => e.judged && e.findings.length)
    .map(
      (e) =>
        html`<tr><td><code>${e.operationId}</code></td><td><code>${`${e.method} ${e.path}`}</code><br>${`${e.scenario}/${e.step}`}${e.generated?.curl ? html`<br>minimal failing request (${e.generated.shrinks} shrinking steps):<br><code>${e.generated.curl}</code>` : ''}</td><td>${e.status ?? '—'} ${e.generated ? '(generated)' : e.observed ? '(observed)' : `(recorded ${e.recordedStatus})`}</td><td>${e.findings.map(
          (f) => html`<div class="${f.severity}"><b>${f.rule}</b> (${f.severity}): ${f.message}</div>`,
        )}</td></tr>`,
    );
  const exchanges = cert.exchanges
    .filter((e) => e.judged)
    .map((e) => {
      const bad = e.error || e.findings.some((f) => f.severity === 'error');
      return html`<tr><td>${e.scenario}</td><td>${e.step}</td><td><code>${e.operationId}</code></td><td><code>${`${e.method} ${e.path}`}</code></td><td>${e.generated ? 'generated' : e.observed ? '—' : e.recordedStatus}</td><td>${e.status ?? '—'}</td><td class="${bad ? 'fail' : 'pass'}">${bad ? 'fail' : e.findings.length ? 'pass (warnings)' : 'pass'}</td><td>${e.durationMs.toFixed(1)} ms</td></tr>`;
    });
  const traffic = cert.traffic ? html`<h2>Traffic</h2>\n<ul>${cert.notes.map((n) => html`<li>${n}</li>`)}</ul>\n` : '';
  return html`${traffic}${mergeSection(cert)}<h2>Coverage: operation × documented status</h2>
<table><tr><th>operation</th>${statuses.map((c) => html`<th>${c}</th>`)}</tr>
${lines(matrix)}
</table>
${generationSection(cert)}
<h2>Findings</h2>
${findings.length ? html`<table><tr><th>operation</th><th>request</th><th>status</th><th>findings</th></tr>\n${lines(findings)}\n</table>` : html`<p>None.</p>`}
${rulesTable(cert)}
<h2>Exchanges</h2>
<table><tr><th>scenario</th><th>step</th><th>operation</th><th>request</th><th>recorded</th><th>live</th><th>result</th><th>time</th></tr>
${lines(exchanges)}
</table>`;
}

/** A merged certificate: what the merge vouches for, and each shard report's digest. */
function mergeSection(cert: RestCertificate): Markup | '' {
  if (!cert.merge) return '';
  const rows = cert.merge.shards.map((s) => html`<tr><td>${s.shard}</td><td><code>${s.digest}</code></td></tr>`);
  return html`<h2>Merged from ${cert.merge.shards.length} shards</h2>
<ul>${cert.notes.map((n) => html`<li>${n}</li>`)}</ul>
<p>${cert.merge.digestsChecked ? 'Each report was checked against the digest its shard job printed (--expect-digest).' : "The reports' digests were not checked (no --expect-digest): compare each with the \"shard digest\" line its shard job printed."}</p>
<table><tr><th>shard</th><th>report digest</th></tr>
${lines(rows)}
</table>
`;
}

function generationSection(cert: RestCertificate): Markup | '' {
  const g = cert.generation;
  if (!g) return '';
  const rows = Object.entries(g.perOperation).map(
    ([op, c]) => html`<tr><th><code>${op}</code></th><td>${c.valid}</td><td>${c.invalid}</td><td>${c.security}</td><td>${c.shrunk}</td><td>${c.total}</td></tr>`,
  );
  return html`<h2>Generated cases</h2>
<p>${g.cases} requests generated from the spec's schemas in ${(g.durationMs / 1000).toFixed(1)} s, seed <code>${g.seed}</code> (send the same again with <code>${g.reproduce}</code>). Valid requests must be served; each invalid one breaks exactly one constraint and must be refused with a 4XX; each credential variant with 401 or 403.</p>
<table><tr><th>operation</th><th>valid</th><th>invalid</th><th>credentials</th><th>shrunk failures</th><th>total</th></tr>
${lines(rows)}
</table>`;
}

function webhookSections(cert: WebhookCertificate): Markup {
  const settings = Object.entries(cert.settings).map(([k, v]) => html`<dt>${k}</dt><dd>${String(v)}</dd>`);
  const notes = cert.notes.map((n) => html`<li>${n}</li>`);
  const findings = cert.rules
    .filter((r) => r.findings.length)
    .map((r) => html`<tr><td><code>${r.id}</code></td><td>${r.findings.map((f) => html`<div class="${f.severity}">${f.subject}: ${f.message}</div>`)}</td></tr>`);
  const probes = (cert.probes ?? []).map(
    (p) => html`<tr><td>${p.group}</td><td>${p.name}</td><td>${p.expect}</td><td>${p.status ?? `no answer (${p.transportError ?? 'transport error'})`}</td></tr>`,
  );
  const deliveries = (cert.deliveries ?? []).map(
    (d) =>
      html`<tr><td>${d.seq}</td><td>${d.phase}</td><td>${d.event ?? '—'}</td><td>${d.method}</td><td>${d.answer}${d.abandonedBySender ? ' (abandoned by the sender)' : ''}</td><td>${d.receivedAtMs.toFixed(0)} ms</td><td>${d.endedAtMs === undefined ? '—' : `${d.endedAtMs.toFixed(0)} ms`}</td></tr>`,
  );
  return html`<h2>Settings and tolerances</h2>
<dl>${settings}</dl>
${notes.length ? html`<h2>Notes</h2>\n<ul>${notes}</ul>\n` : ''}${rulesTable(cert)}
<h2>Findings</h2>
${findings.length ? html`<table><tr><th>rule</th><th>findings</th></tr>\n${lines(findings)}\n</table>` : html`<p>None.</p>`}
${probes.length ? html`<h2>Probes</h2>\n<table><tr><th>group</th><th>probe</th><th>expected</th><th>answer</th></tr>\n${lines(probes)}\n</table>` : ''}
${deliveries.length ? html`<h2>Deliveries received</h2>\n<table><tr><th>#</th><th>phase</th><th>event</th><th>method</th><th>answered</th><th>arrived</th><th>ended</th></tr>\n${lines(deliveries)}\n</table>` : ''}`;
}

export function reportHtml(cert: Certificate): string {
  const title = `Storefront ${targetLabel(cert.certifies)} certification`;
  const r = cert.summary.rules;
  const where =
    cert.certifies === 'rest'
      ? html`<code>${cert.target.url}</code>, store <code>${cert.target.storeId}</code>${cert.target.embeddedMock ? ' (embedded mock)' : ''}`
      : html`<code>${cert.target.url}</code>`;
  const exchanges =
    cert.certifies === 'rest'
      ? html`<dt>Exchanges</dt><dd>${cert.exchangeSummary.judged} judged: ${cert.exchangeSummary.passed} passed, ${cert.exchangeSummary.failed} failed</dd>\n`
      : '';
  return serialize(html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}: ${cert.verdict}</title><style>${CSS}</style></head>
<body>
<h1>${title}</h1>
<p><span class="verdict ${cert.verdict}">${verdictLabel(cert)}</span>${cert.strict ? ' strict: warnings counted as errors' : ''}</p>
<dl>
<dt>Target</dt><dd>${where}</dd>
<dt>Contract</dt><dd><code>${cert.spec.source}</code> version ${cert.spec.version}, sha256 <code>${cert.spec.sha256}</code></dd>
<dt>Certifier</dt><dd>${cert.tool.package} ${cert.tool.version} (<code>${cert.tool.command}</code>)</dd>
<dt>Run</dt><dd>${cert.startedAt}, ${(cert.durationMs / 1000).toFixed(1)} s</dd>
<dt>Rules</dt><dd>${r.total} (${r.stated} stated, ${r.designed} designed): ${r.passed} passed, ${r.failed} failed, ${r.warned} warned, ${r.skipped} skipped; ${cert.summary.errors} errors, ${cert.summary.warnings} warnings</dd>
${exchanges}</dl>
${cert.certifies === 'rest' ? restSections(cert) : webhookSections(cert)}
</body></html>
`);
}
