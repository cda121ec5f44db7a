// issue 38: `certify merge` (conformance/rest/merge.ts) on small shard reports, built in process the way
// certify --shard builds them (conformance/rest/certify.ts): real exchanges judged by the real REST rules
// through the one judge (rest/exchange.ts judgeExchange), each shard's observations encoded by its
// ObservedTally, its part certified by buildRestCertificate. Fast (no server, no CLI), so the mutation run
// of the merge can afford it per mutant; test/conformance/shards.test.ts and merge-hostile.test.ts prove the
// same against a sandbox and the real CLI.
//
// What it shows: shards merged in any order give the certificate of the same exchanges judged unsharded
// (rules, findings, skip reasons, counts, coverage, exchange order, times, generation, --strict, --only);
// every refusal of shards that are not the N parts of one run, and of a damaged report file, is one line
// naming the report, the field and the fix.
import { closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRestCertificate } from '../../conformance/rest/certificate.js';
import { judgeExchange, type ExchangeResult } from '../../conformance/rest/exchange.js';
import { MAX_SHARD_REPORT_BYTES, MERGE_VOUCHES, MergeError, mergeShards, readShardReports, type LoadedShard } from '../../conformance/rest/merge.js';
import { ObservedTally, SHARD_REPORT_KIND, shardDigest, shardReportName, shardReportText, type ShardReport } from '../../conformance/report/shard.js';
import type { RestCertificate } from '../../conformance/report/certificate.js';
import { judgesGenerated, type GeneratedCase } from '../../conformance/rules/observations/rest.js';
import { restRules } from '../../conformance/rules/rest/index.js';
import { RuleTally } from '../../conformance/rules/run.js';
import { exchange, page, type ExchangeInput } from './rules/rest/exchange.js';

type Json = Record<string, any>;

/** One exchange of the synthetic run: where it is reported, and what the rules observe. */
interface Unit {
  id: string;
  scenario: string;
  index: number;
  input: ExchangeInput;
  generated?: GeneratedCase;
}

const step = (scenario: string, index: number, input: ExchangeInput): Unit => ({ id: `${scenario}/s${index}`, scenario, index, input });
const gen = (operationId: 'listProducts' | 'createCustomer', index: number, input: ExchangeInput, generated: GeneratedCase): Unit => ({
  id: `generated/${operationId}/${generated.kind}#${index}`,
  scenario: 'generated',
  index,
  input: { ...input, operationId, generated },
  generated,
});
const invalidPage: GeneratedCase = { kind: 'invalid', label: 'page: below the minimum 1', expect: 400, unknownIds: false, designed: false };
const oversized: GeneratedCase = { kind: 'invalid', label: 'body: oversized (2 MiB)', expect: 413, unknownIds: false, designed: true };

const products = (n: number, pagination: Record<string, unknown>) => page({ products: Array.from({ length: n }, (_, i) => ({ id: `p${i}` })) }, pagination);

// The run in the order an unsharded run reports it: the replay by scenario and step, then the generated cases
// by operation and case. Index 10 after 2 (a numeric order), an error (auth-enforced), advice (a designed
// constraint accepted; previous_page past the end), skips with reasons.
const UNITS: Unit[] = [
  step('auth', 1, { operationId: 'listCountries', recordedStatus: 401, status: 200, body: { success: true, message: 'ok', content: { countries: [] } } }),
  step('auth', 2, { operationId: 'listCountries', recordedStatus: 401, status: 401, body: { success: false, message: 'no' } }),
  step('browse', 2, { path: '/catalog/products?page=1&limit=2', body: products(2, { total_records: 3, total_pages: 2, limit: 2, next_page: 2, previous_page: null }) }),
  step('browse', 10, { path: '/catalog/products?page=9&limit=2', body: products(0, { total_records: 3, total_pages: 2, limit: 2, next_page: null, previous_page: 8 }) }),
  gen('createCustomer', 1, { status: 201, body: { success: true, message: 'ok' } }, oversized),
  gen('listProducts', 1, { path: '/catalog/products?page=0', status: 400, body: { success: false, message: 'bad' } }, invalidPage),
  gen('listProducts', 2, { path: '/catalog/products?page=0', status: 200, body: { success: true, message: 'ok' } }, invalidPage),
];

const T0 = Date.parse('2026-01-05T10:00:00.000Z');
const TARGET = { url: 'http://127.0.0.1:1', storeId: 'demo-store', embeddedMock: false };
const RECORDED = ['listCountries 401', 'listProducts 200'];
const SCENARIOS = ['auth', 'browse'];
const GENERATION = { count: 2, seed: 7, durationMs: 0, reproduce: '--generate 2 --seed 7', perOperation: {}, operations: ['createCustomer', 'getVariant', 'listProducts'] };

