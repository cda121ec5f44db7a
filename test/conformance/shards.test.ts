// certify --shard i/N and certify merge against the sandbox: a 4-shard run merged gives the certificate of
// the unsharded run with the same seed (verdict, every rule's result and counts, coverage, operations,
// exchanges, junit.xml), each against a fresh sandbox of the same seed; the merge refuses shards of
// another run (another seed), a missing shard and a shard given twice, with one line each (exit 2); the
// split is deterministic and covers every unit once; --shard's usage errors.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseCliArgs, UsageError } from '../../conformance/rest/args.js';
import { certify, type CertifyOutcome } from '../../conformance/rest/certify.js';
import { runMerge } from '../../conformance/rest/merge-cli.js';
import { MERGE_VOUCHES } from '../../conformance/rest/merge.js';
import { assignUnits, loadRequestCosts, operationUnit, parseShard, partOf, scenarioUnits, type ShardUnit } from '../../conformance/rest/shard.js';
import { loadScenarios } from '../../conformance/rest/load.js';
import { expectedCases } from '../../conformance/rest/generate/phase.js';
import { loadOperationSpecs } from '../../conformance/rest/generate/operation-specs.js';
import { storefrontOperations } from 'storefront-contract';
import type { RestCertificate } from '../../conformance/report/certificate.js';
import { sandboxApiKey, type Workbench } from '../../workbench/index.js';
import { startSandbox } from '../sandbox/helpers.js';
import { hangGuard } from '../helpers/hang-guard.js';

const SEED = 20261201;
const KEY = sandboxApiKey('demo-store');
let unshardedTarget: Workbench;
let shardedTarget: Workbench;
let dir: string;
let unsharded: CertifyOutcome;
const shardDir = (i: number) => path.join(dir, `shard-${i}`);

// The same run twice, each against a fresh sandbox of the same seed: unsharded, and as four shards one after another.
const options = (wb: Workbench) => ({ baseUrl: wb.url, apiKey: KEY, inputs: { restricted_api_key: KEY }, generate: 3, seed: SEED });

