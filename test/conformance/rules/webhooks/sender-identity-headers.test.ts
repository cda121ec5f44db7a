import { describe, expect, it } from 'vitest';
import { senderIdentityHeaders } from '../../../../conformance/rules/webhooks/sender-identity-headers.js';
import { judge } from '../../../../conformance/rules/run.js';
import { view, type View } from '../view.js';
import { defectTable, delivery, sender } from './fixtures.js';

// Every one-change delivery of the fixtures: this rule names its own defects and no other.
const cases = defectTable<View>('sender-identity-headers', {
  'X-SVC-Delivery-ID differs from the body': ['X-SVC-Delivery-ID is "dlv_other" but the body\'s delivery_id is "dlv_01JPKZ9E8JEFCEGA0DBQKGKQBF"'],
}, []);

describe('sender-identity-headers', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(senderIdentityHeaders, given)).toEqual(want);
  });

  it('is skipped when no delivery arrived', () => {
    expect(view(senderIdentityHeaders, sender([]))).toBe('skipped');
    expect(view(senderIdentityHeaders, sender([delivery()]))).toEqual([]);
  });
});

describe('sender-identity-headers findings', () => {
  it('each of the three headers: missing, doubled or different from the body, an error on its delivery', () => {
    const given = sender([
      delivery((d) => {
        delete d.headers['x-svc-event'];
        d.headers['x-svc-event-id'] = ['evt_a', 'evt_a'];
        d.headers['x-svc-delivery-id'] = ['dlv_x'];
      }),
    ]);
    expect(judge(senderIdentityHeaders, given)).toEqual([
      { subject: 'delivery #1 (delivered, order.created, dlv_01JPKZ9E8JEFCEGA0DBQKGKQBF)', severity: 'error', message: 'X-SVC-Event header is missing' },
      { subject: 'delivery #1 (delivered, order.created, dlv_01JPKZ9E8JEFCEGA0DBQKGKQBF)', severity: 'error', message: 'X-SVC-Event-ID header is sent 2 times' },
      { subject: 'delivery #1 (delivered, order.created, dlv_01JPKZ9E8JEFCEGA0DBQKGKQBF)', severity: 'error', message: 'X-SVC-Delivery-ID is "dlv_x" but the body\'s delivery_id is "dlv_01JPKZ9E8JEFCEGA0DBQKGKQBF"' },
    ]);
    expect(view(senderIdentityHeaders, sender([delivery((d) => ((d.headers['x-svc-event'] = ['product.created']), (d.headers['x-svc-event-id'] = ['evt_x'])))]))).toEqual([
      'X-SVC-Event is "product.created" but the body\'s event is "order.created"',
      'X-SVC-Event-ID is "evt_x" but the body\'s event_id is "evt_01JP71SB1203SRX72ERNJHY54J"',
    ]);
  });

  it('a body that is not JSON has nothing to compare the headers with (sender-envelope-schema reports it)', () => {
    expect(view(senderIdentityHeaders, sender([{ ...delivery((d) => (d.headers['x-svc-event'] = ['other'])), body: undefined }]))).toEqual([]);
  });
});
