// Seed 3.2: any non-2XX makes the sender retry, and a 5XX says "my fault, try again": a receiver that
// crashes on hostile input turns every forged request into retries. Bad input gets a 4XX.
import type { ReceiverObservations, WebhookRule } from '../../webhooks/types.js';
import { perProbe } from './util.js';

export const receiverNo5xxOnBadInput: WebhookRule<ReceiverObservations> = {
  id: 'receiver-no-5xx-on-bad-input',
  target: 'receiver',
  summary: 'Bad signatures, bad content, mismatched headers and oversized bodies get a 4XX, never a 5XX.',
  check: (o) =>
    perProbe(o.probes, ['bad-signature', 'bad-content', 'header-mismatch', 'raw-bytes', 'oversize'], (p) => {
      if (p.expect === '2XX') return [];
      return p.status !== null && p.status >= 500 ? [`answered ${p.status}`] : [];
    }),
};
