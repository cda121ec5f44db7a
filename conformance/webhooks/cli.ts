// npm run certify:webhooks -- sender|receiver ...: certifies a webhook sender or receiver, prints progress
// and a summary, writes report.json, junit.xml and report.html. Exit 0 certified, 1 not certified, 2 usage
// error or unreachable target. Never prints a stack, a secret or a token.
import path from 'node:path';
import { parseWebhookArgs, UsageError, USAGE } from './args.js';
import { summaryText } from '../report/summary.js';
import { runReceiver, runSender } from './run.js';

async function main(): Promise<number> {
  let args;
  try {
    args = parseWebhookArgs(process.argv.slice(2));
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`certify:webhooks: ${e.message}\n${USAGE}\n`);
      return 2;
    }
    throw e;
  }
  if (args.command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const progress = (line: string) => process.stderr.write(`${line}\n`);
  const result = args.command === 'sender' ? await runSender(args, { progress }) : await runReceiver(args, { progress });
  process.stdout.write(`${summaryText(result.certificate, result.files.map((f) => path.relative(process.cwd(), f)))}\n`);
  return result.certificate.verdict === 'certified' ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`certify:webhooks: ${((error as Error)?.message ?? String(error)).split('\n')[0]}\n`);
    process.exit(2);
  },
);
