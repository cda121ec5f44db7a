// contract/document-cache.ts in the sandbox's browser build: no files to cache in a page (the document is
// embedded at build time, ref-parser.ts), so the model's parser is called as is. scripts/build-msw-browser.ts
// puts this module in place of contract/document-cache.ts.
import type { Dereferenced } from '../../contract/document-cache.js';

export const documentCacheStats = { hits: 0, misses: 0, writes: 0 };

export function cachedDereference(file: string, parse: (file: string) => Promise<Dereferenced>): Promise<Dereferenced> {
  return parse(file);
}
