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
import { SHARD_REPORT_KIND, SHARD_REPORT_PATTERN, shardDigest, shardReportText, type ShardReport } from '../report/shard.js';
import { validateShardReport, type CheckedShardReport } from '../report/shard-schema.js';
import type { ErrorObject } from 'ajv';
import { getPointer, toPointer } from 'storefront-contract/contract';
import { describeError } from 'storefront-contract/validators';
import type { Rule } from '../rules/model.js';
import type { Exchange } from '../rules/observations/rest.js';
import { restRules } from '../rules/rest/index.js';
import { RuleTally } from '../rules/run.js';
import { buildRestCertificate } from './certificate.js';
import type { ExchangeResult } from './exchange.js';
import { MAX_SHARDS } from './shard.js';

/** Shards that cannot be merged into one certificate: the message is one line naming the report and the fix. */
export class MergeError extends Error {}

export interface LoadedShard {
  file: string;
  report: ShardReport;
  /** `sha256:<hex>` of the file's bytes (report/shard.ts shardDigest). */
  digest?: string;
}

/** The digests the merge expects (`--expect-digest i/N=sha256:<hex>`): digest -> the shard `i/N` it is of. */
export type ExpectedDigests = ReadonlyMap<string, string>;

/** What a merge vouches for and what it cannot, said in every merged certificate (and the guide). */
export const MERGE_VOUCHES =
  'A merge checks that the shard reports are the parts of one run (the same contract, recordings, tool, target and flags; each shard once) and computes the verdict from every exchange they report; it cannot check that a report holds what its shard observed: that rests on the shard jobs, and on each report being the file its job wrote (its digest, which the job printed; certify merge --expect-digest checks them).';

const rel = (file: string) => path.relative(process.cwd(), file) || file;

/**
 * At most this many bytes of shard reports are read, all shards together: a merge holds every report in
 * memory, so a hostile or damaged file must not decide how much. A run at --generate 1000 (about 19,000
 * exchanges) writes about 10 MB of shard reports; see docs/guides/certification.md.
 */
export const MAX_SHARD_REPORT_BYTES = 256 * 1024 * 1024;

/** What to do about a shard report that is damaged or was changed after its shard wrote it. */
const RERUN = "re-run that shard (or download its artifact again): the merge reads only the shard-<i>-of-<N>.json a certify --shard run wrote";

/**
 * The shard reports in `paths`: each a shard report file, or a folder holding `shard-<i>-of-<N>.json` files.
 * With `expected`, a report whose digest is not one of them is refused before it is parsed.
 */
export function readShardReports(paths: readonly string[], expected?: ExpectedDigests): LoadedShard[] {
  if (!paths.length) throw new MergeError('no shard reports given: pass the report folder of every shard (certify merge <dir>...)');
  const files: string[] = [];
  for (const p of paths) {
    if (!existsSync(p)) throw new MergeError(`${p}: no such file or folder; pass the --report-dir of each certify --shard run`);
    if (!statSync(p).isDirectory()) {
      files.push(p);
      continue;
    }
    // Stryker disable next-line MethodExpression: Node's readdirSync already returns names in this order (libuv's scandir sorts them); the sort says the order does not rest on that
    const found = readdirSync(p).filter((f) => SHARD_REPORT_PATTERN.test(f)).sort();
    if (!found.length) throw new MergeError(`${p}: holds no shard report (shard-<i>-of-<N>.json); pass the --report-dir of a certify --shard i/N run`);
    files.push(...found.map((f) => path.join(p, f)));
  }
  if (files.length > MAX_SHARDS) throw new MergeError(`${files.length} shard reports given, and a run has at most ${MAX_SHARDS} shards (certify --shard i/N, N <= ${MAX_SHARDS}): pass the report folders of one run`);
  let bytes = 0;
  for (const file of files) {
    bytes += statSync(file).size;
    if (bytes > MAX_SHARD_REPORT_BYTES) throw new MergeError(`${rel(file)}: the shard reports given reach ${mib(bytes)} with this one, more than the ${mib(MAX_SHARD_REPORT_BYTES)} certify merge reads; ${RERUN}`);
  }
  const shards = files.map((file) => readShardReport(file, expected));
  if (expected && expected.size !== shards.length) {
    const given = new Set(shards.map((s) => s.digest));
    const unused = [...expected].filter(([digest]) => !given.has(digest)).map(([, label]) => label);
    throw new MergeError(`--expect-digest names ${expected.size} shard reports and ${shards.length} were given (none has the digest given for ${unused.join(', ')}): pass the report of every shard of the run`);
  }
  return shards;
}

// Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: only called with more than 256 MiB, where the precision is always 0
const mib = (n: number) => `${(n / 1024 / 1024).toFixed(n < 1024 * 1024 ? 2 : 0)} MiB`;

/** A value as one short, printable piece of a message (JSON escapes control characters and quotes). */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/** A place (`['exchanges', '3', 'status']`) as a reader names the field: `exchanges[3].status`. */
function fieldName(parts: string[]): string {
  const name = parts.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : /^[A-Za-z_][\w-]*$/.test(p) ? `${i ? '.' : ''}${p}` : `[${shown(p)}]`)).join('');
  return name || 'the report';
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  boolean: 'true or false',
  float64: 'a number',
  timestamp: 'an RFC 3339 date and time',
  // Stryker disable next-line StringLiteral: the one uint8, formatVersion, is refused before the schema unless it is 1
  uint8: 'a whole number from 0 to 255',
  uint16: 'a whole number from 0 to 65535',
  uint32: 'a whole number from 0 to 4294967295',
  array: 'a list',
  object: 'an object',
};

/** The first thing wrong with a report the schema refused, as a field and what it must be. */
function schemaProblem(doc: unknown, error: ErrorObject): string {
  const params = error.params as { type?: string; error?: string; missingProperty?: string; additionalProperty?: string; allowedValues?: unknown[] };
  // Ajv points an unknown property's error at the property itself: name the object that holds it.
  // The place through the library's one reading of an Ajv error (JTD errors keep the path they point at).
  const place = describeError(error).segments;
  const segments = params.additionalProperty !== undefined ? place.slice(0, -1) : place;
  const at = fieldName(segments);
  const value = getPointer(doc, toPointer(segments));
  if (params.type) return `${at} must be ${TYPE_NAMES[params.type] ?? params.type}, not ${shown(value)}`;
  // Stryker disable next-line ArrayDeclaration: a JTD enum error always carries its allowedValues
  if (error.keyword === 'enum') return `${at} must be ${(params.allowedValues ?? []).map(shown).join(' or ')}, not ${shown(value)}`;
  if (params.missingProperty !== undefined) return `${at} has no ${shown(params.missingProperty)}`;
  // Stryker disable next-line ConditionalExpression: the last kind of error the shard schema raises (see below), so the test is always true here
  if (params.additionalProperty !== undefined) return `${at} has a field ${shown(params.additionalProperty)} that a shard report does not have`;
  // Stryker disable next-line StringLiteral,LogicalOperator: the shard schema has no discriminator, so every JTD error it raises is a type, an enum, a missing or an unknown property (above)
  return `${at} ${error.message ?? 'is not what a shard report holds'}`;
}

/** Refuses numbers JSON.parse turned into Infinity (`1e400`): no field of a report holds one. */
function finiteNumbers(key: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new MergeError(`${shown(key)} holds a number too large to be one a shard wrote`);
  return value;
}

function readShardReport(file: string, expected?: ExpectedDigests): LoadedShard {
  const bytes = readFileSync(file);
  const digest = shardDigest(bytes);
  // Before anything of the file is read: a report that is not the one its shard job wrote says nothing.
  if (expected && !expected.has(digest)) throw new MergeError(`${rel(file)}: its digest ${digest} is none of the --expect-digest values: the report is not the file its shard job wrote (it changed since, or is of another run); merge the artifact that job uploaded, or re-run that shard`);
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString('utf8'), finiteNumbers);
  } catch (e) {
    throw new MergeError(`${rel(file)}: not a shard report (${(e as Error).message.split('\n')[0]}); pass the shard-<i>-of-<N>.json a certify --shard run wrote`);
  }
  // Any JSON value but null has no `kind` unless it is an object that has one.
  const head = (doc ?? {}) as { kind?: unknown; formatVersion?: unknown };
  if (head.kind !== SHARD_REPORT_KIND) throw new MergeError(`${rel(file)}: not a shard report (kind ${shown(head.kind)}, expected ${SHARD_REPORT_KIND}); pass the shard-<i>-of-<N>.json a certify --shard run wrote`);
  if (head.formatVersion !== 1) throw new MergeError(`${rel(file)}: shard report format ${shown(head.formatVersion)} is not one this version reads (1); merge with the version of storefront-contract-tools that ran the shards`);
  if (!validateShardReport(doc)) throw new MergeError(`${rel(file)}: ${schemaProblem(doc, validateShardReport.errors![0])}; ${RERUN}`);
  const problem = beyondSchema(doc);
  if (problem) throw new MergeError(`${rel(file)}: ${problem}; ${RERUN}`);
  const label = `${doc.shard.index}/${doc.shard.total}`;
  if (expected && expected.get(digest) !== label) throw new MergeError(`${rel(file)} is shard ${label}, and its digest was given for shard ${expected.get(digest)} (--expect-digest): give each shard's digest as its job printed it`);
  return { file, report: doc as unknown as ShardReport, digest };
}

