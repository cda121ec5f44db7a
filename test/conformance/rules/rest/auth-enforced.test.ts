import { describe, expect, it } from 'vitest';
import { authEnforced } from '../../../../conformance/rules/rest/auth-enforced.js';
import { view, type View } from '../view.js';
import { exchange, type ExchangeInput } from './exchange.js';

const cases: Array<[string, { given: ExchangeInput; want: View }]> = [
  ['refused with 401', { given: { recordedStatus: 401, status: 401 }, want: [] }],
  ['refused with 403', { given: { recordedStatus: 401, status: 403 }, want: [] }],
  ['answered without credentials', { given: { operationId: 'listCountries', recordedStatus: 401, status: 200 }, want: ['GET /common/countries with no credentials was answered 200; the recording had 401'] }],
  [
    'answered with a wrong key',
    {
      given: { operationId: 'createAnonymousUser', headers: { 'x-api-key': 'wrong key' }, recordedStatus: 401, status: 200 },
      want: ['POST /auth/anonymous with invalid or insufficient credentials was answered 200; the recording had 401'],
    },
  ],
  [
    'an unscoped key let through',
    {
      given: { operationId: 'startPosPhoneLogin', headers: { 'x-api-key': 'k' }, recordedStatus: 403, status: 200 },
      want: ['POST /pos/auth/login/phone with invalid or insufficient credentials was answered 200; the recording had 403'],
    },
  ],
  ['not an auth exchange (skipped, not passed)', { given: { recordedStatus: 200, status: 200 }, want: 'skipped' }],
  [
    'a generated case (generated-refused judges it)',
    { given: { recordedStatus: 401, status: 200, generated: { kind: 'security', label: 'no credentials', expect: 401, unknownIds: false, designed: false } }, want: 'skipped' },
  ],
  // Observed traffic: no recording; only a request without any credential is known to be unauthenticated.
  ['observed: no credentials, refused with 401', { given: { observed: true, operationId: 'listCountries', status: 401 }, want: [] }],
  [
    'observed: no credentials, served',
    { given: { observed: true, operationId: 'listCountries', status: 200 }, want: ['GET /common/countries carried no credentials (it needs Authorization: Bearer …) but was answered 200'] },
  ],
  [
    'observed: no API key on the key-only login, served',
    { given: { observed: true, operationId: 'createAnonymousUser', status: 200 }, want: ['POST /auth/anonymous carried no credentials (it needs X-Api-Key) but was answered 200'] },
  ],
  ['observed: a bearer token sent (its validity cannot be seen)', { given: { observed: true, operationId: 'listCountries', headers: { authorization: 'Bearer t0k3n' }, status: 200 }, want: 'skipped' }],
  ['observed: an empty bearer is no credential', { given: { observed: true, operationId: 'listCountries', headers: { authorization: 'Bearer ' }, status: 200 }, want: ['GET /common/countries carried no credentials (it needs Authorization: Bearer …) but was answered 200'] }],
];

describe('auth-enforced', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(authEnforced, exchange(given))).toEqual(want);
  });
});
