import { describe, expect, it } from 'vitest';
import { senderContentType } from '../../../../conformance/rules/webhooks/sender-content-type.js';
import { judge } from '../../../../conformance/rules/run.js';
import { view, type View } from '../view.js';
import { delivery, sender, defectTable } from './fixtures.js';

// Every one-change delivery of the fixtures: this rule names its own defects and no other.
const cases = defectTable<View>('sender-content-type', {
  // The exact header value is designed (register WH-004): advice.
  'text/plain': ['warning: Content-Type is "text/plain", expected application/json'],
}, []);

describe('sender-content-type', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(senderContentType, given)).toEqual(want);
  });

  it('is skipped when no delivery arrived', () => {
    expect(view(senderContentType, sender([]))).toBe('skipped');
    expect(view(senderContentType, sender([delivery()]))).toEqual([]);
  });
});

describe('sender-content-type findings', () => {
  const withType = (...values: string[]) => sender([delivery((d) => (values.length ? (d.headers['content-type'] = values) : delete d.headers['content-type']))]);
  it.each([
    ['application/json', []],
    ['Application/JSON; Charset=UTF-8', []],
    ['application/json; charset="utf-8"', []],
    ['application/json;charset=utf-8', []],
    ['application/json; charset=latin1', ['Content-Type parameter "charset=latin1" is not charset=utf-8']],
    ['application/json; xcharset=utf-8', ['Content-Type parameter "xcharset=utf-8" is not charset=utf-8']],
    ['application/json; charset=utf-8x', ['Content-Type parameter "charset=utf-8x" is not charset=utf-8']],
    ['application/json; charset=utf-8; boundary=x', ['Content-Type parameter "boundary=x" is not charset=utf-8']],
    ['application/problem+json', ['Content-Type is "application/problem+json", expected application/json']],
  ] as const)('%s', (value, messages) => {
    expect(judge(senderContentType, withType(value))).toEqual(messages.map((message) => ({ subject: 'delivery #1 (delivered, order.created, dlv_01JPKZ9E8JEFCEGA0DBQKGKQBF)', severity: 'warning', message })));
  });

  it('a missing or doubled header is advice too', () => {
    expect(judge(senderContentType, withType())).toEqual([{ subject: 'delivery #1 (delivered, order.created, dlv_01JPKZ9E8JEFCEGA0DBQKGKQBF)', severity: 'warning', message: 'Content-Type header is missing' }]);
    expect(judge(senderContentType, withType('application/json', 'application/json'))).toEqual([{ subject: 'delivery #1 (delivered, order.created, dlv_01JPKZ9E8JEFCEGA0DBQKGKQBF)', severity: 'warning', message: 'Content-Type header is sent 2 times' }]);
  });
});
