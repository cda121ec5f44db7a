// The two OpenAPI references, rendered by `redocly build-docs` (Redoc 3, server-rendered then hydrated).
// What this adds around it:
//   - the document handed to Redoc is the bundle with a provenance badge appended to the description of
//     every element the spec marks (`x-contract-source`): "Stated by the platform" or "Designed here"
//     with a link to its register entry; the markers themselves are dropped from that copy;
//   - our own page template (templates/redoc.hbs): the site's shared header above Redoc;
//   - Redoc's script is served once, as assets/redoc.standalone.<hash>.js (the exact file --inlineBundle
//     would inline, logo made local, integrity hash recomputed; its name carries its content's hash, so
//     /docs lets browsers cache it for a year), instead of 2.3 MB inlined into each page, so the second
//     reference loads it from the browser cache; nothing comes from a CDN;
//   - the server-rendered sidebar links (`href="/catalog"`: Redoc renders them with a base path of "/")
//     become the hash routes the page really serves (`#/catalog`), so they work in a new tab too.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { repoRoot, type DocumentName } from '../lib/repo.js';
import { runTool } from '../lib/run-tool.js';
import { renderHeader, headerAssets, type NavGuide } from './layout.js';
import { badgeMarkdown, badgeText, bundleWithProvenance, PROVENANCE, type JsonObject, type Provenance } from './provenance.js';

const redoclyEnv = () => ({ ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' });
const TEMPLATE = path.join(repoRoot, 'scripts/docs/redoc.hbs');
const HEADER_SLOT = '<!-- site-header -->';
const HEAD_SLOT = '<!-- site-head -->';
/** Where Redoc's script goes; `<hash>` becomes the first 10 hex digits of its SHA-256. */
export const redocScript = 'assets/redoc.standalone.<hash>.js';

function failure(what: string, result: { code: number; stdout: string; stderr: string }): Error {
  return new Error(`${what} failed (exit ${result.code}):\n${(result.stderr + result.stdout).trim()}`);
}

/** The Redoc bundle shipped inside @redocly/cli (what `build-docs --inlineBundle` inlines). */
export function redocStandalonePath(): string {
  const cli = path.dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json'));
  return path.join(cli, 'lib/chunks/redoc.standalone.js');
}

/**
 * Copies Redoc's script to assets/, with its attribution logo (fetched from cdn.redoc.ly at run time)
 * swapped for the same words as a local SVG. Returns the script's new integrity hash for the pages and its
 * path from the site root (its name carries its content's hash).
 */
export async function copyRedocScript(siteDir: string): Promise<{ integrity: string; script: string }> {
  const from = redocStandalonePath();
  const original = await readFile(from, 'utf8').catch((e: Error) => {
    throw new Error(`${from}: cannot read Redoc's script (${e.message}); @redocly/cli moved it: find redoc.standalone.js in node_modules/@redocly/cli and update redocStandalonePath() in scripts/docs/references.ts.`);
  });
  const local = original.replace(/https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g, `data:image/svg+xml;base64,${LOGO_SVG}`);
  const script = redocScript.replace('<hash>', createHash('sha256').update(local).digest('hex').slice(0, 10));
  await writeFile(path.join(siteDir, script), local);
  return { integrity: `sha384-${createHash('sha384').update(local).digest('base64')}`, script };
}

/**
 * Appends each stamped element's badge to its description, then drops the machine markers. Redoc
 * renders server descriptions as plain text, so servers get the badge's words without Markdown.
 */
export function applyBadges(node: unknown, plain = false, seen = new Set<object>()): void {
  if (!node || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  if (Array.isArray(node)) return node.forEach((child) => applyBadges(child, plain, seen));
  const obj = node as JsonObject;
  const p = obj[PROVENANCE] as Provenance | undefined;
  if (p) {
    const text = typeof obj.description === 'string' ? obj.description.trimEnd() : '';
    const badge = plain ? badgeText(p) : badgeMarkdown(p);
    obj.description = text ? `${text}${plain ? ' ' : '\n\n'}${badge}` : badge;
  }
  delete obj[PROVENANCE];
  delete obj['x-contract-source'];
  for (const [key, child] of Object.entries(obj)) applyBadges(child, plain || key === 'servers', seen);
}

/** Post-processes build-docs output: shared header, local Redoc script, working sidebar links. */
export function finishRedocPage(html: string, header: string, head: string, integrity: string, script = redocScript): string {
  const cdn = /https:\/\/cdn\.redocly\.com\/redoc\/v[^"]+\/bundles\/redoc\.standalone\.js/g;
  if (!cdn.test(html)) throw new Error('redocly build-docs output has no Redoc script URL to point at assets/: its template changed; update finishRedocPage() in scripts/docs/references.ts.');
  let out = html.replace(cdn, `../${script}`).replace(/integrity="sha384-[^"]+"/, `integrity="${integrity}"`);
  out = out.replace(/ href="\/([^"#]*)"( data-discover="true")/g, ' href="#/$1"$2');
  if (!out.includes(HEADER_SLOT) || !out.includes(HEAD_SLOT)) throw new Error(`${TEMPLATE}: the template lost its ${HEADER_SLOT} or ${HEAD_SLOT} slot.`);
  return out.replace(HEADER_SLOT, header).replace(HEAD_SLOT, head);
}

const LOGO_SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="16" viewBox="0 0 64 16"><text x="0" y="12" font-family="sans-serif" font-size="12" font-weight="700" fill="#0044d4">Redocly</text></svg>',
).toString('base64');

export interface ReferenceInput {
  name: Extract<DocumentName, 'storefront' | 'admin'> | 'workbench';
  /** Relative to the site root, e.g. reference/storefront.html. */
  href: string;
  title: string;
  siteDir: string;
  guides: NavGuide[];
  entries: Parameters<typeof bundleWithProvenance>[1];
  /** Integrity hash of Redoc's script (from copyRedocScript). */
  integrity: string;
  /** Its path from the site root (from copyRedocScript). */
  script: string;
}

/** Builds one reference page; returns the badged bundle (for the search index). */
export async function buildOpenApiReference(input: ReferenceInput): Promise<JsonObject> {
  const outFile = path.join(input.siteDir, input.href);
  await mkdir(path.dirname(outFile), { recursive: true });
  const bundle = await bundleWithProvenance(input.name, input.entries);
  applyBadges(bundle);
  const tmp = path.join(os.tmpdir(), `storefront-contract-docs-${process.pid}-${input.name}.json`);
  await writeFile(tmp, JSON.stringify(bundle));
  try {
    const result = await runTool(
      'redocly',
      ['build-docs', tmp, '--output', outFile, '--title', input.title, '--template', TEMPLATE, '--lint-config', 'off'],
      { capture: true, env: redoclyEnv() },
    );
    if (result.code !== 0) throw failure(`redocly build-docs ${input.name === 'workbench' ? 'spec/workbench/openapi.yaml' : `spec/openapi/${input.name}.yaml`}`, result);
  } finally {
    await rm(tmp, { force: true });
  }
  const header = renderHeader({ root: '../', guides: input.guides, self: input.href });
  await writeFile(outFile, finishRedocPage(await readFile(outFile, 'utf8'), header, headerAssets('../'), input.integrity, input.script));
  return bundle;
}
