// The OpenAPI documents as third-party tools read them, judged by a third-party validator
// (@seriousme/openapi-schema-validator, which applies the official OAS 3.1 JSON Schema):
// - every source file's `$ref`s are valid URI references, the format that schema demands (file
//   names with `{` `}` once broke this; the bundle hid it);
// - the bundled document, with every file inlined, validates against the schema.
import { Validator } from '@seriousme/openapi-schema-validator';
import addFormats from 'ajv-formats';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { bundleDocument } from '../../scripts/generate/bundle.js';
import { specDir } from '../../scripts/lib/repo.js';
import { hangGuard } from '../helpers/hang-guard.js';

// The format checker of the OAS 3.1 schema's `$ref` property (`format: uri-reference`).
const ajv = new Ajv2020();
addFormats.default(ajv);
const isUriReference = ajv.compile({ type: 'string', format: 'uri-reference' });

async function yamlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.yaml')).map((e) => path.join(e.parentPath, e.name));
}

function refsOf(node: unknown, at = '#', found: Array<[string, string]> = []): Array<[string, string]> {
  if (Array.isArray(node)) node.forEach((item, i) => refsOf(item, `${at}/${i}`, found));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push([at, value]);
      else refsOf(value, `${at}/${key}`, found);
    }
  }
  return found;
}

const openapiFiles = await yamlFiles(path.join(specDir, 'openapi'));
const asyncapiFiles = await yamlFiles(path.join(specDir, 'asyncapi'));

describe('every $ref in the source files is a valid URI reference', () => {
  it.each([...openapiFiles, ...asyncapiFiles].map((f) => [path.relative(specDir, f), f]))('%s', async (_name, file) => {
    const refs = refsOf(YAML.parse(await readFile(file, 'utf8')));
    expect(refs.filter(([, ref]) => !isUriReference(ref)).map(([at, ref]) => `${at}: ${ref}`)).toEqual([]);
  });

  it('the check refuses a file name with braces', () => {
    expect(isUriReference('paths/storefront/pos_carts_{id}.yaml')).toBe(false);
    expect(isUriReference('paths/storefront/pos_carts_@id.yaml')).toBe(true);
  });
});

describe.each(['storefront', 'admin'] as const)('the bundled %s document', (name) => {
  it('validates against the OAS 3.1 JSON Schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(await bundleDocument(name));
    expect(validator.version).toBe('3.1');
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  }, hangGuard(60_000));
});
