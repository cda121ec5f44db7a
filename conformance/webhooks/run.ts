// The CLI's two commands as functions returning the certificate and the files written, so the CLI,
// `certifyWebhooksAgainstWorkbench` and the tests share one path.
import type { WebhookCertificate } from '../report/certificate.js';
import { ruleLines } from '../report/progress.js';
import { writeReports } from '../report/write.js';
import { certifyReceiver } from './receiver/certify-receiver.js';
import { adminTrigger, resolveAdminUrl } from './sender/admin-trigger.js';
import { certifySender } from './sender/certify-sender.js';
import { manualTrigger, type Trigger } from './sender/trigger.js';
import type { ReceiverArgs, SenderArgs } from './args.js';
import type { ReceiverObservations, SenderObservations } from '../rules/observations/webhooks.js';

export interface RunResult<O> {
  certificate: WebhookCertificate;
  files: string[];
  observations: O;
}

export interface RunIo {
  /** Live progress lines (stderr in the CLI). */
  progress?: (line: string) => void;
  /** Write no files when false (tests). Default true. */
  writeFiles?: boolean;
}

export async function runSender(args: Omit<SenderArgs, 'command'>, io: RunIo & { trigger?: Trigger } = {}): Promise<RunResult<SenderObservations>> {
  const progress = io.progress ?? (() => {});
  const trigger =
    io.trigger ??
    (args.adminUrl
      ? adminTrigger({ adminUrl: args.adminUrl, adminToken: args.adminToken!, store: args.store, event: args.event })
      : manualTrigger({ secret: args.secret!, customHeaders: args.expectHeaders, event: args.event, say: progress }));
  const target = args.adminUrl ? resolveAdminUrl(args.adminUrl, args.store).adminBase : undefined;
  const { certificate, observations } = await certifySender({
    trigger,
    event: args.event,
    target,
    port: args.port,
    timeScale: args.timeScale,
    lateSlackMs: args.toleranceMs,
    quietMs: args.quietMs,
    arrivalWaitMs: args.waitMs ?? (args.adminUrl || io.trigger ? 10_000 : 120_000),
    strict: args.strict,
    progress,
  });
  for (const line of ruleLines(certificate.rules)) progress(line);
  const files = io.writeFiles === false ? [] : writeReports(certificate, args.reportDir);
  return { certificate, files, observations };
}

export async function runReceiver(args: Omit<ReceiverArgs, 'command'>, io: RunIo = {}): Promise<RunResult<ReceiverObservations>> {
  const progress = io.progress ?? (() => {});
  const { certificate, observations } = await certifyReceiver({
    url: args.url,
    secret: args.secret,
    probeUrl: args.probeUrl,
    oversizeBytes: args.oversizeBytes,
    strict: args.strict,
    progress,
  });
  for (const line of ruleLines(certificate.rules)) progress(line);
  const files = io.writeFiles === false ? [] : writeReports(certificate, args.reportDir);
  return { certificate, files, observations };
}
