import { describe, expect, it } from 'vitest';
import { envelope } from '../../../../conformance/rules/rest/envelope.js';
import { view, type View } from '../view.js';
import { exchange, type ExchangeInput } from './exchange.js';

const cases: Array<[string, { given: ExchangeInput; want: View }]> = [
  ['success true on 200', { given: { status: 200, body: { success: true, message: 'ok', content: {} } }, want: [] }],
  ['success false on 401', { given: { status: 401, body: { success: false, message: 'no', content: {} } }, want: [] }],
  ['success true on 400', { given: { status: 400, body: { success: true, message: 'no', content: {} } }, want: ['success is true on a 400; it must be false'] }],
  ['success false on 200', { given: { status: 200, body: { success: false, message: 'ok' } }, want: ['success is false on a 200; it must be true'] }],
  ['success false on 500', { given: { status: 500, body: { success: false, message: 'boom' } }, want: [] }],
  ['message missing', { given: { status: 200, body: { success: true } }, want: ['message is missing; it must be a string'] }],
  ['message a number', { given: { status: 404, body: { success: false, message: 404 } }, want: ['message is number; it must be a string'] }],
  ['not an object', { given: { status: 200, body: [1, 2] }, want: ['the body is not an envelope object (object)'] }],
];

describe('envelope', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(envelope, exchange(given))).toEqual(want);
  });
});
