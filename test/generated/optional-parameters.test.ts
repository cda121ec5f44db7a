// issue 37 item 6, the generator's side: scripts/generate/types.ts writes every optional query and header
// parameter as `?: T | undefined`, wherever openapi-typescript puts one (an operation, a path item's own
// list, an operation written inline under a path, a component parameter by $ref), and leaves required,
// path and cookie parameters and a list's items as they were. The types' side (tsc under
// exactOptionalPropertyTypes on the typed clients) is test/client/optional-parameters.check.ts.
import { describe, expect, it } from 'vitest';
import { openapiTypes } from '../../scripts/generate/types.js';

const doc = {
  openapi: '3.1.0',
  info: { title: 'parameters', version: '1' },
  paths: {
    '/things/{id}': {
      parameters: [
        { name: 'x-trace', in: 'header', schema: { type: 'string' } },
        { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
      ],
      get: {
        operationId: 'getThing',
        parameters: [
          { name: 'q', in: 'query', schema: { type: 'string' } },
          { name: 'must', in: 'query', required: true, schema: { type: 'integer' } },
          { name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
          { name: 'mode', in: 'query', schema: { enum: ['a', 'b'] } },
          { $ref: '#/components/parameters/Page' },
          { name: 'x-trace', in: 'header', required: true, schema: { type: 'string' } },
          { name: 'c', in: 'cookie', schema: { type: 'string' } },
        ],
        responses: { '200': { description: 'ok' } },
      },
    },
    '/inline': {
      post: { parameters: [{ name: 'x-group', in: 'header', schema: { type: 'string' } }], responses: { '204': { description: 'ok' } } },
    },
  },
  components: { parameters: { Page: { name: 'page', in: 'query', schema: { type: 'integer' } } } },
};

/** `name?: type;` lines of the printed types, JSDoc left out. */
const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter((l) => /^("[^"]+"|\w+)\??: .*;$/.test(l));

describe('issue 37 item 6: optional parameters take undefined in the generated types', () => {
  const printed = openapiTypes(doc).then(lines);

  it.each([
    ['an optional query parameter of an operation', 'q?: string | undefined;'],
    ['an optional list filter: the list takes undefined, not its items', 'tags?: string[] | undefined;'],
    ['an optional enum', 'mode?: "a" | "b" | undefined;'],
    ['a component parameter by $ref', 'page?: components["parameters"]["Page"] | undefined;'],
    ["an optional header of a path item's own list", '"x-trace"?: string | undefined;'],
    ['an optional header of an operation written inline under its path', '"x-group"?: string | undefined;'],
  ])('%s: %s', async (_what, line) => {
    expect(await printed).toContain(line);
  });

  it.each([
    ['a required query parameter', 'must: number;'],
    ['a required header (the operation overrides the path item)', '"x-trace": string;'],
    ['a path parameter', 'id: string;'],
    ['a cookie (openapi-fetch sends none)', 'c?: string;'],
    ['the component itself: the value, not the optional property', 'Page: number;'],
  ])('keeps %s: %s', async (_what, line) => {
    expect(await printed).toContain(line);
  });

  it('adds undefined nowhere else', async () => {
    const widened = (await printed).filter((l) => l.includes('undefined'));
    expect(widened.sort()).toEqual(['"x-group"?: string | undefined;', '"x-trace"?: string | undefined;', 'mode?: "a" | "b" | undefined;', 'page?: components["parameters"]["Page"] | undefined;', 'q?: string | undefined;', 'tags?: string[] | undefined;']);
  });
});
