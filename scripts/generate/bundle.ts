// Bundles each spec document into one JSON object with Redocly (external files lifted into
// `components`, named by file), the form the type and validator generators read.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { documents, type DocumentName } from '../lib/repo.js';
import { runTool } from '../lib/run-tool.js';

export type Bundled = Record<DocumentName, any>;

export async function bundleDocument(name: DocumentName): Promise<any> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sfc-bundle-'));
  try {
    const out = path.join(dir, `${name}.json`);
    const result = await runTool('redocly', ['bundle', documents[name], '--output', out, '--ext', 'json'], {
      capture: true,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    if (result.code !== 0) {
      throw new Error(`redocly bundle ${path.relative(process.cwd(), documents[name])} failed:\n${result.stderr || result.stdout}`);
    }
    return JSON.parse(await readFile(out, 'utf8'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function bundleAll(): Promise<Bundled> {
  const [storefront, admin, webhooks] = await Promise.all([
    bundleDocument('storefront'),
    bundleDocument('admin'),
    bundleDocument('webhooks'),
  ]);
  return { storefront, admin, webhooks };
}
