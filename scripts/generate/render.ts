// Turns the bundled documents into the files of generated/ (path -> content). Pure: same input,
// same bytes, which is what `check:generated` relies on.
import { createHash } from 'node:crypto';
import type { Bundled } from './bundle.js';
import { generatedHeader } from './header.js';
import { operationsModule, requestModelModule, routesModule, securityModule } from './operations.js';
import { openapiTypes, webhookTypes } from './types.js';
import { validatorFiles } from './validators.js';
import { webhookCatalogModule } from './webhook-catalog.js';

const SOURCES = {
  storefront: 'spec/openapi/storefront.yaml',
  admin: 'spec/openapi/admin.yaml',
  webhooks: 'spec/asyncapi/webhooks.yaml',
} as const;
/** The workbench's own API: outside the contract, so not in spec-info's versions and hashes. */
const WORKBENCH_SOURCE = 'spec/workbench/openapi.yaml';

function withHeader(source: string, what: string, body: string): string {
  return `${generatedHeader(source, what)}${body.endsWith('\n') ? body : `${body}\n`}`;
}

function serverBasePath(document: { servers?: Array<{ url?: string }> }): string {
  const url = document.servers?.[0]?.url ?? '';
  const basePath = url.replace(/^\{base_url\}/, '');
  if (!basePath.startsWith('/')) throw new Error(`servers[0].url must be "{base_url}/..." to give the API's base path, got "${url}"`);
  return basePath;
}

function specInfoModule(bundled: Bundled): string {
  const docs = Object.fromEntries(
    (Object.keys(SOURCES) as Array<keyof typeof SOURCES>).map((name) => [
      name,
      {
        source: SOURCES[name],
        version: bundled[name].info?.version ?? null,
        // The path of the first server after `{base_url}`: where the document's paths live on a host.
        ...(name === 'webhooks' ? {} : { basePath: serverBasePath(bundled[name]) }),
        sha256: createHash('sha256').update(JSON.stringify(bundled[name])).digest('hex'),
      },
    ]),
  );
  return `export const specInfo = ${JSON.stringify(docs, null, 2)} as const;\n`;
}

export async function renderAll(bundled: Bundled): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const all = 'spec/ (all documents)';

  files.set('types/storefront.ts', withHeader(SOURCES.storefront, 'Types of the Storefront API (openapi-typescript).', await openapiTypes(bundled.storefront)));
  files.set('types/admin.ts', withHeader(SOURCES.admin, 'Types of the Admin webhook API (openapi-typescript).', await openapiTypes(bundled.admin)));
  files.set('types/webhooks.ts', withHeader(SOURCES.webhooks, 'Types of every webhook message (openapi-typescript over the AsyncAPI payloads).', await webhookTypes(bundled.webhooks)));

  const validators = await validatorFiles(bundled);
  for (const [doc, list] of Object.entries(validators)) {
    for (const file of list) files.set(file.path, withHeader(doc === 'all' ? all : SOURCES[doc as keyof typeof SOURCES], file.what, file.body));
  }

  files.set('operations/storefront.ts', withHeader(SOURCES.storefront, 'Operation metadata of the Storefront API.', operationsModule('storefrontOperations', bundled.storefront)));
  files.set('operations/routes.ts', withHeader(all, 'Routes of both APIs for the typed clients\' validation: `METHOD /path` -> operationId.', routesModule({ storefrontRoutes: bundled.storefront, adminRoutes: bundled.admin })));
  files.set('operations/security.ts', withHeader(all, 'Security schemes of the routes of both APIs, for the typed clients\' credentials.', securityModule({ storefrontSecurity: bundled.storefront, adminSecurity: bundled.admin })));
  files.set('operations/admin.ts', withHeader(SOURCES.admin, 'Operation metadata of the Admin webhook API.', operationsModule('adminOperations', bundled.admin)));

  files.set('types/workbench.ts', withHeader(WORKBENCH_SOURCE, "Types of the workbench's own API (openapi-typescript), outside the platform's contract.", await openapiTypes(bundled.workbench)));
  files.set('operations/workbench.ts', withHeader(WORKBENCH_SOURCE, "The workbench API's operations as its server validates them: parameters and request bodies, resolved.", await requestModelModule('workbenchOperations', bundled.workbench, serverBasePath(bundled.workbench))));

  files.set('webhooks/catalog.ts', withHeader(SOURCES.webhooks, 'Delivery rules (x-delivery-rules) and the event catalog of the webhook contract.', webhookCatalogModule(bundled.webhooks)));
  // The base paths alone as well: the clients need them, and not the hashes and versions.
  files.set('base-paths.ts', withHeader(all, 'Where each OpenAPI document\'s paths live on a host: the path of its first server after `{base_url}`.', `export const basePaths = ${JSON.stringify({ storefront: serverBasePath(bundled.storefront), admin: serverBasePath(bundled.admin) }, null, 2)} as const;\n`));
  files.set('spec-info.ts', withHeader(all, 'Versions and content hashes of the spec documents.', specInfoModule(bundled)));
  return files;
}
