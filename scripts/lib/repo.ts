// The repository, for build scripts, benchmarks and tests (never shipped): its root (the folder of the
// workspace manifest, two levels above this file) and, from the tools' own lookup, where the contract's
// documents are.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export { documents, specDir, workbenchDocument, type DocumentName } from '../../workbench/contract/files.js';
