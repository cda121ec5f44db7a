// `storefront-contract changelog <old> <new>` in a clone (scripts/bin/storefront-contract.mjs sends it
// here; `npm run changelog` too) as a function: argv in, exit code out, lines to the given streams.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildChangelog } from './build.js';
import { renderJson, renderMarkdown } from './render.js';
import { findRepository, resolveSide, SideError, type Side } from './sides.js';
import { readReleases, VERSIONS_FILE } from './versions.js';

export const HELP = `Usage: storefront-contract changelog <old> <new> [options]     (in a clone of the contract repository)

Every change to the contract between two versions: the Storefront API (spec/openapi/storefront.yaml), the
Admin webhook API (spec/openapi/admin.yaml) and the webhook events (spec/asyncapi/webhooks.yaml), grouped
breaking / non-breaking / docs-only, each naming the operations and events it reaches, with the version
bump the changes need (major for breaking, minor for non-breaking, patch for docs-only). Rated by the
same engine as the pull-request gate (npm run diff). Nothing is fetched: git refs come from this clone.

<old> and <new>, each one of:
  a release          0.1.0 or v0.1.0: listed in ${VERSIONS_FILE} (version and commit), or a git tag contract-v0.1.0
  a git ref          a commit, branch or tag of this repository: HEAD~3, origin/main, 8b8f03b
  a folder           one holding spec/ (a checkout, an unpacked storefront-contract-tools package), or spec/ itself
  working            the working tree, uncommitted edits included (the same as the folder .)

Options:
  --format md|json   what goes to stdout (default md)
  --out <file>       write to the file (its folder is made) instead of stdout; repeatable, a .json or .md
                     name picks its format
                     (--out changelog.md --out changelog.json: both from one comparison)
  --help             this text

Exit: 0 the changelog was written, whatever it holds (the gate that fails on breaking changes is
npm run diff); 2 misuse: an unknown release or ref, a folder without the documents, a commit this clone
does not have (a shallow clone: git fetch --unshallow), a document the engine cannot read.

Examples:
  storefront-contract changelog 0.1.0 0.2.0
  storefront-contract changelog 0.2.0 working --out .reports/changelog.md --out .reports/changelog.json
  storefront-contract changelog origin/main HEAD --format json`;

export interface Io {
  out(text: string): void;
  err(line: string): void;
}

type Format = 'md' | 'json';

export async function runChangelog(argv: string[], io: Io, cwd = process.cwd()): Promise<number> {
  let values: { format?: string; out?: string[]; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { format: { type: 'string' }, out: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    const unknown = /Unknown option '([^']+)'/.exec((error as Error).message)?.[1];
    const problem = unknown ? `unknown option ${unknown}; the options are --format, --out and --help` : (error as Error).message.replace(/\s*\n\s*/g, ' ');
    io.err(`changelog: ${problem}; see storefront-contract changelog --help`);
    return 2;
  }
  if (values.help) {
    io.out(`${HELP}\n`);
    return 0;
  }
  if (positionals.length !== 2) {
    io.err(`changelog: give two versions, <old> and <new> (got ${positionals.length}), e.g. storefront-contract changelog 0.1.0 0.2.0; see --help`);
    return 2;
  }
  const format = values.format ?? 'md';
  if (format !== 'md' && format !== 'json') {
    io.err(`changelog: --format ${format} is not a format; use --format md or --format json`);
    return 2;
  }
  const outs = (values.out ?? []).map((file) => ({ file: path.resolve(cwd, file), format: (/\.json$/i.test(file) ? 'json' : /\.(md|markdown)$/i.test(file) ? 'md' : format) as Format }));

  const sides: Side[] = [];
  try {
    const repo = await findRepository(cwd);
    const releases = repo.root ? await readReleases(repo.root) : [];
    for (const asked of positionals) sides.push(await resolveSide(asked, cwd, { ...repo, releases }));
    const changelog = await buildChangelog(sides[0], sides[1]);
    const text = (f: Format) => (f === 'json' ? renderJson(changelog) : renderMarkdown(changelog));
    if (!outs.length) io.out(text(format));
    for (const o of outs) {
      await mkdir(path.dirname(o.file), { recursive: true })
        .then(() => writeFile(o.file, text(o.format)))
        .catch((error: NodeJS.ErrnoException) => {
          throw new SideError(`--out ${path.relative(cwd, o.file)}: cannot write it (${error.code ?? error.message}); give a file where you can write`);
        });
      io.err(`changelog: ${path.relative(cwd, o.file)} (${o.format}): ${changelog.changes.length} changes, needs ${changelog.bump === 'none' ? 'no' : `a ${changelog.bump}`} version bump`);
    }
    return 0;
  } catch (error) {
    // Sides and versions say what to give instead; the engines name the document they cannot read (an
    // invalid document lists its problems on the following lines: kept, on the one line).
    const lines = (error as Error).message.split('\n').map((l) => l.trim()).filter(Boolean);
    io.err(`changelog: ${lines.slice(0, 4).join(' ')}${lines.length > 4 ? ` (+${lines.length - 4} more)` : ''}`);
    return 2;
  } finally {
    await Promise.all(sides.map((s) => s.remove()));
  }
}
