// certifyWebhooksAgainstWorkbench: the webhook half of `npm run certify -- --all`. Certifies the mock
// workbench's webhook simulator as a sender (registering through its Admin API, raising events through
// /__simulator) and, when a subscriber endpoint is given, that endpoint as a receiver. With no baseUrl it
// starts the workbench in process (mock + simulator) on a free port with a small time scale, so the run
// takes seconds.
import path from 'node:path';
import { createMockServer } from '../../workbench/adapters/node-http.js';
import { createSimulator } from '../../workbench/simulator/index.js';
import { runReceiver, runSender, type RunResult } from './run.js';
import type { ReceiverObservations, SenderObservations } from '../rules/observations/webhooks.js';

export interface WorkbenchWebhookOptions {
  /** A running workbench (`npm start`); undefined: one is started in process. */
  baseUrl?: string;
  /** Admin bearer token; the local simulator accepts any non-empty one unless started with admin tokens. */
  adminToken?: string;
  storeId?: string;
  /** Time scale of an in-process workbench (default 0.005); a running one reports its own. */
  timeScale?: number;
  /** Reports go to <reportDir>/webhooks-sender and <reportDir>/webhooks-receiver; undefined: no files. */
  reportDir?: string;
  /** Also certify this subscriber endpoint as a receiver. */
  receiver?: { url: string; secret: string; probeUrl?: string };
  /** Warnings count as errors. */
  strict?: boolean;
  progress?: (line: string) => void;
}

export interface WorkbenchWebhookResult {
  certified: boolean;
  sender: RunResult<SenderObservations>;
  receiver?: RunResult<ReceiverObservations>;
  files: string[];
}

export const DEFAULT_WORKBENCH_TIME_SCALE = 0.005;

export async function certifyWebhooksAgainstWorkbench(options: WorkbenchWebhookOptions = {}): Promise<WorkbenchWebhookResult> {
  const scale = options.timeScale ?? DEFAULT_WORKBENCH_TIME_SCALE;
  const sim = options.baseUrl ? undefined : createSimulator({ timeScale: scale });
  const mock = sim ? await createMockServer({ port: 0, quiet: true, extensions: [sim.extension] }) : undefined;
  const io = { progress: options.progress, writeFiles: options.reportDir !== undefined };
  const dir = (name: string) => (options.reportDir ? path.join(options.reportDir, name) : '');
  try {
    // The sending thread started before the first event is raised: its start is not the sender's latency.
    await sim?.ready();
    const sender = await runSender(
      {
        adminUrl: mock?.url ?? options.baseUrl!,
        adminToken: options.adminToken ?? 'certify-all',
        store: options.storeId,
        port: 0,
        // In process the scale is known; a running workbench reports its own through GET /__simulator.
        timeScale: sim ? scale : undefined,
        event: 'order.created',
        expectHeaders: {},
        reportDir: dir('webhooks-sender'),
        strict: options.strict,
      },
      io,
    );
    const receiver = options.receiver
      ? await runReceiver({ url: options.receiver.url, secret: options.receiver.secret, probeUrl: options.receiver.probeUrl, reportDir: dir('webhooks-receiver'), strict: options.strict }, io)
      : undefined;
    const certified = sender.certificate.verdict === 'certified' && (!receiver || receiver.certificate.verdict === 'certified');
    return { certified, sender, receiver, files: [...sender.files, ...(receiver?.files ?? [])] };
  } finally {
    await sim?.close();
    await mock?.close();
  }
}
