// docs/site/changelog.html: what changed in the contract from one release to the next (spec/versions.yaml),
// newest first, with the unreleased changes of the working tree on top. Each section is the changelog
// command's own Markdown (scripts/changelog/: the diff engine of `npm run diff`), rendered by the site's
// Markdown renderer. The releases are read from git; a clone without a release's commit (a shallow clone)
// still builds the page, with a section saying which commit is missing and how to fetch it.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { repoRoot } from '../lib/repo.js';
import { buildChangelog, type Changelog } from '../changelog/build.js';
import { escapeMarkdown, renderMarkdown as changelogMarkdown } from '../changelog/render.js';
import { findRepository, resolveSide, SideError, type Repository, type Side } from '../changelog/sides.js';
import { readReleases, VERSIONS_FILE, type Release } from '../changelog/versions.js';
import { renderPage, type NavGuide } from './layout.js';
import { renderMarkdown } from './markdown.js';
import { changelogPage } from './pages.js';

export interface ChangelogPageResult {
  /** Sections built, sections that could not be (their release's commit missing). */
  shown: number;
  missing: string[];
  html: string;
}

const INTRO = `# Changelog

What changed in the contract from one released version to the next: the Storefront API, the Admin
webhook API and the webhook events. Every change is rated by the same engine as the pull-request gate
and falls in one of three groups:

- **Breaking**: someone relying on the older version breaks (a client, a server certified against it, a
  webhook receiver). It needs a new **major** version of the document.
- **Non-breaking**: an addition or a relaxed rule; nobody breaks. It needs a **minor** version.
- **Docs-only**: descriptions, summaries, titles and examples; only what people read changed. A **patch**.

Each change names the operations and events it reaches, through every shared schema. A release's number is
the version of the packages that ship that spec; each document also carries its own \`info.version\`
(the storefront and admin documents are in beta under \`/api/v1/\`, the webhook contract is 1.0). The same
changelog between any two versions, as Markdown or JSON, comes from a clone of the contract's repository:
\`npx storefront-contract changelog 0.1.0 0.2.0\`.
`;

function missingSection(title: string, reason: string): string {
  return `## ${title}\n\nNot shown in this build: ${escapeMarkdown(reason)}. Build the docs from a clone with the whole history to see it.\n`;
}

function firstSection(release: Release, side: Side, infoVersions: string): string {
  return `## ${release.version}${side.date ? ` (${side.date})` : ''}\n\nThe first recorded release (commit \`${release.commit.slice(0, 12)}\`): ${infoVersions}. ${release.note ? escapeMarkdown(release.note) : ''}\n`;
}

/** The documents' info.version lines of a side, for the first release (nothing earlier to compare with). */
async function infoVersionsOf(side: Side): Promise<string> {
  const parts: string[] = [];
  for (const [file, title] of [
    ['openapi/storefront.yaml', 'Storefront API'],
    ['openapi/admin.yaml', 'Admin webhook API'],
    ['asyncapi/webhooks.yaml', 'webhook events'],
  ]) {
    const doc = await readFile(path.join(side.specDir, file), 'utf8').then((t) => YAML.parse(t) as { info?: { version?: string } }, () => undefined);
    if (doc) parts.push(`${title} ${doc.info?.version ?? '(no version)'}`);
  }
  return parts.join(', ');
}

function releaseTitle(c: Changelog, release: Release, previous: Release): string {
  return `${release.version}${c.new.date ? ` (${c.new.date})` : ''}: changes since ${previous.version}`;
}

export async function buildChangelogPage(siteDir: string, guides: NavGuide[], log: (line: string) => void = () => undefined): Promise<ChangelogPageResult> {
  const found = await findRepository(repoRoot);
  const releases = await readReleases(repoRoot);
  const repo: Repository = { ...found, releases };
  const sides = new Map<string, Promise<Side>>();
  const side = (asked: string) => {
    if (!sides.has(asked)) sides.set(asked, resolveSide(asked, repoRoot, repo));
    const s = sides.get(asked)!;
    s.catch(() => undefined); // each use reports its own failure
    return s;
  };
  const sections: string[] = [];
  const missing: string[] = [];
  const section = async (title: string, work: () => Promise<string>) => {
    try {
      sections.push(await work());
    } catch (error) {
      if (!(error instanceof SideError)) throw error;
      missing.push(error.message);
      sections.push(missingSection(title, error.message));
      log(`warning: changelog section "${title}" not built: ${error.message}`);
    }
  };
  try {
    const last = releases.at(-1);
    if (!found.root) {
      // No git at all (an exported tree): every section says so, in the place it would be.
      const reason = `this folder is not a git clone, so the commits of ${VERSIONS_FILE} cannot be read (git clone the repository)`;
      for (const title of [...(last ? [`Unreleased (since ${last.version})`] : []), ...releases.map((r) => r.version).reverse()]) {
        sections.push(missingSection(title, reason));
        missing.push(reason);
      }
    } else {
      if (last) {
        await section(`Unreleased (since ${last.version})`, async () => {
          const c = await buildChangelog(await side(last.version), await side('working'));
          return c.changes.length
            ? changelogMarkdown(c, { level: 2, title: `Unreleased: changes since ${last.version}` })
            : `## Unreleased\n\nNo change to the contract since ${last.version}.\n`;
        });
      }
      for (let i = releases.length - 1; i >= 1; i--) {
        const [previous, release] = [releases[i - 1], releases[i]];
        await section(release.version, async () => {
          const c = await buildChangelog(await side(previous.version), await side(release.version));
          const note = release.note ? `\n\n${escapeMarkdown(release.note)}` : '';
          return changelogMarkdown(c, { level: 2, title: releaseTitle(c, release, previous) }).replace(/\n\n/, `${note}\n\n`);
        });
      }
      if (releases[0]) await section(releases[0].version, async () => firstSection(releases[0], await side(releases[0].version), await infoVersionsOf(await side(releases[0].version))));
    }
  } finally {
    await Promise.all([...sides.values()].map((s) => s.then((x) => x.remove(), () => undefined)));
  }
  const { html } = renderMarkdown(`${INTRO}\n${sections.join('\n')}`);
  await writeFile(path.join(siteDir, changelogPage.href), renderPage({ title: changelogPage.title, body: html, root: '', guides, self: changelogPage.href, mainClass: 'changelog' }));
  return { shown: sections.length - missing.length, missing, html };
}
