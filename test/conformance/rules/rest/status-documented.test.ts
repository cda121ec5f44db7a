import { describe, expect, it } from 'vitest';
import { judge } from '../../../../conformance/rules/run.js';
import { statusDocumented } from '../../../../conformance/rules/rest/status-documented.js';
import { view, type View } from '../view.js';
import { type ExchangeInput, error, exchange, warning, withOperation } from './exchange.js';

const cases: Array<[string, { given: ExchangeInput; want: View }]> = [
  ['a documented status of the recorded class', { given: { recordedStatus: 200, status: 200 }, want: [] }],
  ['another documented 4XX than recorded (same class)', { given: { operationId: 'startPosPhoneLogin', recordedStatus: 403, status: 401 }, want: [] }],
  [
    'an undocumented 500 on a served request',
    {
      given: { operationId: 'getPosCart', recordedStatus: 200, status: 500 },
      want: ['status 500 is not documented for getPosCart (documented: 200, 401, 404)', 'status 500 is not of the recorded class 2XX (the recording had 200)'],
    },
  ],
  ['a documented status of another class', { given: { recordedStatus: 400, status: 200 }, want: ['status 200 is not of the recorded class 4XX (the recording had 400)'] }],
  [
    'an undocumented 404 of the recorded class (the codes are designed: advice)',
    { given: { recordedStatus: 400, status: 404 }, want: ['warning: status 404 is not documented for listProducts (documented: 200, 400, 401)'] },
  ],
  // Observed traffic (the validating proxy, --from-har): no recorded class; the documented classes decide.
  ['observed: a documented status', { given: { observed: true, status: 401 }, want: [] }],
  [
    'observed: an undocumented 500 (no 5XX is documented)',
    { given: { observed: true, operationId: 'getPosCart', status: 500 }, want: ['status 500 is not documented for getPosCart (documented: 200, 401, 404): the contract documents no 5XX status for it'] },
  ],
  ['observed: an undocumented code of a documented class (advice)', { given: { observed: true, status: 422 }, want: ['warning: status 422 is not documented for listProducts (documented: 200, 400, 401)'] }],
];

describe('status-documented', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(statusDocumented, exchange(given))).toEqual(want);
  });

  it('names the documented statuses', () => {
    expect(view(statusDocumented, exchange({ operationId: 'getPosCart', recordedStatus: 200, status: 500 }))[0]).toBe('status 500 is not documented for getPosCart (documented: 200, 401, 404)');
  });

  it('--strict makes the advice an error', () => {
    expect(view(statusDocumented, exchange({ recordedStatus: 400, status: 404 }), { strict: true })).toEqual(['status 404 is not documented for listProducts (documented: 200, 400, 401)']);
  });
});

describe('issue 38: status-documented, every field of its findings, documented classes and defaults', () => {
  const op = (responses: string[]) => ({ operationId: 'someOperation', responses });
  it.each<[string, Parameters<typeof withOperation>, unknown]>([
    ['a class documented as 4XX', [{ recordedStatus: 400, status: 418 }, op(['200', '4XX'])], []],
    ['a default response documents every status', [{ recordedStatus: 200, status: 201 }, op(['200', 'default'])], []],
    ['a default response, another class than recorded', [{ recordedStatus: 200, status: 500 }, op(['200', 'default'])], [error('status', 'status 500 is not of the recorded class 2XX (the recording had 200)')]],
    ['observed: a default response', [{ observed: true, status: 503 }, op(['200', 'default'])], []],
    ['observed: a class documented as 4XX', [{ observed: true, status: 418 }, op(['200', '4XX'])], []],
    ['observed: another code of the class of a 4XX range', [{ observed: true, status: 500 }, op(['200', '4XX'])], [error('status', 'status 500 is not documented for someOperation (documented: 200, 4XX): the contract documents no 5XX status for it')]],
    ['observed: a 3XX where 2XX and 4XX are documented', [{ observed: true, status: 302 }, op(['200', '404'])], [error('status', 'status 302 is not documented for someOperation (documented: 200, 404): the contract documents no 3XX status for it')]],
    ['observed: another 2XX', [{ observed: true, status: 204 }, op(['200', '404'])], [warning('status', 'status 204 is not documented for someOperation (documented: 200, 404)')]],
    ['observed: another 4XX', [{ observed: true, status: 409 }, op(['200', '404'])], [warning('status', 'status 409 is not documented for someOperation (documented: 200, 404)')]],
    ['recorded: an undocumented status of the recorded class', [{ recordedStatus: 404, status: 409 }, op(['200', '404'])], [warning('status', 'status 409 is not documented for someOperation (documented: 200, 404)')]],
    ['recorded: documented, of another class', [{ recordedStatus: 404, status: 200 }, op(['200', '404'])], [error('status', 'status 200 is not of the recorded class 4XX (the recording had 404)')]],
  ])('%s', (_, [given, operation], want) => {
    expect(judge(statusDocumented, withOperation(given, operation))).toEqual(want);
  });
});
