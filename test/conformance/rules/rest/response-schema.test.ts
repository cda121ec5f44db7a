import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { responseSchema } from '../../../../conformance/rules/rest/response-schema.js';
import { view, type View } from '../view.js';
import { errorEnvelope, exchange, type ExchangeInput } from './exchange.js';

const countries = YAML.parse(readFileSync('spec/openapi/components/examples/ListCountriesOk.yaml', 'utf8')).value;
const withoutCountries = structuredClone(countries);
delete withoutCountries.content.countries;

const cases: Array<[string, { given: ExchangeInput; want: View | RegExp }]> = [
  ['the named example', { given: { operationId: 'listCountries', body: countries }, want: [] }],
  ['a documented error envelope', { given: { operationId: 'listProducts', status: 400, body: errorEnvelope }, want: [] }],
  ['a required field missing, named', { given: { operationId: 'listCountries', body: withoutCountries }, want: /\/content\/countries: required property "countries" is missing/ }],
  ['a body that is not JSON', { given: { operationId: 'listCountries', body: undefined, parseError: 'Unexpected token <' }, want: ['the body is not JSON (Unexpected token <)'] }],
  ['an undocumented status (status-documented reports it)', { given: { operationId: 'listCountries', status: 500, body: 'x' }, want: 'skipped' }],
];

describe('response-schema', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    const got = view(responseSchema, exchange(given));
    if (want instanceof RegExp) {
      expect(got).toHaveLength(1);
      expect((got as string[])[0]).toMatch(want);
    } else expect(got).toEqual(want);
  });
});
