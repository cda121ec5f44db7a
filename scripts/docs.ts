// npm run docs: builds the static documentation site in docs/site/ (git-ignored).
//   reference/storefront.html, reference/admin.html  redocly build-docs (self-contained)
//   events/                                           @asyncapi/html-template via @asyncapi/cli
//   guides/*.html                                     docs/guides/*.md through marked + layout
//   index.html, assets/site.css                       the landing page and the shared stylesheet
// It first regenerates docs/guides/inferred-decisions.md from spec/inferred/*.yaml (committed).
// The slow AsyncAPI template runs in parallel with everything else. Served by `npm start` at /docs.
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from '../src/contract/spec-files.js';
import { buildGuides } from './docs/guides.js';
import { inferredGuideFile, renderInferredRegister } from './docs/inferred.js';
import { buildLanding } from './docs/landing.js';
import { references, siteDir } from './docs/pages.js';
import { buildEventsReference, buildOpenApiReference } from './docs/references.js';

const started = Date.now();
const elapsed = (since = started) => `${((Date.now() - since) / 1000).toFixed(1)}s`;
const log = (line: string) => console.log(`docs: ${line}`);

async function step<T>(label: string, work: () => Promise<T>): Promise<T> {
  const t = Date.now();
  log(`${label} ...`);
  const result = await work();
  log(`${label} done (${elapsed(t)})`);
  return result;
}

async function writeIfChanged(file: string, text: string): Promise<boolean> {
  const old = await readFile(file, 'utf8').catch(() => undefined);
  if (old === text) return false;
  await writeFile(file, text);
  return true;
}

async function main(): Promise<void> {
  const changed = await writeIfChanged(inferredGuideFile, await renderInferredRegister());
  log(`${path.relative(repoRoot, inferredGuideFile)} ${changed ? 'rewritten from spec/inferred/ (commit it)' : 'up to date'}`);

  await rm(siteDir, { recursive: true, force: true });
  await mkdir(path.join(siteDir, 'assets'), { recursive: true });
  await copyFile(path.join(repoRoot, 'scripts/docs/site.css'), path.join(siteDir, 'assets/site.css'));

  const href = (id: string) => path.join(siteDir, references.find((r) => r.id === id)!.href);
  const events = step('events reference (asyncapi generate fromTemplate @asyncapi/html-template, the slow one)', () =>
    buildEventsReference(path.dirname(href('events'))),
  );
  const rest = (async () => {
    await step('storefront reference (redocly build-docs)', () => buildOpenApiReference('storefront', href('storefront'), 'Storefront API reference'));
    await step('admin reference (redocly build-docs)', () => buildOpenApiReference('admin', href('admin'), 'Admin webhook API reference'));
    const guides = await step('guides (docs/guides/*.md)', () => buildGuides(siteDir));
    for (const m of guides.missing) log(`warning: guide docs/guides/${m.slug}.md is missing${m.writtenBy ? ` (written by ${m.writtenBy})` : ''}; not linked`);
    await step('landing page', () => buildLanding(siteDir, guides.built));
    return guides;
  })();
  const [guides] = await Promise.all([rest, events]);
  log(`site built in ${elapsed()}: ${path.relative(repoRoot, siteDir)}/index.html, 3 references, ${guides.built.length} guides`);
}

main().catch((error: Error) => {
  console.error(`docs: failed after ${elapsed()}: ${error.message}`);
  process.exit(1);
});
