// The terminal summary of a certificate: the verdict and what was certified, the contract, the rules
// (how many stated, how many designed), what failed and where, the advice (warnings), what was skipped and
// why, then the REST coverage or the webhook timing tolerances, and the report files.
import { verdictLabel, type Certificate, type RestCertificate } from './certificate.js';
import { targetLabel } from './source.js';

const MAX_DETAILS = 3;

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

function headline(cert: Certificate): string {
  if (cert.certifies === 'rest' && cert.traffic) {
    const where = cert.traffic.source === 'proxy' ? `through the proxy to ${cert.target.url} (store` : `in ${cert.traffic.file} (${cert.target.url}, store`;
    return `storefront traffic ${where} ${cert.target.storeId})`;
  }
  if (cert.certifies === 'rest') return `${cert.target.url} (store ${cert.target.storeId}${cert.target.embeddedMock ? ', embedded mock' : ''})`;
  return `${targetLabel(cert.certifies)} ${cert.target.url}`;
}

/** Rule id -> what failed: the operations for REST, the first findings for webhooks. */
function failures(cert: Certificate): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (cert.certifies === 'rest') {
    for (const ex of cert.exchanges) {
      if (!ex.judged) continue;
      for (const f of ex.findings) {
        if (f.severity !== 'error') continue;
        const ops = out.get(f.rule) ?? [];
        if (!ops.includes(ex.operationId)) ops.push(ex.operationId);
        out.set(f.rule, ops);
      }
    }
    return new Map([...out].map(([rule, ops]) => [rule, [ops.join(', ')]]));
  }
  for (const r of cert.rules) {
    const errors = r.findings.filter((f) => f.severity === 'error');
    if (!errors.length) continue;
    const shown = errors.slice(0, MAX_DETAILS).map((f) => `${f.subject}: ${f.message}`);
    if (errors.length > MAX_DETAILS) shown.push(`… ${errors.length - MAX_DETAILS} more (see the report)`);
    out.set(r.id, shown);
  }
  return out;
}

function coverageLines(cert: RestCertificate): string[] {
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
  // A shard's part covers a part of the matrix: the merge has the run's coverage and what it missed.
  if (cert.shard) return [`  coverage of this part: ${exercised}/${documented} documented statuses exercised, ${passed} passed (certify merge gives the run's)`];
  const lines = [`  coverage: ${exercised}/${documented} documented statuses exercised, ${passed} passed`];
  const missing = Object.entries(cert.coverage).flatMap(([op, st]) => Object.entries(st).filter(([, c]) => !c.exercised).map(([code]) => `${op} ${code}`));
  // Traffic exercises what its clients did: the whole list is in the report, not worth a screen here.
  if (missing.length && cert.traffic) lines.push(`  not exercised by this traffic: ${missing.length} documented statuses (the coverage matrix of report.html)`);
  else if (missing.length) lines.push(`  not exercised: ${missing.join(', ')}`);
  return lines;
}

/** The generative phase: cases per operation, the seed that replays them, each minimal failing request. */
function generationLines(cert: RestCertificate): string[] {
  const g = cert.generation;
  if (!g) return [];
  const per = Object.entries(g.perOperation).map(([op, c]) => `${op} ${c.total}`).join(', ');
  const lines = [`  generated: ${count(g.cases, 'case')} in ${(g.durationMs / 1000).toFixed(1)} s (seed ${g.seed}; again with ${g.reproduce}): ${per}`];
  for (const ex of cert.exchanges) if (ex.generated?.curl) lines.push(`  minimal failing request, ${ex.operationId} (${ex.generated.label}): ${ex.generated.curl}`);
  return lines;
}

/** The first word: a certificate's verdict, or for observed traffic whether it broke the contract. */

export function summaryText(cert: Certificate, files: string[] = []): string {
  const r = cert.summary.rules;
  const lines = [
    '',
    `${verdictLabel(cert)}${cert.strict ? ' (strict)' : ''}: ${headline(cert)}`,
    `  contract ${cert.spec.source} ${cert.spec.version} sha256:${cert.spec.sha256.slice(0, 12)}`,
    `  ${r.total} rules (${r.stated} stated, ${r.designed} designed): ${r.passed} passed, ${r.failed} failed, ${r.warned} warned, ${r.skipped} skipped; ${count(cert.summary.errors, 'error')}, ${count(cert.summary.warnings, 'warning')}; ${(cert.durationMs / 1000).toFixed(1)} s`,
  ];
  if (cert.certifies === 'rest') {
    const e = cert.exchangeSummary;
    lines.push(`  ${count(e.judged, 'exchange')} judged: ${e.passed} passed, ${e.failed} failed${e.unsent ? ` (${e.unsent} could not be sent)` : ''}`);
    const t = cert.traffic;
    if (t) {
      const n = t.notJudged;
      lines.push(`  not judged: ${n.outsideStorefront} outside the storefront API, ${n.otherStore} of another store, ${n.noOperation} on no operation of the contract, ${n.bodyNotJudged} with a body that could not be judged`);
    }
  }
  const failing = failures(cert);
  if (failing.size) {
    lines.push(`  failing rules: ${[...failing.keys()].join(', ')}`);
    for (const [rule, details] of failing) for (const d of details) lines.push(`    ${rule}: ${d}`);
  }
  const warned = cert.rules.filter((x) => x.warnings > 0);
  if (warned.length) lines.push(`  warnings (advice, not failing): ${warned.map((x) => `${x.id} (${x.warnings}, ${x.source.kind})`).join(', ')}`);
  for (const x of cert.rules.filter((y) => y.status === 'skipped')) lines.push(`  skipped: ${x.id} (${x.skipped})`);
  if (cert.certifies === 'rest') lines.push(...coverageLines(cert), ...generationLines(cert));
  else if (typeof cert.settings.tolerances === 'string') lines.push(`  timing: ${cert.settings.tolerances}`);
  for (const f of files) lines.push(`  report: ${f}`);
  return lines.join('\n');
}
