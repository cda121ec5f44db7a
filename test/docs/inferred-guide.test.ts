// docs/guides/inferred-decisions.md is generated from spec/inferred/*.yaml by `npm run docs` and
// committed; this fails when the committed copy is stale, like check:generated does for generated/.
import { readFile } from 'node:fs/promises';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { specDir } from '../../scripts/lib/repo.js';
import { inferredGuideFile, renderInferredRegister } from '../../scripts/docs/inferred.js';
import { renderMarkdown } from '../../scripts/docs/markdown.js';

describe('register of inferred decisions guide', () => {
  it('is up to date with spec/inferred/*.yaml (run `npm run docs` and commit it)', async () => {
    expect(await readFile(inferredGuideFile, 'utf8')).toBe(await renderInferredRegister());
  });

  it('has one section per entry, each with decision, reason and where', async () => {
    const html = renderMarkdown(await renderInferredRegister()).html;
    for (const file of ['storefront', 'admin', 'webhooks']) {
      const entries = YAML.parse(await readFile(`${specDir}/inferred/${file}.yaml`, 'utf8')) as { id: string }[];
      for (const { id } of entries) expect(html).toMatch(new RegExp(`<h3 id="${id.toLowerCase()}-[^"]*">${id}:`));
    }
    expect(html.match(/<strong>Reason\.<\/strong>/g)?.length).toBe(html.match(/<h3 /g)?.length);
  });
});

describe('guide link rewriting', () => {
  it.each([
    ['webhooks.md', 'webhooks.html'],
    ['./receiving-webhooks.md#mounting', 'receiving-webhooks.html#mounting'],
    ['../../spec/openapi/storefront.yaml', '../reference/storefront.html'],
    ['../../spec/asyncapi/webhooks.yaml', '../events/index.html'],
    ['https://example.com/x.md', 'https://example.com/x.md'],
    ['#local', '#local'],
  ])('%s -> %s', async (href, want) => {
    const { rewriteHref } = await import('../../scripts/docs/markdown.js');
    expect(rewriteHref(href)).toBe(want);
  });

  it('turns links to other repository files into plain text (the site does not serve them)', () => {
    const { html } = renderMarkdown('# T\n\nSee [the receiver](../../examples/receivers/node.ts).');
    expect(html).toContain('<span class="repo-file" title="File in the repository: examples/receivers/node.ts">the receiver</span>');
    expect(html).not.toContain('href="../../examples');
  });
});
