import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { judge } from '../../../../conformance/rules/run.js';
import { responseSchema } from '../../../../conformance/rules/rest/response-schema.js';
import { view, type View } from '../view.js';
import { type ExchangeInput, error, errorEnvelope, exchange, skipped } from './exchange.js';

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

describe('issue 38: response-schema, every field of its findings and why it skips', () => {
  it('the finding names the status, the place and what is wrong', () => {
    expect(judge(responseSchema, exchange({ operationId: 'listCountries', body: { success: true, message: 'ok' } }))).toEqual([
      error('body', 'the 200 body does not match the schema: /content: required property "content" is missing (expected present, got nothing)'),
    ]);
  });
  it('not JSON, at a status with a schema', () => {
    expect(judge(responseSchema, exchange({ operationId: 'listProducts', status: 400, body: undefined, parseError: 'Unexpected end' }))).toEqual([error('body', 'the body is not JSON (Unexpected end)')]);
  });
  it('a status without a schema', () => {
    expect(judge(responseSchema, exchange({ operationId: 'listCountries', status: 500, body: 'x', parseError: 'x' }))).toEqual(skipped('no schema for status 500 of listCountries'));
  });
});
