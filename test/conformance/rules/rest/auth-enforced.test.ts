import { describe, expect, it } from 'vitest';
import { judge } from '../../../../conformance/rules/run.js';
import { authEnforced } from '../../../../conformance/rules/rest/auth-enforced.js';
import { view, type View } from '../view.js';
import { type ExchangeInput, error, exchange, skipped, withOperation } from './exchange.js';

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

describe('issue 38: auth-enforced, every field of its findings and why it skips', () => {
  const judged = (given: ExchangeInput) => judge(authEnforced, exchange(given));
  it.each<[string, ExchangeInput, unknown]>([
    ['recorded 403, refused with 403', { recordedStatus: 403, status: 403 }, []],
    ['recorded 403, refused with 401', { recordedStatus: 403, status: 401 }, []],
    ['recorded 401, answered 402 (a 4XX, not a refusal of credentials)', { recordedStatus: 401, status: 402 }, [error('credentials', 'GET /catalog/products with no credentials was answered 402; the recording had 401')]],
    ['recorded 403, answered 404', { recordedStatus: 403, status: 404 }, [error('credentials', 'GET /catalog/products with no credentials was answered 404; the recording had 403')]],
    ['a bearer token sent, served', { headers: { authorization: 'Bearer t' }, recordedStatus: 401, status: 200 }, [error('credentials', 'GET /catalog/products with invalid or insufficient credentials was answered 200; the recording had 401')]],
    ['recorded 400: not about credentials', { recordedStatus: 400, status: 200 }, skipped('the recording did not refuse the credentials')],
    ['a generated case', { recordedStatus: 401, status: 200, generated: { kind: 'security', label: 'x', expect: 401, unknownIds: false, designed: false } }, skipped('a generated case (generated-refused judges its credentials)')],
    ['observed: no credentials, refused with 403', { observed: true, operationId: 'listCountries', status: 403 }, []],
    ['observed: no credentials, answered 400', { observed: true, operationId: 'listCountries', status: 400 }, [error('credentials', 'GET /common/countries carried no credentials (it needs Authorization: Bearer …) but was answered 400')]],
    ['observed: a key sent', { observed: true, operationId: 'createAnonymousUser', headers: { 'x-api-key': 'k' }, status: 200 }, skipped('the request carried credentials (whether they were valid cannot be seen in traffic)')],
  ])('%s', (_, given, want) => {
    expect(judged(given)).toEqual(want);
  });

  it('observed: an operation that takes no credential is not judged', () => {
    expect(judge(authEnforced, withOperation({ observed: true, status: 200 }, { operationId: 'notAnOperation', responses: ['200'] }))).toEqual(skipped('a public operation'));
  });
});
