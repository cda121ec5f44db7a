// `certify merge <dirs...>`: the certificate of a sharded run, from the reports of its N shards
// (report/shard.ts). The shards must be the parts of one run: the same contract, recordings, tool,
// target, settings and rules, each shard 1..N exactly once; otherwise one line says which report differs
// and how (MergeError). The certificate is then computed as an unsharded run computes it: every exchange
// in the run's order, each rule's result tallied again from every shard's observations (what it judged,
// its findings, why it skipped), the coverage matrix and the counts from all exchanges, the verdict from
// those. Nothing is summed from the shards' partial verdicts.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { RestCertificate } from '../report/certificate.js';
import { SHARD_REPORT_KIND, SHARD_REPORT_PATTERN, type ShardReport } from '../report/shard.js';
import type { Rule } from '../rules/model.js';
import type { Exchange } from '../rules/observations/rest.js';
import { restRules } from '../rules/rest/index.js';
import { RuleTally } from '../rules/run.js';
import { buildRestCertificate } from './certificate.js';
import type { ExchangeResult } from './exchange.js';

/** Shards that cannot be merged into one certificate: the message is one line naming the report and the fix. */
export class MergeError extends Error {}

export interface LoadedShard {
  file: string;
  report: ShardReport;
}

const rel = (file: string) => path.relative(process.cwd(), file) || file;

/** The shard reports in `paths`: each a shard report file, or a folder holding `shard-<i>-of-<N>.json` files. */
export function readShardReports(paths: readonly string[]): LoadedShard[] {
  if (!paths.length) throw new MergeError('no shard reports given: pass the report folder of every shard (certify merge <dir>...)');
  const files: string[] = [];
  for (const p of paths) {
    if (!existsSync(p)) throw new MergeError(`${p}: no such file or folder; pass the --report-dir of each certify --shard run`);
    if (!statSync(p).isDirectory()) {
      files.push(p);
      continue;
    }
    const found = readdirSync(p).filter((f) => SHARD_REPORT_PATTERN.test(f)).sort();
    if (!found.length) throw new MergeError(`${p}: holds no shard report (shard-<i>-of-<N>.json); pass the --report-dir of a certify --shard i/N run`);
    files.push(...found.map((f) => path.join(p, f)));
  }
  return files.map((file) => ({ file, report: readShardReport(file) }));
}

function readShardReport(file: string): ShardReport {
  let doc: Partial<ShardReport>;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new MergeError(`${rel(file)}: not a shard report (${(e as Error).message.split('\n')[0]}); pass the shard-<i>-of-<N>.json a certify --shard run wrote`);
  }
  if (doc?.kind !== SHARD_REPORT_KIND) throw new MergeError(`${rel(file)}: not a shard report (kind ${JSON.stringify(doc?.kind)}, expected ${SHARD_REPORT_KIND}); pass the shard-<i>-of-<N>.json a certify --shard run wrote`);
  if (doc.formatVersion !== 1) throw new MergeError(`${rel(file)}: shard report format ${doc.formatVersion} is not one this version reads (1); merge with the version of storefront-contract-tools that ran the shards`);
  const shard = doc.shard;
  if (!shard || !Number.isInteger(shard.index) || !Number.isInteger(shard.total) || shard.index < 1 || shard.index > shard.total) throw new MergeError(`${rel(file)}: the shard report has no valid "shard" (i of N); re-run that shard`);
  if (!Array.isArray(doc.exchanges) || !Array.isArray(doc.rules) || !Array.isArray(doc.skipReasons) || !doc.settings || !doc.target || !doc.spec || !doc.recordings) throw new MergeError(`${rel(file)}: the shard report is incomplete (exchanges, rules, settings, target, spec or recordings missing); re-run that shard`);
  return doc as ShardReport;
}

/** What must be equal across the shards of one run: a label, the value, and what to do about it. */
const IDENTITY: Array<[string, (r: ShardReport) => unknown]> = [
  ['contract', (r) => `${r.spec.source} sha256:${r.spec.sha256.slice(0, 12)}`],
  ['recordings', (r) => `sha256:${r.recordings.sha256.slice(0, 12)}`],
  ['tool', (r) => `${r.tool.package} ${r.tool.version}`],
  ['target', (r) => (r.target.embeddedMock ? 'the embedded mock' : r.target.url)],
  ['store', (r) => r.target.storeId],
  ['rules', (r) => r.rules.join(',')],
];

