import { describe, expect, it } from 'vitest';
import { authEnforced } from '../../../../conformance/rules/rest/auth-enforced.js';
import { exchange } from './exchange.js';

describe('auth-enforced', () => {
  it.each([
    ['refused with 401', { recordedStatus: 401, status: 401 }, []],
    ['refused with 403', { recordedStatus: 401, status: 403 }, []],
    ['answered without credentials', { operationId: 'listCountries' as const, recordedStatus: 401, status: 200 }, ['GET /common/countries with no credentials was answered 200; the recording had 401']],
    [
      'answered with a wrong key',
      { operationId: 'createAnonymousUser' as const, headers: { 'x-api-key': 'wrong key' }, recordedStatus: 401, status: 200 },
      ['POST /auth/anonymous with invalid or insufficient credentials was answered 200; the recording had 401'],
    ],
    ['an unscoped key let through', { operationId: 'startPosPhoneLogin' as const, headers: { 'x-api-key': 'k' }, recordedStatus: 403, status: 200 }, [
      'POST /pos/auth/login/phone with invalid or insufficient credentials was answered 200; the recording had 403',
    ]],
    ['not an auth exchange', { recordedStatus: 200, status: 200 }, []],
  ])('%s', (_, given, want) => {
    expect(authEnforced.check(exchange(given))).toEqual(want);
  });
});
