// The certifier as a library: REST certification (certify; sharded with `shard`, merged with mergeShards), webhook sender and receiver certification,
// the validating proxy and the offline judge of recorded traffic (createValidatingProxy, judgeTrafficFile),
// the rule sets with their model, and the report writers. The workbench helper behind `certify --all`
// (certifyWebhooksAgainstWorkbench) lives in conformance/webhooks/workbench.ts: it loads the simulator.
export { certify, DEFAULT_STORE_ID, type CertifyOptions, type CertifyOutcome } from './rest/certify.js';
export { mergeShards, readShardReports, MergeError, type LoadedShard } from './rest/merge.js';
export type { ShardSpec } from './rest/shard.js';
export type { ShardReport } from './report/shard.js';
export { certifySender, type CertifySenderOptions, type SenderCertification } from './webhooks/sender/certify-sender.js';
export { certifyReceiver, type CertifyReceiverOptions, type ReceiverCertification } from './webhooks/receiver/certify-receiver.js';
export { runSender, runReceiver, type RunResult, type RunIo } from './webhooks/run.js';
export { adminTrigger, type AdminTriggerOptions } from './webhooks/sender/admin-trigger.js';
export { manualTrigger, type Trigger } from './webhooks/sender/trigger.js';
export { createValidatingProxy, type ValidatingProxy, type ValidatingProxyOptions } from './rest/observed/proxy.js';
export { judgeTrafficFile, type JudgeFileOptions } from './rest/observed/files.js';
export { trafficRules, violationLine, type Violation } from './rest/observed/judge.js';
export { restRules } from './rules/rest/index.js';
export { senderRules, receiverRules } from './rules/webhooks/index.js';
export type { Rule, Finding, Judgement, Skipped, Source, Severity, Target } from './rules/model.js';
export type { Policy, RuleResult, RuleStatus } from './rules/run.js';
export type { Certificate, RestCertificate, WebhookCertificate } from './report/certificate.js';
export { summaryText } from './report/summary.js';
export { junitXml } from './report/junit.js';
export { reportHtml } from './report/html.js';
export { writeReports } from './report/write.js';
