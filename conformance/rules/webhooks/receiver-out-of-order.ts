// Seed 6.1.2: deliveries may arrive out of order. An update older than one already applied is
// acknowledged (2XX; the receiver skips it by payload.timestamp), not failed into retries.
import type { ReceiverObservations, WebhookRule } from '../../webhooks/types.js';
import { is2xx, perProbe, statusText } from './util.js';

export const receiverOutOfOrder: WebhookRule<ReceiverObservations> = {
  id: 'receiver-out-of-order',
  target: 'receiver',
  summary: 'An older update delivered after a newer one is answered 2XX.',
  check: (o) => perProbe(o.probes, ['out-of-order'], (p) => (is2xx(p.status) ? [] : [`answered ${statusText(p)}, expected 2XX`])),
};