beforeAll(async () => {
  [unshardedTarget, shardedTarget] = await Promise.all([startSandbox({ webhooks: false, preloadPrism: true }), startSandbox({ webhooks: false, preloadPrism: true })]);
  dir = mkdtempSync(path.join(os.tmpdir(), 'sfc-shards-'));
  unsharded = await certify({ ...options(unshardedTarget), reportDir: path.join(dir, 'unsharded') });
  for (let i = 1; i <= 4; i++) await certify({ ...options(shardedTarget), shard: { index: i, total: 4 }, reportDir: shardDir(i) });
}, hangGuard(60_000));
afterAll(async () => {
  await Promise.all([unshardedTarget?.close(), shardedTarget?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `certify merge` in process: its exit code and what it wrote on stderr. */
async function merge(args: string[]): Promise<{ code: number; stderr: string }> {
  const lines: string[] = [];
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (lines.push(String(chunk)), true));
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    return { code: await runMerge(args), stderr: lines.join('') };
  } finally {
    err.mockRestore();
    out.mockRestore();
  }
}

/** What differs between two runs of the same seed: times, the two sandboxes' ports, ids the servers issue. */
function scrub(text: string): string {
  return text
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')
    .replace(/\b(usr|cst|tok)_[A-Z0-9]+/g, '$1_<id>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, '<time>')
    .replace(/time="\d+\.\d+"/g, 'time="<s>"')
    .replace(/ in \d+\.\d s \(seed/g, ' in <s> s (seed');
}

function comparable(cert: RestCertificate): unknown {
  const { startedAt: _s, finishedAt: _f, durationMs: _d, notes: _n, merge: _m, generation, exchanges, ...rest } = cert;
  return JSON.parse(scrub(JSON.stringify({ ...rest, generation: { ...generation, durationMs: 0 }, exchanges: exchanges.map((e) => ({ ...e, durationMs: 0 })) })));
}

describe('certify --shard 1..4/4 then certify merge, against the unsharded run with the same seed', () => {
  let merged: RestCertificate;
  beforeAll(async () => {
    const r = await merge([1, 2, 3, 4].map(shardDir).concat('--report-dir', path.join(dir, 'merged')));
    expect(r, r.stderr).toEqual({ code: 0, stderr: '' });
    merged = JSON.parse(readFileSync(path.join(dir, 'merged', 'report.json'), 'utf8'));
  });

  it('splits the run: every shard sends a part, together every exchange once', () => {
    const parts = [1, 2, 3, 4].map((i) => JSON.parse(readFileSync(path.join(shardDir(i), `shard-${i}-of-4.json`), 'utf8')));
    for (const p of parts) expect(p.exchanges.length, `shard ${p.shard.index}`).toBeGreaterThan(0);
    const ids = parts.flatMap((p) => p.exchanges.map((e: { id: string }) => e.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(unsharded.certificate.exchanges.length);
    expect(parts.flatMap((p) => p.shard.scenarios).sort()).toEqual(['browse-catalog', 'customer', 'negative', 'pos']);
    for (const i of [1, 2, 3, 4]) expect(readFileSync(path.join(shardDir(i), `shard-${i}-of-4.json`), 'utf8')).not.toContain(KEY);
  });

  it('gives the same verdict, rule results and counts, coverage and exchanges', () => {
    const one = unsharded.certificate;
    expect(one.verdict).toBe('certified');
    expect(one.generation!.cases).toBeGreaterThan(100);
    expect(merged.verdict).toBe(one.verdict);
    expect(merged.summary).toEqual(one.summary);
    expect(merged.rules.map((r) => [r.id, r.status, r.judged, r.errors, r.warnings, r.skipped])).toEqual(one.rules.map((r) => [r.id, r.status, r.judged, r.errors, r.warnings, r.skipped]));
    expect(merged.coverage).toEqual(one.coverage);
    expect(merged.exchangeSummary).toEqual(one.exchangeSummary);
    expect(merged.generation!.perOperation).toEqual(one.generation!.perOperation);
    // Everything else too, once times, ports and the ids the two sandboxes issued are scrubbed.
    expect(comparable(merged)).toEqual(comparable(one));
    expect(merged.notes).toEqual(['merged from 4 shards (certify --shard i/4, then certify merge)', MERGE_VOUCHES]);
    expect(merged.merge).toMatchObject({ digestsChecked: false, shards: [1, 2, 3, 4].map((i) => ({ shard: `${i}/4` })) });
  });

  it('writes the junit.xml and report.html of the whole run', () => {
    const read = (d: string, f: string) => scrub(readFileSync(path.join(dir, d, f), 'utf8'));
    expect(read('merged', 'junit.xml')).toBe(read('unsharded', 'junit.xml'));
    expect(read('merged', 'report.html')).toContain('CERTIFIED');
    expect(read('shard-2', 'junit.xml')).toContain('certification (shard 2/4)');
  });

  it('refuses a shard of another run (another seed), one line, exit 2', async () => {
    const other = path.join(dir, 'other-seed');
    cpSync(shardDir(3), other, { recursive: true });
    const file = path.join(other, 'shard-3-of-4.json');
    const report = JSON.parse(readFileSync(file, 'utf8'));
    report.settings.seed = SEED + 1;
    writeFileSync(file, JSON.stringify(report));
    const r = await merge([shardDir(1), shardDir(2), other, shardDir(4), '--report-dir', path.join(dir, 'refused')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^certify merge: \S*other-seed\/shard-3-of-4\.json was run with seed 20261202 but \S*shard-1\/shard-1-of-4\.json with 20261201: merge the shards of one run \(the same flags\)\n$/);
  });

  it('refuses a missing shard and a shard given twice, one line each, exit 2', async () => {
    const missing = await merge([shardDir(1), shardDir(2), shardDir(4), '--report-dir', path.join(dir, 'refused')]);
    expect(missing).toEqual({ code: 2, stderr: 'certify merge: shard 3/4 is missing (given: 1, 2, 4): pass the report of every shard of the run\n' });
    const twice = await merge([shardDir(1), shardDir(2), shardDir(2), shardDir(3), shardDir(4), '--report-dir', path.join(dir, 'refused')]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/^certify merge: shard 2\/4 is given twice \(\S+ and \S+\): pass each shard's report once\n$/);
  });
});

describe('the split', () => {
  const units: ShardUnit[] = [
    { kind: 'scenario', name: 'negative', weight: 39 },
    { kind: 'scenario', name: 'pos', weight: 6 },
    { kind: 'operation', name: 'listProducts', weight: 40 },
    { kind: 'operation', name: 'listOrders', weight: 25 },
    { kind: 'operation', name: 'getVariant', weight: 25 },
    { kind: 'operation', name: 'listCountries', weight: 6 },
  ];

  it('deals whole units, heaviest first to the lightest shard, the same whatever order they come in', () => {
    const split = assignUnits(units, 3);
    expect(Object.fromEntries(split)).toEqual({
      'operation:listProducts': 1,
      'scenario:negative': 2,
      'operation:getVariant': 3,
      'operation:listOrders': 3,
      'operation:listCountries': 2,
      'scenario:pos': 1,
    });
    expect(assignUnits([...units].reverse(), 3)).toEqual(split);
  });

  describe('issue 37 item 14: units weighed by what they cost', () => {
    const costs = loadRequestCosts();
    const scenarios = loadScenarios();
    /** The units of `certify --generate n --shard i/4` as certify.ts builds them (concurrency 1). */
    const unitsAt = async (n: number) => [
      ...scenarioUnits(scenarios, { inFlight: 1, costs }),
      ...(await loadOperationSpecs()).map((op) => operationUnit(op.operationId, expectedCases(op, n), 4, costs)),
    ];

    it('item 14: costs.json names every operation of the contract, replayed and generated (else: npx tsx --conditions=sfc-source conformance/rest/measure-costs.ts)', () => {
      const operations = Object.keys(storefrontOperations).sort();
      expect(Object.keys(costs.generatedCase).sort()).toEqual(operations);
      const replayed = [...new Set(scenarios.flatMap((sc) => sc.steps.map((st) => st.operation.operationId)))].sort();
      expect(Object.keys(costs.replayedStep).sort()).toEqual(replayed);
    });

    it.each([20, 50, 100])('item 14: at --generate %i every unit lands in exactly one of 4 shards, the same split whatever order the units come in, and no shard weighs more than 1.3x the mean', async (n) => {
      const units = await unitsAt(n);
      const split = assignUnits(units, 4);
      expect(Object.fromEntries(assignUnits([...units].reverse(), 4))).toEqual(Object.fromEntries(split));
      const parts = [1, 2, 3, 4].map((index) => partOf(units, { index, total: 4 }));
      const owned = parts.flatMap((p) => [...[...p.scenarios].map((x) => `scenario:${x}`), ...[...p.operations].map((x) => `operation:${x}`)]).sort();
      expect(owned).toEqual(units.map((u) => `${u.kind}:${u.name}`).sort());
      const load = [1, 2, 3, 4].map((i) => units.filter((u) => split.get(`${u.kind}:${u.name}`) === i).reduce((w, u) => w + u.weight, 0));
      const mean = load.reduce((a, b) => a + b, 0) / 4;
      expect(Math.max(...load) / mean).toBeLessThanOrEqual(1.3);
    });

    it('item 14: the recorded scenarios are not all dealt to one shard at --generate 100 (they were, weighed by count)', async () => {
      const units = await unitsAt(100);
      const shardsOfScenarios = new Set(units.filter((u) => u.kind === 'scenario').map((u) => assignUnits(units, 4).get(`scenario:${u.name}`)));
      expect(shardsOfScenarios.size).toBeGreaterThan(1);
      // Weighed by count (a scenario by its steps, uncosted requests weigh 1 ms each; an operation by its cases), as before.
      const byCount = [...scenarioUnits(scenarios).map((u) => ({ ...u, weight: u.weight / 1000 })), ...(await loadOperationSpecs()).map((op) => ({ kind: 'operation' as const, name: op.operationId, weight: expectedCases(op, 100) }))];
      expect(new Set(byCount.filter((u) => u.kind === 'scenario').map((u) => assignUnits(byCount, 4).get(`scenario:${u.name}`))).size).toBe(1);
    });
  });

  it.each([
    ['2/4', { index: 2, total: 4 }],
    ['1/1', { index: 1, total: 1 }],
    ['0/4', undefined],
    ['5/4', undefined],
    ['2-4', undefined],
    ['1/65', undefined],
  ])('--shard %s', (text, want) => expect(parseShard(text)).toEqual(want));

  it.each([
    [['--shard', '5/4'], '--shard 5/4 is not i/N with 1 <= i <= N <= 64 (e.g. --shard 2/4: the second of four parts)'],
    [['--shard', '1/2', '--all'], '--shard does not combine with --all: shard the REST run, and certify the webhook sender in a job of its own (certify-webhooks sender)'],
    [['--shard', '1/2', '--generate', '3'], '--shard with --generate needs --seed <n>, the same in every shard, so that all shards generate the cases of one run (e.g. --seed $GITHUB_RUN_NUMBER)'],
  ])('%j is refused with one line', (argv, message) => {
    expect(() => parseCliArgs(argv, ['listProducts'])).toThrow(new UsageError(message));
  });
});
