// receiver-tolerates-unknown: a valid, signed delivery carrying fields this contract version does not name
// is acknowledged. The platform leaves the event models open (section 6.5 of its interface document), so
// the spec keeps every envelope and payload schema open and receivers ignore what they do not know
// (register WH-002): a receiver refusing new fields would refuse every delivery after the platform adds
// one. Advice only (designed). A delivery of an event the catalog does not list is also sent; whether to
// acknowledge it is the receiver's choice (a 410 there is receiver-never-410's to report).
import type { Rule } from '../model.js';
import type { ReceiverObservations } from '../observations/webhooks.js';
import { is2xx, perProbe, statusText } from '../shared/webhooks.js';

export const receiverToleratesUnknown: Rule<ReceiverObservations> = {
  id: 'receiver-tolerates-unknown',
  target: 'webhook-receiver',
  severity: 'warning',
  source: { kind: 'designed', ref: 'spec/inferred/webhooks.yaml#/1' },
  summary: 'A valid signed delivery with fields this contract version does not name is answered 2XX (advice: receivers ignore what they do not know).',
  check: (o) =>
    perProbe(o.probes, ['unknown'], (p) =>
      p.expect !== '2XX' || is2xx(p.status) ? [] : [`answered ${statusText(p)}: a delivery with fields this version does not name was refused; ignore unknown fields`],
    ),
};