/** The result of one unit judged by the rules that judge it, tallied where it is reported. */
function judged(unit: Unit, tally: RuleTally, strict: boolean): ExchangeResult {
  const observation = exchange(unit.input);
  const rules = unit.generated ? restRules.filter(judgesGenerated) : restRules;
  const { findings, judgements } = judgeExchange(observation, rules, { strict }, (text) => text);
  for (const [ruleId, judgement] of judgements) tally.add(ruleId, judgement, unit.id);
  const url = new URL(observation.request.url);
  return {
    id: unit.id,
    scenario: unit.scenario,
    step: unit.generated ? unit.generated.label : `s${unit.index}`,
    index: unit.index,
    operationId: observation.step.operation.operationId,
    method: observation.request.method,
    path: `${url.pathname.replace(/^.*\/storefront/, '')}${url.search}`,
    recordedStatus: observation.step.recorded.status,
    status: observation.live.status,
    durationMs: 1,
    findings,
    judged: true,
    ...(unit.generated ? { generated: { kind: unit.generated.kind, label: unit.generated.label } } : {}),
  };
}

interface RunOptions {
  strict?: boolean;
  only?: string[];
  generation?: boolean;
}

const perOperation = (units: readonly Unit[]) => {
  const out: Record<string, { valid: number; invalid: number; security: number; shrunk: number; total: number }> = {};
  for (const u of units.filter((x) => x.generated)) {
    const op = u.input.operationId!;
    out[op] ??= { valid: 0, invalid: 0, security: 0, shrunk: 0, total: 0 };
    out[op][u.generated!.kind]++;
    out[op].total++;
  }
  return out;
};

/** The certificate of the units judged in one run. */
/** Runs judged once per set of options (several tests compare with the same one; nothing here changes them). */
function memo<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const seen = new Map<string, R>();
  return (...args) => {
    const key = JSON.stringify(args);
    if (!seen.has(key)) seen.set(key, fn(...args));
    return seen.get(key)!;
  };
}

const unsharded = memo(unshardedRun);
function unshardedRun(units: readonly Unit[], options: RunOptions = {}, startedAt = T0, durationMs = 1000): RestCertificate {
  const tally = new RuleTally(restRules, { strict: options.strict });
  const results = units.map((u) => judged(u, tally, options.strict === true));
  const per = perOperation(units);
  return buildRestCertificate({
    run: { results, rules: tally.results(), startedAt: new Date(startedAt), durationMs },
    recorded: RECORDED,
    scenarios: SCENARIOS,
    target: TARGET,
    concurrency: 2,
    only: options.only,
    strict: options.strict ?? false,
    generation: options.generation ? { count: 2, seed: 7, cases: Object.values(per).reduce((n, c) => n + c.total, 0), durationMs: 30, perOperation: per, reproduce: GENERATION.reproduce } : undefined,
  });
}

/** Shard `index` of `total` as certify --shard writes it, sending `units` (in the order given). */
function shardReport(index: number, total: number, units: readonly Unit[], options: RunOptions & { startedAt?: number; durationMs?: number; generationMs?: number } = {}): ShardReport {
  const strict = options.strict === true;
  const tally = new ObservedTally(restRules, { strict });
  const results = units.map((u) => judged(u, tally, strict));
  const startedAt = options.startedAt ?? T0;
  const durationMs = options.durationMs ?? 1000;
  const part = buildRestCertificate({
    run: { results, rules: tally.results(), startedAt: new Date(startedAt), durationMs },
    recorded: RECORDED,
    scenarios: SCENARIOS,
    target: TARGET,
    concurrency: 2,
    only: options.only,
    strict,
    shard: { index, total },
  });
  const ids = restRules.map((r) => r.id);
  return {
    kind: SHARD_REPORT_KIND,
    formatVersion: 1,
    shard: { index, total, scenarios: [...new Set(units.filter((u) => !u.generated).map((u) => u.scenario))].sort(), operations: [...new Set(units.filter((u) => u.generated).map((u) => u.input.operationId!))].sort() },
    tool: { package: part.tool.package, version: part.tool.version },
    spec: part.spec,
    recordings: { sha256: 'ab'.repeat(32), scenarios: SCENARIOS, recorded: RECORDED },
    target: part.target,
    settings: { ...part.settings, ...(options.generation ? { generate: 2, seed: 7 } : {}), strict },
    startedAt: part.startedAt,
    durationMs: part.durationMs,
    rules: ids,
    ...tally.encode(ids, results),
    ...(options.generation ? { generation: { ...GENERATION, durationMs: options.generationMs ?? 15, perOperation: perOperation(units) } } : {}),
  };
}

const loaded = (report: ShardReport, file = `shards/${shardReportName(report.shard.index, report.shard.total)}`): LoadedShard => ({ file, report });

/** The certificate without what a merge adds: its notes and merge record. */
function comparable(cert: RestCertificate): Json {
  const { notes: _n, merge: _m, ...rest } = cert;
  return rest;
}

const at = (id: string) => UNITS.find((u) => u.id === id)!;
/** Shard 1 sends the generated cases of listProducts and the browse scenario; shard 2 the rest, generated first. */
type ShardTimes = { startedAt?: number; durationMs?: number; generationMs?: number };
const split = memo((options: RunOptions & ShardTimes & { second?: ShardTimes } = {}) => [
  shardReport(1, 2, [at('generated/listProducts/invalid#2'), at('browse/s10'), at('generated/listProducts/invalid#1'), at('browse/s2')], options),
  shardReport(2, 2, [at('generated/createCustomer/invalid#1'), at('auth/s2'), at('auth/s1')], { ...options, ...options.second }),
]);

