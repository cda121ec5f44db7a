// The files of generated/validators: precompiled Ajv validators (JSON Schema 2020-12), nothing
// compiled at run time.
//   <api>.ts                 every validator of the document in one module, functions shared
//                            between operations: the synchronous `storefront-contract/validators`
//   webhooks.ts              every webhook message in one module: a receiver takes any event, and
//                            the messages share their envelope and models
import type { Bundled } from './bundle.js';
import { validatorModule } from './validator-module.js';
import { asyncapiSchemaPointers, messageSchemas, openapiSchemaPointers } from './validator-pointers.js';
import { withoutAnnotations } from './strip-annotations.js';

export interface GeneratedFile {
  path: string;
  what: string;
  body: string;
}

export const rawValidatorTypes = `import type { ErrorObject } from 'ajv';

/** A precompiled Ajv validator: returns true when valid, else sets \`errors\` (the first error only). */
export type RawValidator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** A module of validators by export name: \`<operationId>_request\`, \`<operationId>_<status>\`. */
export type ValidatorModule = Readonly<Record<string, RawValidator>>;
`;

async function openapiFiles(api: 'storefront' | 'admin', document: any): Promise<GeneratedFile[]> {
  const doc = withoutAnnotations(document);
  return [
    {
      path: `validators/${api}.ts`,
      what: 'Precompiled Ajv validators of every operation: `<operationId>_request`, `<operationId>_<status>`.',
      body: await validatorModule(api, doc, openapiSchemaPointers(doc), './raw-validator.js'),
    },
  ];
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
          await validatorModule('webhooks', webhooks, asyncapiSchemaPointers(webhooks), './raw-validator.js'),
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
