// Where the contract's documents live; every script and test resolves them from here.
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const specDir = path.join(repoRoot, 'spec');

export const documents = {
  storefront: path.join(specDir, 'openapi/storefront.yaml'),
  admin: path.join(specDir, 'openapi/admin.yaml'),
  webhooks: path.join(specDir, 'asyncapi/webhooks.yaml'),
} as const;

export type DocumentName = keyof typeof documents;
