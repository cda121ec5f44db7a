// Request-body examples are paired with a same-named example of a 2XX response, the pairing contract
// testers (Specmatic, Microcks) use to turn examples into tests: each request example is a case whose
// expected answer is named like it.
import { describe, expect, it } from 'vitest';
import { loadDereferenced } from '../../scripts/lib/load-spec.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

describe.each(['storefront', 'admin'] as const)('%s', async (name) => {
  const doc = await loadDereferenced(name);
  const operations = Object.values<Record<string, any>>(doc.paths).flatMap((item) => METHODS.filter((m) => item[m]).map((m) => item[m]));
  const withExamples = operations.filter((op) => op.requestBody?.content?.['application/json']?.examples);

  it('has request examples to pair', () => {
    expect(withExamples.length).toBeGreaterThan(0);
  });

  it.each(withExamples.map((op) => [op.operationId, op]))('%s: every request example has a same-named 2XX response example', (_id, op) => {
    const requestNames = Object.keys(op.requestBody.content['application/json'].examples);
    const responseNames = Object.entries<Record<string, any>>(op.responses)
      .filter(([status]) => status.startsWith('2'))
      .flatMap(([, response]) => Object.keys(response.content?.['application/json']?.examples ?? {}));
    expect(requestNames.filter((n) => !responseNames.includes(n))).toEqual([]);
  });
});
