import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { responseSchema } from '../../../../conformance/rules/rest/response-schema.js';
import { errorEnvelope, exchange } from './exchange.js';

const countries = YAML.parse(readFileSync('spec/openapi/components/examples/ListCountriesOk.yaml', 'utf8')).value;

describe('response-schema', () => {
  it('passes the named example', () => {
    expect(responseSchema.check(exchange({ operationId: 'listCountries', body: countries }))).toEqual([]);
  });

  it('passes a documented error envelope', () => {
    expect(responseSchema.check(exchange({ operationId: 'listProducts', status: 400, body: errorEnvelope }))).toEqual([]);
  });

  it('fails a required field missing, naming it', () => {
    const body = structuredClone(countries);
    delete body.content.countries;
    const [problem] = responseSchema.check(exchange({ operationId: 'listCountries', body }));
    expect(problem).toMatch(/\/content\/countries: required property "countries" is missing/);
  });

  it('fails a body that is not JSON', () => {
    expect(responseSchema.check(exchange({ operationId: 'listCountries', body: undefined, parseError: 'Unexpected token <' }))).toEqual(['the body is not JSON (Unexpected token <)']);
  });

  it('leaves undocumented statuses to status-documented', () => {
    expect(responseSchema.check(exchange({ operationId: 'listCountries', status: 500, body: 'x' }))).toEqual([]);
  });
});