/** What the schema cannot state: the bounds of the shard, scalar settings, the tables' indexes. */
function beyondSchema(doc: CheckedShardReport): string | undefined {
  const { index, total } = doc.shard;
  if (total < 1 || total > MAX_SHARDS) return `shard.total is ${total}, and a run has 1 to ${MAX_SHARDS} shards (certify --shard i/N, N <= ${MAX_SHARDS})`;
  if (index < 1 || index > total) return `shard.index is ${index}, not a shard of ${total} (1 to ${total})`;
  const started = Date.parse(doc.startedAt);
  if (!Number.isFinite(started) || !Number.isFinite(new Date(started + doc.durationMs).getTime()) || doc.durationMs < 0) return `startedAt ${shown(doc.startedAt)} and durationMs ${shown(doc.durationMs)} are not the time of a run`;
  for (const [key, value] of Object.entries(doc.settings)) {
    if (value !== null && !['string', 'number', 'boolean'].includes(typeof value)) return `settings[${shown(key)}] must be a string, a number, true, false or null, not ${shown(value)}`;
  }
  const concurrency = doc.settings.concurrency;
  if (typeof concurrency !== 'number' || !Number.isInteger(concurrency) || concurrency < 1) return `settings.concurrency must be a whole number from 1, not ${shown(concurrency)}`;
  if (doc.settings.only !== undefined && doc.settings.only !== null && typeof doc.settings.only !== 'string') return `settings.only must be a string or null, not ${shown(doc.settings.only)}`;
  for (const [i, ex] of doc.exchanges.entries()) {
    if (ex.observed !== undefined && ex.observed !== true) return `exchanges[${i}].observed must be true when present, not ${shown(ex.observed)}`;
    const judged = ex.ruleTally.judged.find((r) => r >= doc.rules.length);
    if (judged !== undefined) return `exchanges[${i}].ruleTally.judged holds ${judged}, and the report lists ${doc.rules.length} rules`;
    for (const pair of ex.ruleTally.skipped) {
      if (pair.length !== 2 || pair[0] >= doc.rules.length || pair[1] >= doc.skipReasons.length) return `exchanges[${i}].ruleTally.skipped holds ${shown(pair)}, not a [rule, reason] pair of the report's ${doc.rules.length} rules and ${doc.skipReasons.length} reasons`;
    }
  }
  return undefined;
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

/**
 * The certificate of the whole run, or a MergeError when the shards are not the N parts of one run.
 * `digestsChecked`: the reports' digests were checked against the ones their jobs printed (--expect-digest).
 */
export function mergeShards(shards: readonly LoadedShard[], options: { digestsChecked?: boolean } = {}): RestCertificate {
  if (!shards.length) throw new MergeError('no shard reports given: pass the report folder of every shard (certify merge <dir>...)');
  const [first] = shards;
  const total = first.report.shard.total;
  // Stryker disable next-line MethodExpression: the first shard compared with itself finds nothing
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
  const certificate = buildRestCertificate({
    run: { results, rules: tally.results(), startedAt: new Date(startedAt), durationMs: finishedAt - startedAt },
    recorded: first.report.recordings.recorded,
    scenarios: first.report.recordings.scenarios,
    target: first.report.target,
    concurrency: Number(settings.concurrency),
    only: typeof settings.only === 'string' ? settings.only.split(',') : undefined,
    strict: settings.strict === true,
    generation: mergedGeneration(ordered.map((s) => s.report)),
    notes: [`merged from ${total} shards (certify --shard i/${total}, then certify merge)`, MERGE_VOUCHES],
  });
  const digests = ordered.map((s) => ({ shard: `${s.report.shard.index}/${total}`, digest: s.digest ?? shardDigest(shardReportText(s.report)) }));
  return { ...certificate, merge: { shards: digests, digestsChecked: options.digestsChecked === true } };
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
