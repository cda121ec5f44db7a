// Seed 4.5: a subscriber answers a valid, signed delivery with a 2XX, for every event type of the catalog.
import type { ReceiverObservations, WebhookRule } from '../../webhooks/types.js';
import { is2xx, perProbe, statusText } from './util.js';

export const receiverAcceptsValid: WebhookRule<ReceiverObservations> = {
  id: 'receiver-accepts-valid',
  target: 'receiver',
  summary: 'A valid signed delivery of each event type is answered 2XX.',
  check: (o) => perProbe(o.probes, ['valid'], (p) => (is2xx(p.status) ? [] : [`answered ${statusText(p)}, expected 2XX`])),
};
