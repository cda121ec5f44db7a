// contract/files.ts in the sandbox's browser build: the same names, over the embedded document instead of
// a folder found on disk. The paths are names only: the ref parser's stand-in (ref-parser.ts) answers for
// them from what the build embedded. scripts/build-msw-browser.ts puts this module in place of
// contract/files.ts; a name added there and missing here fails that build.
import { toolsPackage as embeddedPackage } from 'sfc:embedded-contract';

export const assetsRoot = '/storefront-contract-tools';
export const specDir = `${assetsRoot}/spec`;
export const trafficDir = `${assetsRoot}/conformance/traffic`;
export const docsSiteDir = `${assetsRoot}/docs/site`;

export const documents = {
  storefront: `${specDir}/openapi/storefront.yaml`,
  admin: `${specDir}/openapi/admin.yaml`,
  webhooks: `${specDir}/asyncapi/webhooks.yaml`,
} as const;

export type DocumentName = keyof typeof documents;

export const toolsPackage: Readonly<{ name: string; version: string }> = embeddedPackage;

/** The embedded documents are the only ones: the storefront's (the browser build mounts no admin document). */
export function documentExists(file: string): boolean {
  return file === documents.storefront;
}
