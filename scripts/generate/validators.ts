// The files of generated/validators: precompiled Ajv validators (JSON Schema 2020-12), nothing
// compiled at run time.
//   <api>.ts                 every validator of the document in one module, functions shared
//                            between operations: the synchronous `storefront-contract/validators`
//   <api>/<operationId>.ts   one operation's validators (request body, each response), self-contained
//   <api>/index.ts           operationId -> loader of its module: what the typed client imports
//   webhooks.ts              every webhook message in one module: a receiver takes any event, and
//                            the messages share their envelope and models
import type { Bundled } from './bundle.js';
import { compileDocument, validatorModule } from './validator-module.js';
import { asyncapiSchemaPointers, messageSchemas, openapiSchemaPointers, operationSchemas } from './validator-pointers.js';
import { withoutAnnotations } from './strip-annotations.js';

export interface GeneratedFile {
  path: string;
  what: string;
  body: string;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export const rawValidatorTypes = `/**
 * One error of a precompiled validator: the fields of Ajv's \`ErrorObject\` that the library reads, spelt
 * out here so the published types need no \`ajv\` package (an app installs the library without it). Ajv's
 * own \`ErrorObject\` is assignable to it.
 */
export interface ValidatorError {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, any>;
  /** Set inside \`propertyNames\`: the key that failed. */
  propertyName?: string;
  message?: string;
}

/** A precompiled Ajv validator: returns true when valid, else sets \`errors\` (the first error only). */
export type RawValidator = ((data: unknown) => boolean) & { errors?: ValidatorError[] | null };

/** A module of validators by export name: \`<operationId>_request\`, \`<operationId>_<status>\`. */
export type ValidatorModule = Readonly<Record<string, RawValidator>>;

/** Loads one operation's validator module (a dynamic import, so bundlers make it its own chunk). */
export type ValidatorLoader = () => Promise<ValidatorModule>;
`;

function loadersModule(operationIds: string[]): string {
  return [
    "import type { ValidatorLoader } from '../raw-validator.js';",
    '',
    '/** operationId -> its validator module, imported on first call. */',
    'export const loaders: Readonly<Record<string, ValidatorLoader>> = {',
    ...operationIds.map((id) => `  ${id}: () => import('./${id}.js'),`),
    '};',
    '',
  ].join('\n');
}

async function openapiFiles(api: 'storefront' | 'admin', document: any): Promise<GeneratedFile[]> {
  const doc = withoutAnnotations(document);
  const operations = operationSchemas(doc);
  for (const { operationId } of operations) {
    if (!IDENTIFIER.test(operationId) || operationId === 'index') throw new Error(`${api}: operationId "${operationId}" cannot name a validator module`);
  }
  const compiled = compileDocument(api, doc);
  const files: GeneratedFile[] = [
    {
      path: `validators/${api}.ts`,
      what: 'Precompiled Ajv validators of every operation: `<operationId>_request`, `<operationId>_<status>`.',
      body: await validatorModule(compiled, openapiSchemaPointers(doc), './raw-validator.js'),
    },
    {
      path: `validators/${api}/index.ts`,
      what: 'Loaders of the per-operation validator modules, by operationId.',
      body: loadersModule(operations.map((op) => op.operationId)),
    },
  ];
  for (const { operationId, pointers } of operations) {
    files.push({
      path: `validators/${api}/${operationId}.ts`,
      what: `Precompiled Ajv validators of ${operationId}: \`${operationId}_request\`, \`${operationId}_<status>\`.`,
      body: await validatorModule(compiled, pointers, '../raw-validator.js'),
    });
  }
  return files;
}

export async function validatorFiles(bundled: Bundled): Promise<Record<'all' | 'storefront' | 'admin' | 'webhooks', GeneratedFile[]>> {
  const webhooks = withoutAnnotations(bundled.webhooks);
  return {
    all: [{ path: 'validators/raw-validator.ts', what: 'The types of the precompiled validators.', body: rawValidatorTypes }],
    storefront: await openapiFiles('storefront', bundled.storefront),
    admin: await openapiFiles('admin', bundled.admin),
    webhooks: [
      {
        path: 'validators/webhooks.ts',
        what: 'Precompiled Ajv validators, one per webhook message (export name = camelCase event).',
        body: [
          await validatorModule(compileDocument('webhooks', webhooks), asyncapiSchemaPointers(webhooks), './raw-validator.js'),
          '/** event name -> the validator of its message, in event-name order. */',
          'export const eventValidators: Readonly<Record<string, RawValidator>> = {',
          ...messageSchemas(webhooks).map((m) => `  ${JSON.stringify(m.event)}: ${m.exportName},`),
          '};',
          '',
        ].join('\n'),
      },
    ],
  };
}
