// What the Markdown shipped in the two packages (their READMEs, the tools' docs/guides/) points a package
// user to (issue 37 item 7): read with marked's lexer, links and code spans outside code blocks.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { marked } from 'marked';
import { repoRoot } from '../../scripts/lib/repo.js';

/** Every `.md` file of an installed package folder (the tarball's files), relative to it. */
export async function markdownFiles(packageDir: string): Promise<string[]> {
  const entries = await readdir(packageDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.md') && !path.relative(packageDir, e.parentPath).split(path.sep).includes('node_modules'))
    .map((e) => path.relative(packageDir, path.join(e.parentPath, e.name)))
    .sort();
}

interface Found {
  links: string[];
  codeSpans: string[];
}

interface Token {
  type: string;
  href?: string;
  text?: string;
  tokens?: Token[];
  items?: Token[];
  header?: Array<{ tokens: Token[] }>;
  rows?: Array<Array<{ tokens: Token[] }>>;
}

function walk(tokens: Token[] | undefined, found: Found): void {
  for (const t of tokens ?? []) {
    if (t.type === 'code') continue;
    if (t.type === 'link') found.links.push(t.href!);
    if (t.type === 'codespan') found.codeSpans.push(t.text!);
    walk(t.tokens, found);
    walk(t.items, found);
    for (const cell of t.header ?? []) walk(cell.tokens, found);
    for (const row of t.rows ?? []) for (const cell of row) walk(cell.tokens, found);
  }
}

export function references(markdown: string): Found {
  const found: Found = { links: [], codeSpans: [] };
  walk(marked.lexer(markdown) as Token[], found);
  return found;
}

/**
 * Relative links of `file` (in `packageDir`) whose target is not a file or folder inside the package;
 * `#fragment`s and absolute URLs (`https:`, `mailto:`) are not checked here.
 */
export async function brokenLinks(packageDir: string, file: string): Promise<string[]> {
  const { links } = references(await readFile(path.join(packageDir, file), 'utf8'));
  return links.filter((href) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#')) return false;
    const target = path.resolve(path.dirname(path.join(packageDir, file)), decodeURI(href.split('#')[0]!));
    const inside = !path.relative(packageDir, target).startsWith('..');
    return !inside || !existsSync(target);
  });
}

let tracked: Set<string> | undefined;
/** The repository's files (git ls-files): a code span naming one cites a file of this repository. */
function repositoryFiles(): Set<string> {
  tracked ??= new Set(execFileSync('git', ['ls-files'], { cwd: repoRoot, encoding: 'utf8' }).split('\n').filter(Boolean));
  return tracked;
}

/**
 * Code spans of `file` that cite a file of this repository the user does not have: a repository path
 * (`test/msw/parity.test.ts`) that is not at that path in the package, or `node_modules/<package>/<path>`
 * that is not in that installed package.
 */
export async function unshippedCitations(packageDir: string, file: string, installedRoot: string): Promise<string[]> {
  const { codeSpans } = references(await readFile(path.join(packageDir, file), 'utf8'));
  return codeSpans.filter((span) => {
    const installed = /^node_modules\/((?:@[^/]+\/)?[^/]+)\/(.+)$/.exec(span);
    if (installed) return !existsSync(path.join(installedRoot, installed[1]!, installed[2]!));
    return repositoryFiles().has(span) && !existsSync(path.join(packageDir, span));
  });
}
