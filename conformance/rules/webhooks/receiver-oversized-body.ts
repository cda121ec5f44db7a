// A receiver bounds what it reads: an oversized body is refused with 413 (before it is all buffered).
import type { ReceiverObservations, WebhookRule } from '../../webhooks/types.js';
import { perProbe, statusText } from './util.js';

export const receiverOversizedBody: WebhookRule<ReceiverObservations> = {
  id: 'receiver-oversized-body',
  target: 'receiver',
  summary: 'An oversized body (8 MiB by default, --oversize-bytes) is answered 413.',
  check: (o) => perProbe(o.probes, ['oversize'], (p) => (p.status === 413 ? [] : [`answered ${statusText(p)}, expected 413`])),
};
