// The CLI's two commands as functions returning the certificate and the files written, so the CLI,
// `certifyWebhooksAgainstWorkbench` and the tests share one path.
import { certifyReceiver } from './receiver/certify-receiver.js';
import { buildWebhookCertificate, type WebhookCertificate } from './report/certificate.js';
import { ruleLines } from './report/summary.js';
import { writeWebhookReports } from './report/write.js';
import { adminTrigger, resolveAdminUrl } from './sender/admin-trigger.js';
import { certifySender } from './sender/certify-sender.js';
import { manualTrigger, type Trigger } from './sender/trigger.js';
import type { ReceiverArgs, SenderArgs } from './args.js';
import type { ReceiverObservations, SenderObservations } from './types.js';

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
  const { report, observations } = await certifySender({
    trigger,
    event: args.event,
    target,
    port: args.port,
    timeScale: args.timeScale,
    lateSlackMs: args.toleranceMs,
    quietMs: args.quietMs,
    arrivalWaitMs: args.waitMs ?? (args.adminUrl || io.trigger ? 10_000 : 120_000),
    progress,
  });
  const certificate = buildWebhookCertificate(report);
  for (const line of ruleLines(certificate)) progress(line);
  const files = io.writeFiles === false ? [] : writeWebhookReports(certificate, args.reportDir);
  return { certificate, files, observations };
}

export async function runReceiver(args: Omit<ReceiverArgs, 'command'>, io: RunIo = {}): Promise<RunResult<ReceiverObservations>> {
  const progress = io.progress ?? (() => {});
  const { report, observations } = await certifyReceiver({ url: args.url, secret: args.secret, probeUrl: args.probeUrl, oversizeBytes: args.oversizeBytes, progress });
  const certificate = buildWebhookCertificate(report);
  for (const line of ruleLines(certificate)) progress(line);
  const files = io.writeFiles === false ? [] : writeWebhookReports(certificate, args.reportDir);
  return { certificate, files, observations };
}
