// Bundles each spec document into one JSON object with Redocly (external files lifted into
// `components`, named by file), the form the type and validator generators read.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { documents, workbenchDocument, type DocumentName } from '../lib/repo.js';
import { runTool } from '../lib/run-tool.js';

/** The contract's three documents, and the workbench's own API (outside the contract). */
export type Bundled = Record<DocumentName | 'workbench', any>;

export async function bundleDocument(name: DocumentName | 'workbench'): Promise<any> {
  const file = name === 'workbench' ? workbenchDocument : documents[name];
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sfc-bundle-'));
  try {
    const out = path.join(dir, `${name}.json`);
    const result = await runTool('redocly', ['bundle', file, '--output', out, '--ext', 'json'], {
      capture: true,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    if (result.code !== 0) {
      throw new Error(`redocly bundle ${path.relative(process.cwd(), file)} failed:\n${result.stderr || result.stdout}`);
    }
    return JSON.parse(await readFile(out, 'utf8'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function bundleAll(): Promise<Bundled> {
  const [storefront, admin, webhooks, workbench] = await Promise.all([
    bundleDocument('storefront'),
    bundleDocument('admin'),
    bundleDocument('webhooks'),
    bundleDocument('workbench'),
  ]);
  return { storefront, admin, webhooks, workbench };
}
