// issue 37 items 25 and 26: `certify merge` given damaged or hostile shard reports. Two real shards of one
// run are made by the CLI (certify --shard i/2 against a sandbox), then changed the ways an attacker or a
// broken artifact would: a shard count of 1e8 (the real CLI under a 128 MB heap: bounded memory), 1e300,
// a wrong type in each kind of field, markup where a number or a severity belongs, a report changed after
// its job printed its digest. Each is refused with exit 2 and one line naming the file, the field and the
// fix; the untouched shards still merge and certify, also under the small heap and with their digests.
// And report.html escapes every value it prints, whatever field holds markup.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import type { RestCertificate } from '../../conformance/report/certificate.js';
import { reportHtml } from '../../conformance/report/html.js';
import { sandboxApiKey, type Workbench } from '../../workbench/index.js';
import { runCli } from '../helpers/cli-in-process.js';
import { run } from '../helpers/run.js';
import { startSandbox } from '../sandbox/helpers.js';
import { hangGuard } from '../helpers/hang-guard.js';

const KEY = sandboxApiKey('demo-store');
const bin = path.join(repoRoot, 'cli/storefront-contract.ts');
let target: Workbench;
let dir: string;
/** What each shard job printed: `i/2=sha256:<hex>`. */
const printed: string[] = [];
const shardDir = (i: number) => path.join(dir, `shard-${i}`);
const shardFile = (i: number) => path.join(shardDir(i), `shard-${i}-of-2.json`);
type Json = Record<string, any>;

