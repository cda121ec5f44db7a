// The three API references, each made by the field's own renderer:
//   OpenAPI  -> `redocly build-docs --inlineBundle`: one self-contained HTML file (Redoc inlined, no CDN)
//   AsyncAPI -> `asyncapi generate fromTemplate ... @asyncapi/html-template` (installed dev dependency,
//               so nothing downloads): index.html + css/ + js/ in its own folder.
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { documents, repoRoot } from '../../src/contract/spec-files.js';
import { asyncapiEnv, runTool } from '../lib/run-tool.js';

const redoclyEnv = () => ({ ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' });

function failure(what: string, result: { code: number; stdout: string; stderr: string }): Error {
  return new Error(`${what} failed (exit ${result.code}):\n${(result.stderr + result.stdout).trim()}`);
}

// Redoc 3 (inlined by --inlineBundle) still fetches its attribution logo from cdn.redoc.ly at run
// time, and the page has no favicon, so the browser asks the server for /favicon.ico. Both give
// console errors offline and break "no external assets". The logo is swapped for the same words as
// a local SVG (the attribution stays), and the page gets an empty inline favicon.
const LOGO_SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="16" viewBox="0 0 64 16"><text x="0" y="12" font-family="sans-serif" font-size="12" font-weight="700" fill="#0044d4">Redocly</text></svg>',
).toString('base64');

export function selfContainRedoc(html: string): string {
  let out = html.replace(/https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g, `data:image/svg+xml;base64,${LOGO_SVG}`);
  if (!/<link[^>]+rel="icon"/.test(out)) out = out.replace(/<head>/i, '<head>\n    <link rel="icon" href="data:,">');
  return out;
}

export async function buildOpenApiReference(name: 'storefront' | 'admin', outFile: string, title: string): Promise<void> {
  await mkdir(path.dirname(outFile), { recursive: true });
  const result = await runTool(
    'redocly',
    ['build-docs', documents[name], '--output', outFile, '--title', title, '--inlineBundle', '--lint-config', 'off'],
    { capture: true, env: redoclyEnv() },
  );
  if (result.code !== 0) throw failure(`redocly build-docs ${path.relative(repoRoot, documents[name])}`, result);
  await writeFile(outFile, selfContainRedoc(await readFile(outFile, 'utf8')));
}

/**
 * The template server-renders the page with React; see react-pin.cjs for why it is preloaded.
 * It runs from the spec folder because the generator resolves relative $refs against the current
 * directory. NODE_OPTIONS keeps Node 20 alive when the CLI's un-awaited registry check fails offline.
 */
export async function buildEventsReference(outDir: string): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const env = asyncapiEnv();
  env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} --require ${path.join(repoRoot, 'scripts/docs/react-pin.cjs')}`.trim();
  const result = await runTool(
    'asyncapi',
    ['generate', 'fromTemplate', path.basename(documents.webhooks), '@asyncapi/html-template', '-o', outDir, '--force-write', '--no-interactive', '--use-new-generator'],
    { capture: true, env, cwd: path.dirname(documents.webhooks) },
  );
  // The generator can print an error and still exit 0: the output file is the real proof.
  const made = await stat(path.join(outDir, 'index.html')).then((s) => s.size > 0, () => false);
  if (result.code !== 0 || !made) throw failure('asyncapi generate fromTemplate @asyncapi/html-template', result);
}