const mergeError = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(MergeError);
    return (e as Error).message;
  }
  throw new Error('no MergeError');
};

describe('issue 38: certify merge of small shard reports gives the certificate of the unsharded run', () => {
  it('two shards, given in either order, each sending its exchanges in another order: the same rules, findings, skip reasons, counts, coverage and exchanges', () => {
    const one = unsharded(UNITS);
    // What the run holds, so that the comparison below is about something.
    expect(one.verdict).toBe('not-certified');
    const byId = Object.fromEntries(one.rules.map((r) => [r.id, r]));
    expect(byId['auth-enforced']).toMatchObject({ status: 'failed', errors: 1, judged: 2, findings: [{ subject: 'auth/s1: credentials', severity: 'error' }] });
    expect(byId['generated-refused']).toMatchObject({ status: 'failed', errors: 1, warnings: 1 });
    expect(byId['cross-call-consistency']).toMatchObject({ status: 'skipped', judged: 0, skipped: 'no consistency check declared for the steps judged' });
    const [a, b] = split();
    for (const shards of [[a, b], [b, a]]) {
      const merged = mergeShards(shards.map((s) => loaded(s)));
      expect(comparable(merged)).toEqual(comparable(one));
      expect(merged.exchanges.map((e) => e.id)).toEqual(UNITS.map((u) => u.id));
      expect(merged.notes).toEqual(['merged from 2 shards (certify --shard i/2, then certify merge)', MERGE_VOUCHES]);
    // What the note says, not only that it is the constant: what a merge checks and what it cannot.
    expect(MERGE_VOUCHES).toMatch(/^A merge checks that the shard reports are the parts of one run .+ it cannot check that a report holds what its shard observed.+certify merge --expect-digest checks them\)\.$/);
      expect(merged.merge).toEqual({ shards: [a, b].map((s) => ({ shard: `${s.shard.index}/2`, digest: shardDigest(shardReportText(s)) })), digestsChecked: false });
    }
  });

  it('the digests: the ones read from the files when known, and whether they were checked', () => {
    const [a, b] = split();
    const merged = mergeShards([{ ...loaded(a), digest: 'sha256:aaa' }, loaded(b)], { digestsChecked: true });
    expect(merged.merge).toEqual({ shards: [{ shard: '1/2', digest: 'sha256:aaa' }, { shard: '2/2', digest: shardDigest(shardReportText(b)) }], digestsChecked: true });
  });

  it('one shard of one: the certificate of its run', () => {
    const only = shardReport(1, 1, UNITS);
    const merged = mergeShards([loaded(only)]);
    expect(comparable(merged)).toEqual(comparable(unsharded(UNITS)));
    expect(merged.notes[0]).toBe('merged from 1 shards (certify --shard i/1, then certify merge)');
  });

  it('the run starts when the first shard started and ends when the last one finished', () => {
    // Shard 2 starts 5 s before shard 1 and ends 20 s after it started.
    const [a, b] = split({ startedAt: T0, durationMs: 1000, second: { startedAt: T0 - 5000, durationMs: 25_000 } });
    const merged = mergeShards([loaded(a), loaded(b)]);
    expect(merged.startedAt).toBe(new Date(T0 - 5000).toISOString());
    expect(merged.durationMs).toBe(25_000);
    expect(merged.finishedAt).toBe(new Date(T0 + 20_000).toISOString());
    const [c, d] = split({ startedAt: T0, durationMs: 30_000, second: { startedAt: T0 + 1000, durationMs: 1000 } });
    const other = mergeShards([loaded(d), loaded(c)]);
    expect(other.startedAt).toBe(new Date(T0).toISOString());
    expect(other.durationMs).toBe(30_000);
  });

  it('--strict carried by the shards: warnings tallied as errors, as the unsharded --strict run', () => {
    const one = unsharded(UNITS, { strict: true });
    const merged = mergeShards(split({ strict: true }).map((s) => loaded(s)));
    expect(comparable(merged)).toEqual(comparable(one));
    expect(merged.strict).toBe(true);
    expect(merged.summary.warnings).toBe(0);
    const pastEnd = merged.rules.find((r) => r.id === 'pagination-past-end')!;
    expect(pastEnd).toMatchObject({ severity: 'error', errors: 1, warnings: 0 });
    // Without --strict the same finding is advice.
    expect(mergeShards(split().map((s) => loaded(s))).rules.find((r) => r.id === 'pagination-past-end')).toMatchObject({ severity: 'error', errors: 0, warnings: 1, status: 'warned' });
  });

  it('--only: the coverage of the named operations only, as the unsharded run', () => {
    const merged = mergeShards(split({ only: ['listProducts', 'listCountries'] }).map((s) => loaded(s)));
    expect(Object.keys(merged.coverage).sort()).toEqual(['listCountries', 'listProducts']);
    expect(merged.settings.only).toBe('listProducts,listCountries');
    expect(merged.settings.concurrency).toBe(2);
    expect(comparable(merged)).toEqual(comparable(unsharded(UNITS, { only: ['listProducts', 'listCountries'] })));
  });

  it('the generative phase: every operation of the run once, its cases counted, the shards\' times added', () => {
    const merged = mergeShards(split({ generation: true, generationMs: 10, second: { generationMs: 20 } }).map((s) => loaded(s)));
    expect(merged.generation).toEqual({
      count: 2,
      seed: 7,
      cases: 3,
      durationMs: 30,
      perOperation: { createCustomer: { valid: 0, invalid: 1, security: 0, shrunk: 0, total: 1 }, listProducts: { valid: 0, invalid: 2, security: 0, shrunk: 0, total: 2 } },
      reproduce: '--generate 2 --seed 7',
    });
    expect(Object.keys(merged.generation!.perOperation)).toEqual(['createCustomer', 'listProducts']);
    expect(comparable(merged)).toEqual(comparable(unsharded(UNITS, { generation: true })));
    // A shard that carries no generative phase adds nothing to it.
    const [a, b] = split({ generation: true, generationMs: 10 });
    const { generation: _g, ...without } = b;
    expect(mergeShards([loaded(a), loaded(without as ShardReport)]).generation).toEqual({ count: 2, seed: 7, cases: 2, durationMs: 10, perOperation: { listProducts: { valid: 0, invalid: 2, security: 0, shrunk: 0, total: 2 } }, reproduce: '--generate 2 --seed 7' });
    // Without a generative phase: none.
    expect(mergeShards(split().map((s) => loaded(s))).generation).toBeUndefined();
  });
});

