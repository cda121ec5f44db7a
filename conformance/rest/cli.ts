// `storefront-contract certify` (npm run certify): replays the recorded traffic against the
// target, judges every exchange by the rules, prints progress and a summary, writes the reports.
// Exit 0 certified, 1 not certified, 2 usage error or unreachable target. Never prints a stack.
import { reportDirProblem, writeReports } from '../report/write.js';
import path from 'node:path';
import { storefrontOperations } from 'storefront-contract';
import { parseCliArgs, USAGE } from './args.js';
import { certify, DEFAULT_STORE_ID } from './certify.js';
import { LoadError } from './load.js';
import { misuseReason } from './misuse.js';
import { TrafficFileError } from './observed/files.js';
import { unreachableReason } from './reachable.js';
import { progressLine } from '../report/progress.js';
import { summaryText } from '../report/summary.js';
import { partPassed } from '../report/certificate.js';

export async function runCertify(argv: string[]): Promise<number> {
  if (argv[0] === 'merge') return (await import('./merge-cli.js')).runMerge(argv.slice(1));
  // A usage mistake is thrown (UsageError): the bin prints it as one line naming the flag and the fix.
  const options = parseCliArgs(argv, Object.keys(storefrontOperations), (line) => process.stderr.write(`${line}\n`));
  try {
    return await certifyAndReport(options);
  } catch (error) {
    const message = error instanceof LoadError || error instanceof TrafficFileError ? error.message : (error as Error)?.message ?? String(error);
    process.stderr.write(`certify: ${message.split('\n')[0]}\n`);
    return 2;
  }
}

async function certifyAndReport(options: ReturnType<typeof parseCliArgs>): Promise<number> {
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const reportProblem = reportDirProblem(options.reportDir);
  if (reportProblem) {
    process.stderr.write(`certify: ${reportProblem}\n`);
    return 2;
  }
  if (options.fromFile) return judgeFile(options, options.fromFile);
  if (options.baseUrl) {
    const reason = await unreachableReason(options.baseUrl);
    if (reason) {
      process.stderr.write(`certify: ${reason}\n`);
      return 2;
    }
    const misuse = await misuseReason(options.baseUrl, options.storeId ?? DEFAULT_STORE_ID, options.apiKey);
    if (misuse) {
      process.stderr.write(`certify: ${misuse}\n`);
      return 2;
    }
  }
  if (!options.quiet) process.stderr.write(`certify: replaying recorded traffic against ${options.baseUrl ?? 'the embedded mock'} (concurrency ${options.concurrency})${options.shard ? `, shard ${options.shard.index}/${options.shard.total}` : ''}\n`);
  if (options.generate && !options.quiet) process.stderr.write(`certify: then ${options.generate} generated valid and ${options.generate} invalid requests per operation${options.seed !== undefined ? ` (seed ${options.seed})` : ''}\n`);
  const { certificate, files, shard, shardDigest } = await certify({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    storeId: options.storeId,
    inputs: options.inputs,
    only: options.only,
    concurrency: options.concurrency,
    reportDir: options.reportDir,
    strict: options.strict,
    generate: options.generate,
    seed: options.seed,
    shard: options.shard,
    onResult: options.quiet ? undefined : (r) => process.stderr.write(`${progressLine(r)}\n`),
  });
  process.stdout.write(`${summaryText(certificate, files.map((f) => path.relative(process.cwd(), f)))}\n`);
  // What the merge job can check the report it downloads against (certify merge --expect-digest).
  if (shard && shardDigest) process.stdout.write(`  shard digest: ${shard.shard.index}/${shard.shard.total}=${shardDigest} (certify merge --expect-digest refuses a report that differs)\n`);
  const restCertified = certificate.verdict === 'certified';
  // A shard: 0 when its part passed (the merge gives the run's verdict).
  if (shard) return partPassed(certificate) ? 0 : 1;
  if (!options.all) return restCertified ? 0 : 1;

  // --all: the webhook half against the same workbench (its simulator as the sender). Loaded only
  // here so the REST certifier does not need the simulator's dependencies.
  if (!options.quiet) process.stderr.write(`certify: webhooks: certifying the workbench's webhook sender\n`);
  const { certifyWebhooksAgainstWorkbench } = await import('../webhooks/workbench.js');
  const webhooks = await certifyWebhooksAgainstWorkbench({
    baseUrl: options.baseUrl,
    storeId: options.storeId,
    reportDir: options.reportDir,
    strict: options.strict,
    progress: options.quiet ? undefined : (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`${summaryText(webhooks.sender.certificate, webhooks.files.map((f) => path.relative(process.cwd(), f)))}\n`);
  process.stdout.write(`certify --all: REST ${restCertified ? 'certified' : 'NOT certified'}, webhooks ${webhooks.certified ? 'certified' : 'NOT certified'}\n`);
  return restCertified && webhooks.certified ? 0 : 1;
}


/**
 * `--from-har` / `--from-log`: the recorded traffic judged offline by the validating proxy's judge (the
 * rules that need no recording), its violations printed as the proxy prints them, the same reports.
 */
async function judgeFile(options: ReturnType<typeof parseCliArgs>, source: NonNullable<ReturnType<typeof parseCliArgs>['fromFile']>): Promise<number> {
  const [{ judgeTrafficFile }, { violationLine }] = await Promise.all([import('./observed/files.js'), import('./observed/judge.js')]);
  if (!options.quiet) process.stderr.write(`certify: judging the traffic in ${source.file} (nothing is sent)\n`);
  const certificate = await judgeTrafficFile({
    file: source.file,
    format: source.format,
    storeId: options.storeId,
    strict: options.strict,
    onViolation: options.quiet ? undefined : (v) => process.stderr.write(`${violationLine(v)}\n`),
    onNote: options.quiet ? undefined : (line) => process.stderr.write(`${line}\n`),
  });
  const files = writeReports(certificate, options.reportDir);
  process.stdout.write(`${summaryText(certificate, files.map((f) => path.relative(process.cwd(), f)))}\n`);
  return certificate.verdict === 'certified' ? 0 : 1;
}
