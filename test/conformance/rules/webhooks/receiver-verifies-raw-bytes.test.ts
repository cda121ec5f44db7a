import { describe, expect, it } from 'vitest';
import { receiverVerifiesRawBytes } from '../../../../conformance/rules/webhooks/receiver-verifies-raw-bytes.js';
import type { ReceiverObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { judge } from '../../../../conformance/rules/run.js';
import { skipReason, view, type View } from '../view.js';
import { probe, receiver } from './fixtures.js';

const cases: Array<[string, { given: ReceiverObservations; want: View }]> = [
  ['authentic bytes accepted, forgeries refused', { given: receiver([probe('raw-bytes', 'indented', 200), probe('raw-bytes', 'forged', 401, 'non-2XX')]), want: [] }],
  ['authentic non-canonical bytes refused', { given: receiver([probe('raw-bytes', 'indented', 401)]), want: ['answered 401: authentic bytes refused (is the signature computed over re-serialised JSON?)'] }],
  ['a forgery signed over the re-serialisation accepted', { given: receiver([probe('raw-bytes', 'forged', 200, 'non-2XX')]), want: ['answered 200: accepted bytes whose signature only matches their re-serialisation'] }],
];

describe('receiver-verifies-raw-bytes', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(receiverVerifiesRawBytes, given)).toEqual(want);
  });
});

describe('receiver-verifies-raw-bytes findings', () => {
  it('errors naming the probe, both ways; no answer to a forgery is a refusal; skipped when not sent', () => {
    expect(
      judge(receiverVerifiesRawBytes, receiver([probe('raw-bytes', 'indented', 300), probe('raw-bytes', 'escaped', null), probe('raw-bytes', 'forged', 299, 'non-2XX'), probe('raw-bytes', 'forged2', null, 'non-2XX'), probe('valid', 'v', 500)])),
    ).toEqual([
      { subject: 'indented', severity: 'error', message: 'answered 300: authentic bytes refused (is the signature computed over re-serialised JSON?)' },
      { subject: 'escaped', severity: 'error', message: 'answered no HTTP answer (ECONNRESET): authentic bytes refused (is the signature computed over re-serialised JSON?)' },
      { subject: 'forged', severity: 'error', message: 'answered 299: accepted bytes whose signature only matches their re-serialisation' },
    ]);
    expect(skipReason(receiverVerifiesRawBytes, receiver([probe('valid', 'v', 200)]))).toBe('no raw-bytes probe was sent');
  });
});