describe('issue 38: certify merge refuses shards that are not the N parts of one run, one line each', () => {
  const [a, b] = split();
  const changed = (report: ShardReport, change: (r: Json) => void): ShardReport => {
    const copy = structuredClone(report) as Json;
    change(copy);
    return copy as ShardReport;
  };

  it('no shard', () => {
    expect(mergeError(() => mergeShards([]))).toBe('no shard reports given: pass the report folder of every shard (certify merge <dir>...)');
  });

  it('another shard count', () => {
    const c = changed(b, (r) => (r.shard.total = 3));
    expect(mergeError(() => mergeShards([loaded(a), loaded(c, 'x/c.json')]))).toBe('x/c.json is shard 2/3 but shards/shard-1-of-2.json is 1/2: merge the shards of one run (the same --shard i/N)');
  });

  it.each<[string, (r: Json) => void, string]>([
    ['contract', (r) => (r.spec.sha256 = 'f'.repeat(64)), `another contract than shards/shard-1-of-2.json (${a.spec.source} sha256:ffffffffffff vs ${a.spec.source} sha256:${a.spec.sha256.slice(0, 12)})`],
    ['contract source', (r) => (r.spec.source = 'other.yaml'), `another contract than shards/shard-1-of-2.json (other.yaml sha256:${a.spec.sha256.slice(0, 12)} vs ${a.spec.source} sha256:${a.spec.sha256.slice(0, 12)})`],
    ['recordings', (r) => (r.recordings.sha256 = 'cd'.repeat(32)), 'another recordings than shards/shard-1-of-2.json (sha256:cdcdcdcdcdcd vs sha256:abababababab)'],
    ['tool version', (r) => (r.tool.version = '9.9.9'), `another tool than shards/shard-1-of-2.json (${a.tool.package} 9.9.9 vs ${a.tool.package} ${a.tool.version})`],
    ['tool package', (r) => (r.tool.package = 'other-tools'), `another tool than shards/shard-1-of-2.json (other-tools ${a.tool.version} vs ${a.tool.package} ${a.tool.version})`],
    ['target', (r) => (r.target.url = 'http://127.0.0.1:2'), 'another target than shards/shard-1-of-2.json (http://127.0.0.1:2 vs http://127.0.0.1:1)'],
    ['target: the embedded mock', (r) => (r.target.embeddedMock = true), 'another target than shards/shard-1-of-2.json (the embedded mock vs http://127.0.0.1:1)'],
    ['store', (r) => (r.target.storeId = 'other-store'), 'another store than shards/shard-1-of-2.json (other-store vs demo-store)'],
    ['rules', (r) => (r.rules = [...r.rules].reverse()), `another rules than shards/shard-1-of-2.json (${[...a.rules].reverse().join(',')} vs ${a.rules.join(',')})`],
  ])('another %s', (_, change, want) => {
    expect(mergeError(() => mergeShards([loaded(a), loaded(changed(b, change), 'x/b.json')]))).toBe(`x/b.json was run with ${want}: merge the shards of one run`);
  });

  it('the embedded mock on both: one target', () => {
    const mocked = (r: ShardReport) => changed(r, (x) => ((x.target.embeddedMock = true), (x.target.url = `http://127.0.0.1:${x.shard.index}`)));
    expect(mergeShards([loaded(mocked(a)), loaded(mocked(b))]).target.embeddedMock).toBe(true);
  });

  it.each<[string, (r: Json) => void, string]>([
    ['another concurrency', (r) => (r.settings.concurrency = 3), 'x/b.json was run with concurrency 3 but shards/shard-1-of-2.json with 2'],
    // A setting null in one shard is unset there.
    ['a seed where the other has none', (r) => (r.settings.seed = 8), 'x/b.json was run with seed 8 but shards/shard-1-of-2.json with unset'],
    ['a setting only the second has', (r) => (r.settings.extra = 'x'), 'x/b.json was run with extra x but shards/shard-1-of-2.json with unset'],
    ['a setting only the first has', (r) => delete r.settings.generate, 'x/b.json was run with generate unset but shards/shard-1-of-2.json with 0'],
    ['--strict on one', (r) => (r.settings.strict = true), 'x/b.json was run with strict true but shards/shard-1-of-2.json with false'],
    // Through the API a setting may be any value: shown as JSON.
    ['a setting that is a list', (r) => (r.settings.scenarios = ['auth']), 'x/b.json was run with scenarios ["auth"] but shards/shard-1-of-2.json with auth,browse'],
  ])('%s', (_, change, want) => {
    expect(mergeError(() => mergeShards([loaded(a), loaded(changed(b, change), 'x/b.json')]))).toBe(`${want}: merge the shards of one run (the same flags)`);
  });

  it('a shard given twice, and shards missing', () => {
    expect(mergeError(() => mergeShards([loaded(a, 'one/a.json'), loaded(b), loaded(a, 'two/a.json')]))).toBe("shard 1/2 is given twice (one/a.json and two/a.json): pass each shard's report once");
    expect(mergeError(() => mergeShards([loaded(b)]))).toBe('shard 1/2 is missing (given: 2): pass the report of every shard of the run');
    const of4 = (r: ShardReport, index: number) => changed(r, (x) => ((x.shard.index = index), (x.shard.total = 4)));
    expect(mergeError(() => mergeShards([loaded(of4(b, 3)), loaded(of4(a, 1))]))).toBe('shards 2/4, 4/4 are missing (given: 1, 3): pass the report of every shard of the run');
    expect(mergeError(() => mergeShards([loaded(of4(b, 4)), loaded(of4(a, 3)), loaded(of4(a, 10))]))).toMatch(/^shards 1\/4, 2\/4 are missing \(given: 3, 4, 10\)/);
  });

  it('a rule this version does not have', () => {
    const rename = (r: ShardReport) => changed(r, (x) => (x.rules[3] = 'no-such-rule'));
    expect(mergeError(() => mergeShards([loaded(rename(a), 'x/a.json'), loaded(rename(b))]))).toBe('x/a.json: rule no-such-rule is not a rule of this version of storefront-contract-tools; merge with the version that ran the shards');
  });
});

