import { describe, expect, it } from 'vitest';
import { statusDocumented } from '../../../../conformance/rules/rest/status-documented.js';
import { exchange } from './exchange.js';

describe('status-documented', () => {
  it.each([
    ['a documented status of the recorded class', { given: { recordedStatus: 200, status: 200 }, want: 0 }],
    ['another documented 4XX than recorded (same class)', { given: { operationId: 'startPosPhoneLogin' as const, recordedStatus: 403, status: 401 }, want: 0 }],
    ['an undocumented 500', { given: { operationId: 'getPosCart' as const, recordedStatus: 200, status: 500 }, want: 2 }],
    ['a documented status of another class', { given: { recordedStatus: 400, status: 200 }, want: 1 }],
    ['an undocumented 404 of the recorded class', { given: { recordedStatus: 400, status: 404 }, want: 1 }],
  ])('%s', (_, { given, want }) => {
    expect(statusDocumented.check(exchange(given))).toHaveLength(want);
  });

  it('names the documented statuses', () => {
    expect(statusDocumented.check(exchange({ operationId: 'getPosCart', status: 500 }))[0]).toBe('status 500 is not documented for getPosCart (documented: 200, 401, 404)');
  });
});
