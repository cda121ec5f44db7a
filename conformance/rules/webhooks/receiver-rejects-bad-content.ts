// receiver-rejects-bad-content: correctly signed bytes that are not a valid delivery (malformed JSON,
// invalid UTF-8, a schema violation, payload ids that contradict the envelope) are better refused than
// acknowledged, so nothing acts on them. Advice only: the platform's interface document requires a
// receiver to reject bad signatures (sections 5.5, 7), not bad content; only the sender holds the
// secret, any non-2XX just makes it retry, and receivers should tolerate fields and events they do not
// know (register WH-002). A 5XX on such a body is receiver-no-5xx-on-bad-input's to report.
import type { Rule } from '../model.js';
import type { ReceiverObservations } from '../observations/webhooks.js';
import { is2xx, perProbe } from '../shared/webhooks.js';

export const receiverRejectsBadContent: Rule<ReceiverObservations> = {
  id: 'receiver-rejects-bad-content',
  target: 'webhook-receiver',
  severity: 'warning',
  source: { kind: 'designed', ref: 'spec/inferred/webhooks.yaml#/1' },
  summary: 'A correctly signed body that is not a valid WebhookEnvelope is not acknowledged with 2XX (advice: the contract requires only the signature check).',
  check: (o) =>
    perProbe(o.probes, ['bad-content'], (p) => (is2xx(p.status) ? [`answered ${p.status}: signed content that is not a valid delivery was acknowledged; make sure it is not processed`] : [])),
};