describe('issue 38: certify merge reads shard report files, and refuses a damaged one with one line', () => {
  let dir: string;
  const [a, b] = split();
  const RERUN = "re-run that shard (or download its artifact again): the merge reads only the shard-<i>-of-<N>.json a certify --shard run wrote";
  /** A folder holding `reports` as certify --shard writes them; a report given as text is written as it is. */
  const folder = (name: string, ...reports: Array<ShardReport | Json | [string, string]>) => {
    const d = path.join(dir, name);
    mkdirSync(d, { recursive: true });
    for (const r of reports) {
      if (Array.isArray(r)) writeFileSync(path.join(d, r[0]), r[1]);
      else writeFileSync(path.join(d, shardReportName(r.shard.index, r.shard.total)), shardReportText(r as ShardReport));
    }
    return d;
  };
  /** Shard 1 as `change` leaves it, alone in a folder; the message of the merge that reads it with shard 2. */
  const refusal = (name: string, change: (r: Json) => void, text?: (json: string) => string): string => {
    const copy = structuredClone(a) as Json;
    change(copy);
    const d = folder(name, ['shard-1-of-2.json', text ? text(shardReportText(copy as ShardReport)) : shardReportText(copy as ShardReport)]);
    const file = path.relative(process.cwd(), path.join(d, 'shard-1-of-2.json'));
    const message = mergeError(() => readShardReports([d, folder(`${name}-2`, b)]));
    expect(message.startsWith(`${file}: `), message).toBe(true);
    return message.slice(file.length + 2);
  };

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sfc-merge-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('folders and files, in shard order within a folder, each with its digest, merge into the certificate', () => {
    const both = folder('both', b, a, ['notes.txt', 'not a report'], ['shard-x-of-2.json', '{}']);
    const shards = readShardReports([both]);
    expect(shards.map((s) => path.basename(s.file))).toEqual(['shard-1-of-2.json', 'shard-2-of-2.json']);
    expect(shards.map((s) => s.digest)).toEqual([a, b].map((r) => shardDigest(shardReportText(r))));
    expect(shards.map((s) => s.report)).toEqual([a, b]);
    const files = readShardReports([path.join(folder('file-2', b), 'shard-2-of-2.json'), folder('file-1', a)]);
    expect(files.map((s) => s.report.shard.index)).toEqual([2, 1]);
    expect(comparable(mergeShards(files))).toEqual(comparable(unsharded(UNITS)));
  });

  it('the digests given: each report must be the file its job wrote, of the shard it was given for', () => {
    const da = shardDigest(shardReportText(a));
    const db = shardDigest(shardReportText(b));
    const both = folder('digests', a, b);
    expect(readShardReports([both], new Map([[da, '1/2'], [db, '2/2']])).map((s) => s.digest)).toEqual([da, db]);
    const file1 = path.relative(process.cwd(), path.join(both, 'shard-1-of-2.json'));
    expect(mergeError(() => readShardReports([both], new Map([[db, '2/2']])))).toBe(
      `${file1}: its digest ${da} is none of the --expect-digest values: the report is not the file its shard job wrote (it changed since, or is of another run); merge the artifact that job uploaded, or re-run that shard`,
    );
    expect(mergeError(() => readShardReports([both], new Map([[da, '2/2'], [db, '1/2']])))).toBe(`${file1} is shard 1/2, and its digest was given for shard 2/2 (--expect-digest): give each shard's digest as its job printed it`);
    expect(mergeError(() => readShardReports([folder('digests-one', a)], new Map([[da, '1/2'], [db, '2/2']])))).toBe(
      '--expect-digest names 2 shard reports and 1 were given (none has the digest given for 2/2): pass the report of every shard of the run',
    );
    // Every shard whose digest matched no report is named, in the order given.
    expect(mergeError(() => readShardReports([folder('digests-two', a)], new Map([[da, '1/2'], [db, '2/2'], [`sha256:${'0'.repeat(64)}`, '3/3']])))).toBe(
      '--expect-digest names 3 shard reports and 1 were given (none has the digest given for 2/2, 3/3): pass the report of every shard of the run',
    );
  });

  it('nothing given, nothing there, a folder without reports, more reports than shards', () => {
    expect(mergeError(() => readShardReports([]))).toBe('no shard reports given: pass the report folder of every shard (certify merge <dir>...)');
    const nothing = path.join(dir, 'nothing');
    expect(mergeError(() => readShardReports([nothing]))).toBe(`${nothing}: no such file or folder; pass the --report-dir of each certify --shard run`);
    const empty = folder('empty', ['junit.xml', '<x/>']);
    expect(mergeError(() => readShardReports([empty]))).toBe(`${empty}: holds no shard report (shard-<i>-of-<N>.json); pass the --report-dir of a certify --shard i/N run`);
    const many = folder('many', ...Array.from({ length: 65 }, (_, i): [string, string] => [`shard-${i + 1}-of-65.json`, '{}']));
    expect(mergeError(() => readShardReports([many]))).toBe('65 shard reports given, and a run has at most 64 shards (certify --shard i/N, N <= 64): pass the report folders of one run');
    const most = folder('most', ...Array.from({ length: 64 }, (_, i): [string, string] => [`shard-${i + 1}-of-64.json`, '{}']));
    expect(mergeError(() => readShardReports([most]))).toMatch(/shard-1-of-64\.json: not a shard report \(kind undefined, expected storefront-contract\/certify-shard\)/);
  });

  it('more bytes than the merge reads, before any is read (sparse files of 256 MiB and one byte, and of exactly 256 MiB)', () => {
    const sparse = (file: string, size: number) => {
      const fd = openSync(file, 'w');
      try {
        ftruncateSync(fd, size);
      } finally {
        closeSync(fd);
      }
    };
    expect(MAX_SHARD_REPORT_BYTES).toBe(256 * 1024 * 1024);
    // The first report is 2 bytes (`{}`), the second makes the total one byte more than the merge reads.
    const over = folder('over', ['shard-1-of-2.json', '{}']);
    sparse(path.join(over, 'shard-2-of-2.json'), MAX_SHARD_REPORT_BYTES - 1);
    const second = path.relative(process.cwd(), path.join(over, 'shard-2-of-2.json'));
    expect(mergeError(() => readShardReports([over]))).toBe(`${second}: the shard reports given reach 256 MiB with this one, more than the 256 MiB certify merge reads; ${RERUN}`);
    // Exactly as many bytes as the merge reads: read (the first is refused for what it holds, before the second is read).
    const exactly = folder('exactly', ['shard-1-of-2.json', '{}']);
    sparse(path.join(exactly, 'shard-2-of-2.json'), MAX_SHARD_REPORT_BYTES - 2);
    const first = path.relative(process.cwd(), path.join(exactly, 'shard-1-of-2.json'));
    expect(mergeError(() => readShardReports([exactly]))).toBe(`${first}: not a shard report (kind undefined, expected storefront-contract/certify-shard); pass the shard-<i>-of-<N>.json a certify --shard run wrote`);
  });

  it.each<[string, (r: Json) => void, string]>([
    ['another kind', (r) => (r.kind = 'storefront-contract/certificate'), 'not a shard report (kind "storefront-contract/certificate", expected storefront-contract/certify-shard); pass the shard-<i>-of-<N>.json a certify --shard run wrote'],
    ['another format', (r) => (r.formatVersion = 2), 'shard report format 2 is not one this version reads (1); merge with the version of storefront-contract-tools that ran the shards'],
    ['a total of 1e300', (r) => (r.shard.total = 1e300), `shard.total must be a whole number from 0 to 4294967295, not 1e+300; ${RERUN}`],
    ['a total of 0', (r) => (r.shard.total = 0), `shard.total is 0, and a run has 1 to 64 shards (certify --shard i/N, N <= 64); ${RERUN}`],
    ['a total of 65', (r) => (r.shard.total = 65), `shard.total is 65, and a run has 1 to 64 shards (certify --shard i/N, N <= 64); ${RERUN}`],
    ['an index of 0', (r) => (r.shard.index = 0), `shard.index is 0, not a shard of 2 (1 to 2); ${RERUN}`],
    ['an index above the total', (r) => (r.shard.index = 3), `shard.index is 3, not a shard of 2 (1 to 2); ${RERUN}`],
    ['the index as text', (r) => (r.shard.index = '1'), `shard.index must be a whole number from 0 to 4294967295, not "1"; ${RERUN}`],
    ['exchanges as an object', (r) => (r.exchanges = {}), `exchanges must be a list, not {}; ${RERUN}`],
    ['no rules', (r) => delete r.rules, `the report has no "rules"; ${RERUN}`],
    ['a rule id as a number', (r) => (r.rules[0] = 7), `rules[0] must be a string, not 7; ${RERUN}`],
    ['a field no report has', (r) => (r.injected = true), `the report has a field "injected" that a shard report does not have; ${RERUN}`],
    ['a field no exchange has', (r) => (r.exchanges[0].extra = 1), `exchanges[0] has a field "extra" that a shard report does not have; ${RERUN}`],
    ['a finding with a field no finding has', (r) => (r.exchanges[0].findings = [{ rule: 'x', subject: 's', severity: 'error', message: 'm', 'a b': 1 }]), `exchanges[0].findings[0] has a field "a b" that a shard report does not have; ${RERUN}`],
    ['a key that is no name', (r) => (r.generation = { ...GENERATION, perOperation: { 'a b': { valid: 'x', invalid: 0, security: 0, shrunk: 0, total: 0 } } }), `generation.perOperation["a b"].valid must be a whole number from 0 to 4294967295, not "x"; ${RERUN}`],
    ['a severity as markup', (r) => (r.exchanges[0].findings = [{ rule: 'x', subject: 's', severity: '<b>', message: 'm' }]), `exchanges[0].findings[0].severity must be "error" or "warning", not "<b>"; ${RERUN}`],
    ['a long value', (r) => (r.exchanges[0].status = 'x'.repeat(100)), `exchanges[0].status must be a whole number from 0 to 65535, not "${'x'.repeat(36)}...; ${RERUN}`],
    ['a value of 40 characters, shown whole', (r) => (r.exchanges[0].status = 'x'.repeat(38)), `exchanges[0].status must be a whole number from 0 to 65535, not "${'x'.repeat(38)}"; ${RERUN}`],
    ['a value of 41 characters, cut', (r) => (r.exchanges[0].status = 'x'.repeat(39)), `exchanges[0].status must be a whole number from 0 to 65535, not "${'x'.repeat(36)}...; ${RERUN}`],
    ['the eleventh exchange', (r) => ((r.exchanges = Array.from({ length: 11 }, () => structuredClone(r.exchanges[0]))), (r.exchanges[10].status = 'x')), `exchanges[10].status must be a whole number from 0 to 65535, not "x"; ${RERUN}`],
    ...(['list-products', 'a1', '_x', 'Z'] as const).map((key): [string, (r: Json) => void, string] => [`an operation named ${key}`, (r) => (r.generation = { ...GENERATION, perOperation: { [key]: { valid: 'x', invalid: 0, security: 0, shrunk: 0, total: 0 } } }), `generation.perOperation.${key}.valid must be a whole number from 0 to 4294967295, not "x"; ${RERUN}`]),
    ...(['9a', '1a', 'a.b', 'x y'] as const).map((key): [string, (r: Json) => void, string] => [`a key that is no name: ${key}`, (r) => (r.generation = { ...GENERATION, perOperation: { [key]: { valid: 'x', invalid: 0, security: 0, shrunk: 0, total: 0 } } }), `generation.perOperation["${key}"].valid must be a whole number from 0 to 4294967295, not "x"; ${RERUN}`]),
    ['a duration as text', (r) => (r.exchanges[0].durationMs = 'slow'), `exchanges[0].durationMs must be a number, not "slow"; ${RERUN}`],
    ['judged as text', (r) => (r.exchanges[0].judged = 'yes'), `exchanges[0].judged must be true or false, not "yes"; ${RERUN}`],
    ['a start that is no time', (r) => (r.startedAt = 'yesterday'), `startedAt must be an RFC 3339 date and time, not "yesterday"; ${RERUN}`],
    ['a generation that is a list', (r) => (r.generation = []), `generation must be an object, not []; ${RERUN}`],
    ['a rule index as text', (r) => (r.exchanges[0].ruleTally.judged = ['x']), `exchanges[0].ruleTally.judged[0] must be a whole number from 0 to 4294967295, not "x"; ${RERUN}`],
    ['a negative duration', (r) => (r.durationMs = -1), `startedAt "${a.startedAt}" and durationMs -1 are not the time of a run; ${RERUN}`],
    ['a duration past the end of time', (r) => (r.durationMs = 9e15), `startedAt "${a.startedAt}" and durationMs 9000000000000000 are not the time of a run; ${RERUN}`],
    // Its end is past the last date a Date holds, though its start minus its duration is not.
    ['a run ending past the last date', (r) => ((r.startedAt = '9999-12-31T23:59:59Z'), (r.durationMs = 8.5e15)), `startedAt "9999-12-31T23:59:59Z" and durationMs 8500000000000000 are not the time of a run; ${RERUN}`],
    // RFC 3339 has leap seconds; Date.parse does not read them.
    ['a start at a leap second', (r) => (r.startedAt = '2016-12-31T23:59:60Z'), `startedAt "2016-12-31T23:59:60Z" and durationMs 1000 are not the time of a run; ${RERUN}`],
    ['a setting that is an object', (r) => (r.settings.concurrency = { n: 1 }), `settings["concurrency"] must be a string, a number, true, false or null, not {"n":1}; ${RERUN}`],
    ['a concurrency of 0', (r) => (r.settings.concurrency = 0), `settings.concurrency must be a whole number from 1, not 0; ${RERUN}`],
    ['a concurrency of 1.5', (r) => (r.settings.concurrency = 1.5), `settings.concurrency must be a whole number from 1, not 1.5; ${RERUN}`],
    ['a concurrency as text', (r) => (r.settings.concurrency = '2'), `settings.concurrency must be a whole number from 1, not "2"; ${RERUN}`],
    ['--only as a number', (r) => (r.settings.only = 3), `settings.only must be a string or null, not 3; ${RERUN}`],
    ['observed false', (r) => (r.exchanges[1].observed = false), `exchanges[1].observed must be true when present, not false; ${RERUN}`],
    ['a rule index out of the table', (r) => (r.exchanges[1].ruleTally.judged = [0, 12]), `exchanges[1].ruleTally.judged holds 12, and the report lists 12 rules; ${RERUN}`],
    ['a skip that is not a pair', (r) => (r.exchanges[0].ruleTally.skipped = [[0]]), `exchanges[0].ruleTally.skipped holds [0], not a [rule, reason] pair of the report's 12 rules and ${a.skipReasons.length} reasons; ${RERUN}`],
    ['a skip of three', (r) => (r.exchanges[0].ruleTally.skipped = [[0, 0, 0]]), `exchanges[0].ruleTally.skipped holds [0,0,0], not a [rule, reason] pair of the report's 12 rules and ${a.skipReasons.length} reasons; ${RERUN}`],
    ['a skip of an unknown rule', (r) => (r.exchanges[0].ruleTally.skipped = [[12, 0]]), `exchanges[0].ruleTally.skipped holds [12,0], not a [rule, reason] pair of the report's 12 rules and ${a.skipReasons.length} reasons; ${RERUN}`],
    ['a skip of an unknown reason', (r) => (r.exchanges[0].ruleTally.skipped = [[0, r.skipReasons.length]]), `exchanges[0].ruleTally.skipped holds [0,${a.skipReasons.length}], not a [rule, reason] pair of the report's 12 rules and ${a.skipReasons.length} reasons; ${RERUN}`],
  ])('%s', (name, change, want) => {
    expect(refusal(name.replace(/\W+/g, '-'), change)).toBe(want);
  });

  it.each<[string, (r: Json) => void]>([
    ['settings at their bounds: concurrency 1, only a string, observed true, the last rule and reason', (r) => {
      r.settings.concurrency = 1;
      r.settings.only = 'listProducts';
      r.exchanges[1].observed = true;
      r.exchanges[1].ruleTally.judged = [11];
      r.exchanges[0].ruleTally.skipped = [[11, r.skipReasons.length - 1]];
    }],
    ['only null, a duration of 0', (r) => ((r.settings.only = null), (r.durationMs = 0))],
    ['no only setting at all', (r) => delete r.settings.only],
  ])('read: %s', (name, change) => {
    const copy = structuredClone(a) as Json;
    change(copy);
    const [read] = readShardReports([path.join(folder(name.replace(/\W+/g, '-'), copy), 'shard-1-of-2.json')]);
    expect(read.report).toEqual(copy);
  });

  it('shard totals at both bounds are read: a run of one shard (1/1) and the last of 64 (64/64)', () => {
    for (const [index, total] of [[1, 1], [64, 64]] as const) {
      const copy = structuredClone(a) as Json;
      Object.assign(copy.shard, { index, total });
      const [read] = readShardReports([path.join(folder(`bounds-${index}-${total}`, copy), shardReportName(index, total))]);
      expect(read.report.shard).toMatchObject({ index, total });
    }
  });

  it.each<[string, (json: string) => string, string]>([
    ['a number beyond float64 (1e400)', (json) => json.replace(/"durationMs":\d+/, '"durationMs":1e400'), 'not a shard report ("durationMs" holds a number too large to be one a shard wrote); pass the shard-<i>-of-<N>.json a certify --shard run wrote'],
    ['cut short', (json) => json.slice(0, 20), `not a shard report (${(() => { try { JSON.parse(shardReportText(a).slice(0, 20)); } catch (e) { return (e as Error).message; } })()}); pass the shard-<i>-of-<N>.json a certify --shard run wrote`],
    ['a list', () => '[1]', 'not a shard report (kind undefined, expected storefront-contract/certify-shard); pass the shard-<i>-of-<N>.json a certify --shard run wrote'],
    ['null', () => 'null', 'not a shard report (kind undefined, expected storefront-contract/certify-shard); pass the shard-<i>-of-<N>.json a certify --shard run wrote'],
  ])('a file %s', (name, text, want) => {
    expect(refusal(name.replace(/\W+/g, '-'), () => {}, text)).toBe(want);
  });
});

