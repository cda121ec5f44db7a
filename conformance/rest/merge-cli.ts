// `storefront-contract certify merge <dir>...`: one report.json / junit.xml / report.html from the
// reports of every shard of a run (merge.ts). Exit 0 certified, 1 not certified, 2 when the shards are
// not the N parts of one run (one line saying which report differs and how) or on a usage error.
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

Options:
  --report-dir <dir>   where the merged reports go (default .reports/certify)
  --quiet              no summary on stdout
  --help               this text

Exit 0 when certified, 1 when not, 2 when the shards cannot be merged or on a usage error.

Example:
  storefront-contract certify merge shards/*/ --report-dir .reports/certify`;

export async function runMerge(argv: string[]): Promise<number> {
  let values: { 'report-dir'?: string; quiet?: boolean; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { 'report-dir': { type: 'string' }, quiet: { type: 'boolean', short: 'q' }, help: { type: 'boolean', short: 'h' } },
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
  let certificate;
  try {
    certificate = mergeShards(readShardReports(positionals));
  } catch (error) {
    if (!(error instanceof MergeError)) throw error;
    process.stderr.write(`certify merge: ${error.message}\n`);
    return 2;
  }
  const files = writeReports(certificate, reportDir);
  if (!values.quiet) process.stdout.write(`${summaryText(certificate, files.map((f) => path.relative(process.cwd(), f)))}\n`);
  return certificate.verdict === 'certified' ? 0 : 1;
}
