// Webhook certification as functions: the CLI (cli.ts), `npm run certify -- --all`
// (certifyWebhooksAgainstWorkbench) and the tests all go through these.
export { certifySender, type CertifySenderOptions, type SenderCertification } from './sender/certify-sender.js';
export { certifyReceiver, type CertifyReceiverOptions, type ReceiverCertification } from './receiver/certify-receiver.js';
export { adminTrigger, resolveAdminUrl, type AdminTriggerOptions } from './sender/admin-trigger.js';
export { manualTrigger, type Trigger, type RaiseKind, type RaiseResult, type SetupResult } from './sender/trigger.js';
export { runSender, runReceiver, type RunResult, type RunIo } from './run.js';
export { certifyWebhooksAgainstWorkbench, type WorkbenchWebhookOptions, type WorkbenchWebhookResult } from './workbench.js';
export { buildWebhookCertificate } from './certificate.js';
export { timingModel, describeTolerances } from './timing.js';
export type * from '../rules/observations/webhooks.js';
