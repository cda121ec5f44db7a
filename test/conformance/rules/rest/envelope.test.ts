import { describe, expect, it } from 'vitest';
import { envelope } from '../../../../conformance/rules/rest/envelope.js';
import { exchange } from './exchange.js';

describe('envelope', () => {
  it.each([
    ['success true on 200', { status: 200, body: { success: true, message: 'ok', content: {} } }, []],
    ['success false on 401', { status: 401, body: { success: false, message: 'no', content: {} } }, []],
    ['success true on 400', { status: 400, body: { success: true, message: 'no', content: {} } }, ['success is true on a 400; it must be false']],
    ['success false on 200', { status: 200, body: { success: false, message: 'ok' } }, ['success is false on a 200; it must be true']],
    ['success false on 500', { status: 500, body: { success: false, message: 'boom' } }, []],
    ['message missing', { status: 200, body: { success: true } }, ['message is missing; it must be a string']],
    ['message a number', { status: 404, body: { success: false, message: 404 } }, ['message is number; it must be a string']],
    ['not an object', { status: 200, body: [1, 2] }, ['the body is not an envelope object (object)']],
  ])('%s', (_, given, want) => {
    expect(envelope.check(exchange(given))).toEqual(want);
  });
});
