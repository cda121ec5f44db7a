// `storefront-contract certify merge <dir>...`: one report.json / junit.xml / report.html from the
// reports of every shard of a run (merge.ts). Exit 0 certified, 1 not certified, 2 when the shards are
// not the N parts of one run (one line saying which report differs and how) or on a usage error.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../../workbench/cli-support.js';
import { summaryText } from '../report/summary.js';
import { reportDirProblem, writeReports } from '../report/write.js';
import { MergeError, mergeShards, readShardReports } from './merge.js';

export const MERGE_USAGE = `Usage: storefront-contract certify merge <dir>... [options]

Merges the reports of the shards of one run (certify --shard i/N, each in its --report-dir) into the
certificate of the whole run: report.json, junit.xml and report.html, whose verdict, rules, coverage and
counts are those of the same run unsharded (the same --seed). Each <dir> is a shard's report folder (or a
folder holding several shard-<i>-of-<N>.json files, or one such file). Shards of another contract,
recordings, tool version, target or flags, a shard given twice and a missing shard are refused.

A merge vouches that the reports are the parts of one run and computes the verdict from what they
report; that a report holds what its shard observed rests on the shard job. Each shard prints its
report's digest ("shard digest: 2/4=sha256:..."); give them all, and a report whose bytes differ (changed
after its job wrote it) is refused.

Options:
  --report-dir <dir>             where the merged reports go (default .reports/certify)
  --expect-digest <i/N=sha256:hex>
                                 a shard's digest as its job printed it (once per shard)
  --expect-digests <file>        a file of such digests, one a line (lines as the jobs printed them)
  --quiet                        no summary on stdout
  --help                         this text

Exit 0 when certified, 1 when not, 2 when the shards cannot be merged (a damaged report, a digest that
differs) or on a usage error.

Example:
  storefront-contract certify merge shards/*/ --report-dir .reports/certify --expect-digests digests.txt`;

/** `2/4=sha256:<64 hex>`, as the shard job prints it. */
const DIGEST = /(\d{1,3}\/\d{1,3})=(sha256:[0-9a-f]{64})\b/;
/** A digests file is a few lines: one per shard. */
const MAX_DIGESTS_FILE_BYTES = 64 * 1024;

/** The expected digests of --expect-digest and --expect-digests: digest -> shard label. */
function expectedDigests(flags: readonly string[], file: string | undefined): Map<string, string> | undefined {
  const entries: Array<[string, string, string]> = [];
  for (const flag of flags) {
    const m = new RegExp(`^${DIGEST.source}$`).exec(flag.trim());
    if (!m) throw new UsageError(`--expect-digest ${JSON.stringify(flag).slice(0, 90)} is not i/N=sha256:<64 hex digits>: give it as the shard job printed it (shard digest: 2/4=sha256:...)`);
    entries.push([m[1], m[2], `--expect-digest ${m[1]}`]);
  }
  if (file !== undefined) {
    let text: string;
    try {
      if (statSync(file).size > MAX_DIGESTS_FILE_BYTES) throw new UsageError(`--expect-digests ${file}: larger than ${MAX_DIGESTS_FILE_BYTES / 1024} KiB, and it holds one line per shard; give the file of the digests the shard jobs printed`);
      text = readFileSync(file, 'utf8');
    } catch (e) {
      if (e instanceof UsageError) throw e;
      throw new UsageError(`--expect-digests ${file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); give the file of the digests the shard jobs printed`);
    }
    text.split('\n').forEach((line, i) => {
      if (!line.trim() || line.trim().startsWith('#')) return;
      const m = DIGEST.exec(line);
      if (!m) throw new UsageError(`--expect-digests ${file}:${i + 1}: no i/N=sha256:<64 hex digits> on the line; keep the lines the shard jobs printed (shard digest: 2/4=sha256:...)`);
      entries.push([m[1], m[2], `${file}:${i + 1}`]);
    });
  }
  if (!entries.length) return undefined;
  const out = new Map<string, string>();
  const labels = new Map<string, string>();
  for (const [label, digest, where] of entries) {
    const other = labels.get(label);
    if (other !== undefined && out.get(digest) !== label) throw new UsageError(`${where}: shard ${label} is given two digests (also at ${other}); give each shard's digest once`);
    if (out.has(digest) && out.get(digest) !== label) throw new UsageError(`${where}: the digest of shard ${label} is also given for shard ${out.get(digest)}; give each shard's own digest`);
    labels.set(label, where);
    out.set(digest, label);
  }
  return out;
}

export async function runMerge(argv: string[]): Promise<number> {
  let values: { 'report-dir'?: string; 'expect-digest'?: string[]; 'expect-digests'?: string; quiet?: boolean; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { 'report-dir': { type: 'string' }, 'expect-digest': { type: 'string', multiple: true }, 'expect-digests': { type: 'string' }, quiet: { type: 'boolean', short: 'q' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (e) {
    throw new UsageError(`merge: ${(e as Error).message}`);
  }
  if (values.help) {
    process.stdout.write(`${MERGE_USAGE}\n`);
    return 0;
  }
  if (!positionals.length) throw new UsageError('merge needs the report folder of every shard: certify merge <dir>... (each the --report-dir of a certify --shard i/N run)');
  const reportDir = values['report-dir'] ?? '.reports/certify';
  const problem = reportDirProblem(reportDir);
  if (problem) {
    process.stderr.write(`certify merge: ${problem}\n`);
    return 2;
  }
  const expected = expectedDigests(values['expect-digest'] ?? [], values['expect-digests']);
  let certificate;
  try {
    certificate = mergeShards(readShardReports(positionals, expected), { digestsChecked: expected !== undefined });
  } catch (error) {
    if (!(error instanceof MergeError)) throw error;
    process.stderr.write(`certify merge: ${error.message}\n`);
    return 2;
  }
  const files = writeReports(certificate, reportDir);
  if (!values.quiet) {
    process.stdout.write(`${summaryText(certificate, files.map((f) => path.relative(process.cwd(), f)))}\n`);
    const digests = certificate.merge!.shards.map((s) => `${s.shard}=${s.digest}`).join(' ');
    process.stdout.write(
      certificate.merge!.digestsChecked
        ? `  merged from ${certificate.merge!.shards.length} shards, each report the file its job wrote (digests checked)\n`
        : `  merged from ${certificate.merge!.shards.length} shards; digests not checked (--expect-digest): compare with each shard job's "shard digest" line: ${digests}\n`,
    );
  }
  return certificate.verdict === 'certified' ? 0 : 1;
}