beforeAll(async () => {
  target = await startSandbox({ webhooks: false, preloadPrism: true });
  dir = mkdtempSync(path.join(os.tmpdir(), 'sfc-merge-hostile-'));
  for (const i of [1, 2]) {
    const r = await runCli(['certify', '--base-url', target.url, '--input', `restricted_api_key=${KEY}`, '--shard', `${i}/2`, '--quiet', '--report-dir', shardDir(i)], { STOREFRONT_API_KEY: KEY });
    expect(r.code, r.output).toBe(0);
    const digest = /^ {2}shard digest: (\d\/2=sha256:[0-9a-f]{64}) \(certify merge --expect-digest refuses a report that differs\)$/m.exec(r.stdout);
    expect(digest, r.stdout).not.toBeNull();
    printed.push(digest![1]);
  }
}, hangGuard(120_000));
afterAll(async () => {
  await target?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Shard 1 as `change` leaves it, in a folder of its own; returns that folder and the file. */
function tampered(name: string, change: (report: Json) => void, text?: (json: string) => string): { folder: string; file: string } {
  const folder = path.join(dir, name);
  cpSync(shardDir(1), folder, { recursive: true });
  const file = path.join(folder, 'shard-1-of-2.json');
  const report = JSON.parse(readFileSync(file, 'utf8'));
  change(report);
  const json = JSON.stringify(report);
  writeFileSync(file, text ? text(json) : json);
  return { folder, file: path.relative(repoRoot, file) };
}

const merge = (args: string[]) => runCli(['certify', 'merge', ...args, '--report-dir', path.join(dir, 'out', String(Math.random()).slice(2))]);
const oneLine = (stderr: string) => expect(stderr.split('\n').filter(Boolean)).toHaveLength(1);

describe('issue 37 item 25: certify merge refuses a damaged or hostile shard report with exit 2 and one line', () => {
  it('item 25: 100,000,000 shards claimed: the real CLI under a 128 MB heap exits 2 at once, and merges the real shards under the same heap', async () => {
    const { folder, file } = tampered('1e8', (r) => (r.shard.total = 100_000_000));
    expect(readFileSync(path.join(repoRoot, file)).length).toBeLessThan(64 * 1024);
    const cli = (args: string[]) => run(process.execPath, ['--max-old-space-size=128', '--import', 'tsx', bin, 'certify', 'merge', ...args], { cwd: repoRoot });
    const hostile = await cli([folder, shardDir(2), '--report-dir', path.join(dir, 'out-1e8')]);
    expect(hostile.code, hostile.output).toBe(2);
    expect(hostile.stdout).toBe('');
    expect(hostile.stderr).toBe(`certify merge: ${file}: shard.total is 100000000, and a run has 1 to 64 shards (certify --shard i/N, N <= 64); re-run that shard (or download its artifact again): the merge reads only the shard-<i>-of-<N>.json a certify --shard run wrote\n`);
    const valid = await cli([shardDir(1), shardDir(2), '--report-dir', path.join(dir, 'out-valid')]);
    expect(valid.code, valid.output).toBe(0);
    expect(valid.stdout).toMatch(/^\n?CERTIFIED: /);
  });

  it.each<[string, (r: Json) => void, RegExp]>([
    ['a total of 1e300', (r) => (r.shard.total = 1e300), /: shard\.total must be a whole number from 0 to 4294967295, not 1e\+300; re-run that shard/],
    ['a total of 0', (r) => (r.shard.total = 0), /: shard\.total is 0, and a run has 1 to 64 shards/],
    ['an index above the total', (r) => (r.shard.index = 3), /: shard\.index is 3, not a shard of 2 \(1 to 2\)/],
    ['the index as text', (r) => (r.shard.index = '1'), /: shard\.index must be a whole number from 0 to 4294967295, not "1"/],
    ['exchanges as an object', (r) => (r.exchanges = {}), /: exchanges must be a list, not \{\}/],
    ['no rules', (r) => delete r.rules, /: the report has no "rules"/],
    ['a rule id as a number', (r) => (r.rules[0] = 7), /: rules\[0\] must be a string, not 7/],
    ['a field no report has', (r) => (r.injected = true), /: the report has a field "injected" that a shard report does not have/],
    ['a status as markup', (r) => (r.exchanges[0].status = '<script>alert(1)</script>'), /: exchanges\[0\]\.status must be a whole number from 0 to 65535, not "<script>alert\(1\)<\/script>"; /],
    ['a recordedStatus as markup', (r) => (r.exchanges[0].recordedStatus = '<img src=x onerror=alert(1)>'), /: exchanges\[0\]\.recordedStatus must be a whole number from 0 to 65535/],
    ['a severity as markup', (r) => r.exchanges[0].findings.push({ rule: r.rules[0], subject: 'status', severity: '<script>alert(1)</script>', message: 'x' }), /: exchanges\[0\]\.findings\[\d+\]\.severity must be "error" or "warning", not "<script>/],
    ['a status of 1e6', (r) => (r.exchanges[0].status = 1e6), /: exchanges\[0\]\.status must be a whole number from 0 to 65535, not 1000000/],
    ['a duration as text', (r) => (r.exchanges[0].durationMs = 'slow'), /: exchanges\[0\]\.durationMs must be a number, not "slow"/],
    ['judged as text', (r) => (r.exchanges[0].judged = 'yes'), /: exchanges\[0\]\.judged must be true or false, not "yes"/],
    ['a rule index out of the table', (r) => (r.exchanges[0].ruleTally.judged = [999]), /: exchanges\[0\]\.ruleTally\.judged holds 999, and the report lists \d+ rules/],
    ['a skip that is not a pair', (r) => (r.exchanges[0].ruleTally.skipped = [[0]]), /: exchanges\[0\]\.ruleTally\.skipped holds \[0\], not a \[rule, reason\] pair/],
    ['a setting that is an object', (r) => (r.settings.concurrency = { n: 1 }), /: settings\["concurrency"\] must be a string, a number, true, false or null, not \{"n":1\}/],
    ['a concurrency of 0', (r) => (r.settings.concurrency = 0), /: settings\.concurrency must be a whole number from 1, not 0/],
    ['a start that is no time', (r) => (r.startedAt = 'yesterday'), /: startedAt must be an RFC 3339 date and time, not "yesterday"/],
    ['a seed as text', (r) => (r.generation = { count: 1, seed: 'x', durationMs: 0, perOperation: {}, reproduce: '', operations: [] }), /: generation\.seed must be a whole number from 0 to 4294967295, not "x"/],
  ])('item 25: %s', async (name, change, want) => {
    const { folder, file } = tampered(name.replace(/\W+/g, '-'), change);
    const r = await merge([folder, shardDir(2)]);
    expect(r.code, r.output).toBe(2);
    expect(r.stdout).toBe('');
    oneLine(r.stderr);
    expect(r.stderr.startsWith(`certify merge: ${file}: `), r.stderr).toBe(true);
    expect(r.stderr).toMatch(want);
    expect(r.stderr).toMatch(/re-run that shard \(or download its artifact again\)|pass the shard-<i>-of-<N>\.json a certify --shard run wrote/);
  });

  it.each<[string, (json: string) => string, RegExp]>([
    ['a number beyond float64 (1e400)', (json) => json.replace(/"durationMs":[\d.]+/, '"durationMs":1e400'), /: not a shard report \("durationMs" holds a number too large to be one a shard wrote\)/],
    ['cut short', (json) => json.slice(0, json.length / 2), /: not a shard report \(.*JSON.*\); pass the shard-<i>-of-<N>\.json a certify --shard run wrote/],
    ['nested 100,000 deep', () => `${'['.repeat(100_000)}${']'.repeat(100_000)}`, /: not a shard report/],
  ])('item 25: a file %s', async (name, text, want) => {
    const { folder } = tampered(name.replace(/\W+/g, '-'), () => {}, text);
    const r = await merge([folder, shardDir(2)]);
    expect(r.code, r.output).toBe(2);
    oneLine(r.stderr);
    expect(r.stderr).toMatch(want);
  });

  it('item 25: more shard reports than a run can have, and more bytes than the merge reads, are refused before any is read', async () => {
    const many = path.join(dir, 'many');
    for (let i = 1; i <= 65; i++) cpSync(shardFile(1), path.join(many, `shard-${i}-of-65.json`));
    const r = await merge([many]);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe('certify merge: 65 shard reports given, and a run has at most 64 shards (certify --shard i/N, N <= 64): pass the report folders of one run\n');
  });
});

describe('issue 37 item 26: what a merge vouches for, digests, and a report.html that escapes everything', () => {
  it('item 26: the untouched shards merge with the digests their jobs printed: certified, and the certificate says what the merge vouched for', async () => {
    const out = path.join(dir, 'checked');
    const r = await runCli(['certify', 'merge', shardDir(1), shardDir(2), '--report-dir', out, ...printed.flatMap((d) => ['--expect-digest', d])]);
    expect(r.code, r.output).toBe(0);
    expect(r.stdout).toContain('  merged from 2 shards, each report the file its job wrote (digests checked)\n');
    const cert: RestCertificate = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8'));
    expect(cert.verdict).toBe('certified');
    expect(cert.merge).toEqual({ shards: printed.map((p) => ({ shard: p.split('=')[0], digest: p.split('=')[1] })), digestsChecked: true });
    expect(cert.notes.join(' ')).toMatch(/it cannot check that a report holds what its shard observed/);
    const html = readFileSync(path.join(out, 'report.html'), 'utf8');
    expect(html).toContain('<h2>Merged from 2 shards</h2>');
    for (const p of printed) expect(html).toContain(p.split('=')[1]);
    // The same digests from a file of the lines the jobs printed.
    const file = path.join(dir, 'digests.txt');
    writeFileSync(file, `# from the shard jobs' logs\n${printed.map((p) => `  shard digest: ${p} (certify merge --expect-digest refuses a report that differs)`).join('\n')}\n`);
    const fromFile = await merge([shardDir(1), shardDir(2), '--expect-digests', file]);
    expect(fromFile.code, fromFile.output).toBe(0);
  });

  it("item 26: a shard whose exchanges were deleted after its job printed the digest is refused (exit 2, one line); without digests the certificate shows the digest that differs", async () => {
    const { folder, file } = tampered('deleted-exchanges', (r) => (r.exchanges = r.exchanges.slice(1)));
    const checked = await merge([folder, shardDir(2), ...printed.flatMap((d) => ['--expect-digest', d])]);
    expect(checked.code, checked.output).toBe(2);
    expect(checked.stdout).toBe('');
    expect(checked.stderr).toMatch(new RegExp(`^certify merge: ${file.replace(/[.]/g, '\\.')}: its digest sha256:[0-9a-f]{64} is none of the --expect-digest values: the report is not the file its shard job wrote \\(it changed since, or is of another run\\); merge the artifact that job uploaded, or re-run that shard\\n$`));
    const unchecked = await merge([folder, shardDir(2)]);
    expect(unchecked.code, unchecked.output).toBe(0);
    const shown = /digests not checked \(--expect-digest\): compare with each shard job's "shard digest" line: (1\/2=sha256:[0-9a-f]{64}) (2\/2=sha256:[0-9a-f]{64})/.exec(unchecked.stdout);
    expect(shown, unchecked.stdout).not.toBeNull();
    expect(shown![1]).not.toBe(printed[0]);
    expect(shown![2]).toBe(printed[1]);
  });

  it('a --strict shard carries --strict to the merge: its warnings fail the merged run, as they fail the run unsharded', async () => {
    const strict = path.join(dir, 'strict');
    const shard = await runCli(['certify', '--base-url', target.url, '--input', `restricted_api_key=${KEY}`, '--strict', '--shard', '1/1', '--quiet', '--report-dir', strict], { STOREFRONT_API_KEY: KEY });
    expect(shard.stdout, `exit ${shard.code}: ${shard.stderr}`).toMatch(/\d+ warnings|[1-9]\d* errors/);
    const merged = await runCli(['certify', 'merge', strict, '--report-dir', path.join(strict, 'merged'), '--quiet']);
    const cert: RestCertificate = JSON.parse(readFileSync(path.join(strict, 'merged', 'report.json'), 'utf8'));
    expect(cert.strict).toBe(true);
    expect(cert.summary.errors).toBeGreaterThan(0);
    expect(merged.code).toBe(1);
    expect(cert.verdict).toBe('not-certified');
  });

  it('item 26: a wrong or malformed --expect-digest is a usage error (exit 2, one line)', async () => {
    const bad = await merge([shardDir(1), shardDir(2), '--expect-digest', 'abc']);
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr).toMatch(/^certify merge: --expect-digest "abc" is not i\/N=sha256:<64 hex digits>: give it as the shard job printed it|--expect-digest "abc" is not i\/N=sha256/);
    oneLine(bad.stderr);
    const swapped = await merge([shardDir(1), shardDir(2), '--expect-digest', `2/2=${printed[0].split('=')[1]}`, '--expect-digest', `1/2=${printed[1].split('=')[1]}`]);
    expect(swapped.code).toBe(2);
    expect(swapped.stderr).toMatch(/shard-1-of-2\.json is shard 1\/2, and its digest was given for shard 2\/2 \(--expect-digest\)/);
    const missing = await merge([shardDir(1), shardDir(2), '--expect-digest', printed[0]]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/: its digest sha256:[0-9a-f]{64} is none of the --expect-digest values/);
  });

  it('item 26: report.html prints every value as text: markup in any field of a certificate (status, recordedStatus, severity, names, messages) stays text', async () => {
    const out = path.join(dir, 'for-html');
    expect((await merge([shardDir(1), shardDir(2)])).code).toBe(0);
    expect((await runCli(['certify', 'merge', shardDir(1), shardDir(2), '--report-dir', out, '--quiet'])).code).toBe(0);
    const cert: Json = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8'));
    const clean = reportHtml(cert as RestCertificate);
    const payload = '<script>alert(1)</script><img src=x onerror=alert(2)>"\'&';
    // Every string the certificate holds, and the numbers and enums the old writer printed as they were.
    const poison = (v: unknown): unknown =>
      typeof v === 'string' ? `${v}${payload}` : Array.isArray(v) ? v.map(poison) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, poison(x)])) : v;
    const hostile = poison(cert) as Json;
    const ex = hostile.exchanges[0];
    Object.assign(ex, { status: payload, recordedStatus: payload, judged: true, findings: [{ rule: 'status-documented', subject: 's', severity: payload, message: payload }] });
    hostile.rules[0].status = payload;
    hostile.rules[0].severity = payload;
    hostile.verdict = payload;
    hostile.certifies = 'rest';
    // Keys too, where the certificate keys a map by a name: operations and statuses.
    hostile.coverage = { [`listProducts${payload}`]: { [`200${payload}`]: { recorded: true, exercised: true, passed: false } } };
    const page = reportHtml(hostile as RestCertificate);
    // Read the page as a browser tokenizes it: tags with double-quoted attributes, and text. What the
    // certificate held must be text: no element, no attribute the clean page lacks, no stray `<` or `>`.
    const TAG = /<!doctype html>|<\/?([a-zA-Z][\w-]*)((?:\s+[a-zA-Z-]+="[^"]*")*)\s*>/g;
    const read = (html: string) => {
      const tags = new Set<string>();
      const attributes = new Set<string>();
      for (const m of html.matchAll(TAG)) {
        if (m[1]) tags.add(m[1].toLowerCase());
        for (const a of (m[2] ?? '').matchAll(/([a-zA-Z-]+)="/g)) attributes.add(a[1].toLowerCase());
      }
      return { tags, attributes, text: html.replace(TAG, '') };
    };
    const [before, after] = [read(clean), read(page)];
    expect(after.tags).toEqual(before.tags);
    expect(after.attributes).toEqual(new Set(['lang', 'charset', 'class']));
    expect(after.text).not.toMatch(/[<>]/);
    expect(page).not.toMatch(/<script|<img/i);
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&quot;&apos;&amp;');
  });
});
