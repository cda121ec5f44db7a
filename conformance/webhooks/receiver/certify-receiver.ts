// certifyReceiver: sends the planned probes to a subscriber endpoint one at a time, reads the processed
// counts from --probe-url when given, and judges the answers with the receiver rules.
import { deliveryRules } from 'storefront-contract';
import type { WebhookCertificate } from '../../report/certificate.js';
import { receiverRules } from '../../rules/webhooks/index.js';
import { runRules } from '../../rules/run.js';
import { buildWebhookCertificate, probeRows } from '../certificate.js';
import type { ProbeResult, ReceiverObservations } from '../../rules/observations/webhooks.js';
import { planProbes } from './probes.js';
import { readProcessed, sendProbe } from './send.js';

/** Default oversized body: far above what a webhook needs (the kit's default limit is 1 MiB). */
export const DEFAULT_OVERSIZE_BYTES = 8 * 1024 * 1024;

export interface CertifyReceiverOptions {
  url: string;
  /** The subscription secret the receiver verifies with. Never printed or reported. */
  secret: string;
  /** GET endpoint returning processed counts by event_id. */
  probeUrl?: string;
  oversizeBytes?: number;
  /** Per-probe answer deadline; default the contract's delivery time-out. */
  timeoutMs?: number;
  /** Warnings count as errors. */
  strict?: boolean;
  progress?: (line: string) => void;
}

export interface ReceiverCertification {
  certificate: WebhookCertificate;
  observations: ReceiverObservations;
}

/** The URL without credentials or query (a receiver URL may carry a token). */
export function publicUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid url)';
  }
}

export async function certifyReceiver(options: CertifyReceiverOptions): Promise<ReceiverCertification> {
  const started = Date.now();
  const progress = options.progress ?? (() => {});
  const timeoutMs = options.timeoutMs ?? deliveryRules.timeoutSeconds * 1000;
  const oversizeBytes = options.oversizeBytes ?? DEFAULT_OVERSIZE_BYTES;
  const plan = planProbes(options.secret, { oversizeBytes });
  const probes: ProbeResult[] = [];
  let lastGroup = '';
  for (const p of plan.probes) {
    const answer = await sendProbe(options.url, p.probe, timeoutMs);
    // Nothing listens (or the name does not resolve): one line now, not one per probe group first.
    if (probes.length === 0 && answer.status === null && /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH/.test(String(answer.transportError))) {
      throw new Error(`receiver at ${publicUrl(options.url)} is unreachable: ${answer.transportError}`);
    }
    if (p.group !== lastGroup) progress(`probing: ${p.group}`);
    lastGroup = p.group;
    probes.push({ group: p.group, name: p.name, expect: p.expect, eventId: p.eventId, ...answer });
  }
  if (probes.length > 0 && probes.every((p) => p.status === null)) {
    throw new Error(`receiver at ${publicUrl(options.url)} is unreachable: ${probes[0].transportError}`);
  }

  const observations: ReceiverObservations = { probes, duplicateEventIds: plan.duplicateEventIds, testEventIds: plan.testEventIds };
  if (options.probeUrl) {
    try {
      observations.processed = await readProcessed(options.probeUrl);
    } catch (e) {
      observations.probeError = (e as Error).message;
    }
  }
  const strict = options.strict ?? false;
  const notes = [
    `${probes.length} probes sent, one at a time`,
    options.probeUrl
      ? `processed counts read from ${publicUrl(options.probeUrl)}${observations.probeError ? ` (failed: ${observations.probeError})` : ''}`
      : 'no --probe-url: whether deliveries were processed (idempotency, test deliveries) cannot be observed; those rules are skipped',
  ];
  const certificate = buildWebhookCertificate({
    certifies: 'webhook-receiver',
    target: publicUrl(options.url),
    rules: runRules(receiverRules, observations, { strict }),
    strict,
    startedAt: new Date(started),
    durationMs: Date.now() - started,
    settings: { probes: probes.length, oversizeBytes, probeTimeoutMs: timeoutMs, probeUrl: options.probeUrl ? publicUrl(options.probeUrl) : 'none' },
    notes,
    probes: probeRows(probes),
  });
  return { certificate, observations };
}
