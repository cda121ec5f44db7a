import { describe, expect, it } from 'vitest';
import { judge } from '../../../../conformance/rules/run.js';
import { envelope } from '../../../../conformance/rules/rest/envelope.js';
import { view, type View } from '../view.js';
import { type ExchangeInput, error, exchange, skipped } from './exchange.js';

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

describe('issue 38: envelope, every field of its findings and both ends of a success', () => {
  const judged = (given: ExchangeInput) => judge(envelope, exchange(given));
  it.each<[string, ExchangeInput, unknown]>([
    ['success true on 299', { status: 299, body: { success: true, message: '' } }, []],
    ['success true on 300', { status: 300, body: { success: true, message: '' } }, [error('success', 'success is true on a 300; it must be false')]],
    ['success true on 199', { status: 199, body: { success: true, message: '' } }, [error('success', 'success is true on a 199; it must be false')]],
    ['success missing and message null on 200', { status: 200, body: { message: null } }, [error('success', 'success is undefined on a 200; it must be true'), error('message', 'message is object; it must be a string')]],
    ['success "true" (text) on 200', { status: 200, body: { success: 'true', message: 'ok' } }, [error('success', 'success is "true" on a 200; it must be true')]],
    ['a body that is not JSON', { status: 200, body: undefined, parseError: 'Unexpected token <' }, [error('body', 'the body is not an envelope object (not JSON)')]],
    ['a string', { status: 200, body: 'ok' }, [error('body', 'the body is not an envelope object (string)')]],
    ['no body', { status: 200, body: undefined }, [error('body', 'the body is not an envelope object (undefined)')]],
    ['null', { status: 200, body: null }, [error('body', 'the body is not an envelope object (object)')]],
    ['a 204', { status: 204, body: undefined }, skipped('a 204 has no body')],
    ['a 304', { status: 304, body: undefined }, skipped('a 304 has no body')],
  ])('%s', (_, given, want) => {
    expect(judged(given)).toEqual(want);
  });
});
