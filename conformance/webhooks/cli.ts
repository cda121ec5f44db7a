// `storefront-contract certify-webhooks sender|receiver ...` (npm run certify:webhooks): certifies a webhook sender or receiver, prints progress
// and a summary, writes report.json, junit.xml and report.html. Exit 0 certified, 1 not certified, 2 usage
// error or unreachable target. Never prints a stack, a secret or a token.
import path from 'node:path';
import { parseWebhookArgs, USAGE } from './args.js';
import { summaryText } from '../report/summary.js';
import { reportDirProblem } from '../report/write.js';
import { runReceiver, runSender } from './run.js';

export async function runCertifyWebhooks(argv: string[]): Promise<number> {
  // A usage mistake is thrown (UsageError): the bin prints it as one line naming the flag and the fix.
  const args = parseWebhookArgs(argv);
  try {
    return await certifyAndReport(args);
  } catch (error) {
    process.stderr.write(`certify-webhooks: ${((error as Error)?.message ?? String(error)).split('\n')[0]}\n`);
    return 2;
  }
}

async function certifyAndReport(args: ReturnType<typeof parseWebhookArgs>): Promise<number> {
  if (args.command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const reportProblem = reportDirProblem(args.reportDir);
  if (reportProblem) throw new Error(reportProblem);
  const progress = (line: string) => process.stderr.write(`${line}\n`);
  const result = args.command === 'sender' ? await runSender(args, { progress }) : await runReceiver(args, { progress });
  process.stdout.write(`${summaryText(result.certificate, result.files.map((f) => path.relative(process.cwd(), f)))}\n`);
  return result.certificate.verdict === 'certified' ? 0 : 1;
}