const describe = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** The certificate of the whole run, or a MergeError when the shards are not the N parts of one run. */
export function mergeShards(shards: readonly LoadedShard[]): RestCertificate {
  if (!shards.length) throw new MergeError('no shard reports given: pass the report folder of every shard (certify merge <dir>...)');
  const [first] = shards;
  const total = first.report.shard.total;
  for (const s of shards.slice(1)) {
    if (s.report.shard.total !== total) throw new MergeError(`${rel(s.file)} is shard ${s.report.shard.index}/${s.report.shard.total} but ${rel(first.file)} is ${first.report.shard.index}/${total}: merge the shards of one run (the same --shard i/N)`);
    for (const [what, read] of IDENTITY) {
      const [a, b] = [read(first.report), read(s.report)];
      if (describe(a) !== describe(b)) throw new MergeError(`${rel(s.file)} was run with another ${what} than ${rel(first.file)} (${describe(b)} vs ${describe(a)}): merge the shards of one run`);
    }
    for (const key of new Set([...Object.keys(first.report.settings), ...Object.keys(s.report.settings)])) {
      const [a, b] = [first.report.settings[key], s.report.settings[key]];
      if (a !== b) throw new MergeError(`${rel(s.file)} was run with ${key} ${describe(b ?? 'unset')} but ${rel(first.file)} with ${describe(a ?? 'unset')}: merge the shards of one run (the same flags)`);
    }
  }
  const byIndex = new Map<number, LoadedShard>();
  for (const s of shards) {
    const twin = byIndex.get(s.report.shard.index);
    if (twin) throw new MergeError(`shard ${s.report.shard.index}/${total} is given twice (${rel(twin.file)} and ${rel(s.file)}): pass each shard's report once`);
    byIndex.set(s.report.shard.index, s);
  }
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length) {
    throw new MergeError(`shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${total}`).join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing (given: ${[...byIndex.keys()].sort((a, b) => a - b).join(', ')}): pass the report of every shard of the run`);
  }

  const rules = rulesOf(first);
  const ordered = [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, s]) => s);
  const settings = first.report.settings;
  const tally = new RuleTally(rules as readonly Rule<never>[], { strict: settings.strict === true });
  const exchanges = ordered.flatMap((s) => s.report.exchanges.map((ex) => ({ ex, report: s.report })));
  // The order of an unsharded run: the replay by scenario and step, then the generated cases by operation and case.
  const replayed = exchanges.filter(({ ex }) => !ex.generated).sort((a, b) => a.ex.scenario.localeCompare(b.ex.scenario) || a.ex.index - b.ex.index);
  const generated = exchanges.filter(({ ex }) => ex.generated).sort((a, b) => a.ex.operationId.localeCompare(b.ex.operationId) || a.ex.index - b.ex.index);
  const results: ExchangeResult[] = [];
  for (const { ex, report } of [...replayed, ...generated]) {
    const { ruleTally: observed, ...result } = ex;
    for (const i of observed.judged) {
      const rule = report.rules[i];
      tally.add(rule, result.findings.filter((f) => f.rule === rule).map(({ rule: _rule, ...f }) => f), result.id);
    }
    for (const [i, reason] of observed.skipped) tally.add(report.rules[i], { skipped: report.skipReasons[reason] }, result.id);
    results.push(result);
  }

  const starts = ordered.map((s) => Date.parse(s.report.startedAt));
  const startedAt = Math.min(...starts);
  const finishedAt = Math.max(...ordered.map((s, i) => starts[i] + s.report.durationMs));
  return buildRestCertificate({
    run: { results, rules: tally.results(), startedAt: new Date(startedAt), durationMs: finishedAt - startedAt },
    recorded: first.report.recordings.recorded,
    scenarios: first.report.recordings.scenarios,
    target: first.report.target,
    concurrency: Number(settings.concurrency),
    only: typeof settings.only === 'string' ? settings.only.split(',') : undefined,
    strict: settings.strict === true,
    generation: mergedGeneration(ordered.map((s) => s.report)),
    notes: [`merged from ${total} shards (certify --shard i/${total}, then certify merge)`],
  });
}

/** The run's rules, in the shards' report order, from this version of the tools. */
function rulesOf(shard: LoadedShard): readonly Rule<Exchange>[] {
  return shard.report.rules.map((id) => {
    const rule = restRules.find((r) => r.id === id);
    if (!rule) throw new MergeError(`${rel(shard.file)}: rule ${id} is not a rule of this version of storefront-contract-tools; merge with the version that ran the shards`);
    return rule;
  });
}

function mergedGeneration(reports: readonly ShardReport[]): RestCertificate['generation'] {
  const parts = reports.map((r) => r.generation).filter((g) => g !== undefined);
  if (!parts.length) return undefined;
  const [first] = parts;
  const perOperation: NonNullable<RestCertificate['generation']>['perOperation'] = {};
  for (const op of first.operations) {
    const cases = parts.find((g) => g.perOperation[op])?.perOperation[op];
    if (cases) perOperation[op] = cases;
  }
  const cases = Object.values(perOperation).reduce((n, c) => n + c.total, 0);
  const durationMs = parts.reduce((n, g) => n + g.durationMs, 0);
  return { count: first.count, seed: first.seed, cases, durationMs, perOperation, reproduce: first.reproduce };
}
