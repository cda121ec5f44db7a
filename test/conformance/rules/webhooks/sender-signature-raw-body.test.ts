import { describe, expect, it } from 'vitest';
import { senderSignatureRawBody } from '../../../../conformance/rules/webhooks/sender-signature-raw-body.js';
import { judge } from '../../../../conformance/rules/run.js';
import { view, type View } from '../view.js';
import { signPayload } from '../../../../src/webhooks/verify.js';
import { defectTable, delivery, SECRET, sender, SIGNATURE } from './fixtures.js';

// Every one-change delivery of the fixtures: this rule names its own defects and no other.
const cases = defectTable<View>('sender-signature-raw-body', {
  'signed over compact JSON, sent indented': ['signature is over a re-serialisation of the body (compact JSON.stringify), not over the 4795 bytes sent'],
  'signed with another secret': ['signature does not match the 3085 bytes received with the subscription secret'],
}, []);

describe('sender-signature-raw-body', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(senderSignatureRawBody, given)).toEqual(want);
  });

  it('is skipped when no delivery arrived', () => {
    expect(view(senderSignatureRawBody, sender([]))).toBe('skipped');
    expect(view(senderSignatureRawBody, sender([delivery()]))).toEqual([]);
  });
});

describe('sender-signature-raw-body findings', () => {
  it('a missing header is an error on the delivery', () => {
    expect(judge(senderSignatureRawBody, sender([delivery((d) => delete d.headers[SIGNATURE])]))).toEqual([{ subject: 'delivery #1 (delivered, order.created, dlv_01JPKZ9E8JEFCEGA0DBQKGKQBF)', severity: 'error', message: 'no X-SVC-Signature header to verify' }]);
  });

  it('leaves the prefix case and the hex case to sender-signature-format', () => {
    expect(view(senderSignatureRawBody, sender([delivery((d) => (d.headers[SIGNATURE] = [d.headers[SIGNATURE][0].replace('sha256=', 'SHA256=')]))]))).toEqual([]);
  });

  it('names the indented re-serialisation when that is what was signed', () => {
    const compact = delivery((d) => (d.headers[SIGNATURE] = [signPayload(Buffer.from(JSON.stringify(d.body, null, 2)), SECRET)]));
    expect(view(senderSignatureRawBody, sender([compact]))).toEqual([`signature is over a re-serialisation of the body (indented JSON.stringify), not over the ${compact.raw.length} bytes sent`]);
  });

  it('only a leading sha256= is the prefix: the same digest followed by "sha256=" is not the signature', () => {
    const d = delivery();
    const hex = signPayload(d.raw, SECRET).replace(/^sha256=/, '');
    expect(view(senderSignatureRawBody, sender([delivery((x) => (x.headers[SIGNATURE] = [`${hex}sha256=`]))]))).toEqual([`signature does not match the ${d.raw.length} bytes received with the subscription secret`]);
  });

  it('a body whose bytes are not UTF-8, signed over its decoded text, does not match; it is not called a re-serialisation (the text reads as what was sent)', () => {
    const raw = Buffer.concat([Buffer.from('{"event":"order.created","note":"'), Buffer.from([0xff]), Buffer.from('"}')]);
    const body = JSON.parse(raw.toString('utf8'));
    const signed = { ...delivery(), raw, body, headers: { ...delivery().headers, [SIGNATURE]: [signPayload(Buffer.from(JSON.stringify(body)), SECRET)] } };
    expect(view(senderSignatureRawBody, sender([signed]))).toEqual([`signature does not match the ${raw.length} bytes received with the subscription secret`]);
  });

  it('bytes that are not JSON are only checked as bytes', () => {
    const d = delivery();
    expect(view(senderSignatureRawBody, sender([{ ...d, raw: Buffer.from('x'), body: undefined }]))).toEqual(['signature does not match the 1 bytes received with the subscription secret']);
  });
});
