// The webhook certificate: the common frame (conformance/report/certificate.ts) with the webhook evidence:
// every probe sent to a receiver and its answer, or every request a sender made to the certifier.
import { certificateFrame, type DeliveryRow, type ProbeRow, type WebhookCertificate } from '../report/certificate.js';
import type { RuleResult } from '../rules/run.js';
import type { CapturedDelivery, ProbeResult } from '../rules/observations/webhooks.js';

const round = (n: number) => Math.round(n * 10) / 10;

export function probeRows(probes: ProbeResult[]): ProbeRow[] {
  return probes.map((p) => ({ group: p.group, name: p.name, expect: p.expect, status: p.status, ...(p.transportError ? { transportError: p.transportError } : {}) }));
}

/** Deliveries with times in ms from `t0` (performance.now() at the start of the run); no body, no header. */
export function deliveryRows(deliveries: CapturedDelivery[], t0: number): DeliveryRow[] {
  return deliveries.map((d) => {
    const body = d.body && typeof d.body === 'object' ? (d.body as { event?: unknown }) : undefined;
    return {
      seq: d.seq,
      phase: d.phase,
      ...(typeof body?.event === 'string' ? { event: body.event } : {}),
      method: d.method,
      answer: d.answer,
      receivedAtMs: round(d.receivedAt - t0),
      ...(d.endedAt !== undefined ? { endedAtMs: round(d.endedAt - t0) } : {}),
      ...(d.abandonedBySender ? { abandonedBySender: true } : {}),
    };
  });
}

export function buildWebhookCertificate(input: {
  certifies: WebhookCertificate['certifies'];
  target: string;
  rules: RuleResult[];
  strict: boolean;
  startedAt: Date;
  durationMs: number;
  settings: WebhookCertificate['settings'];
  notes: string[];
  probes?: ProbeRow[];
  deliveries?: DeliveryRow[];
}): WebhookCertificate {
  const frame = certificateFrame({ ...input, target: { url: input.target } });
  return {
    ...frame,
    certifies: input.certifies,
    ...(input.probes ? { probes: input.probes } : {}),
    ...(input.deliveries ? { deliveries: input.deliveries } : {}),
  };
}
