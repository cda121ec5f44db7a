// The `npm run diff` command as a function (argv in, exit code out, lines to the given streams), so the
// tests drive it in process; scripts/diff.ts only wires it to the real process.
import { access } from 'node:fs/promises';
import path from 'node:path';
import { documents, repoRoot } from '../lib/repo.js';
import { diffDocuments, unchangedDocument } from './compare.js';
import { snapshotSpec } from './git.js';
import { largerBump } from './policy.js';
import { formatAnnotations, formatReport, plainLabels, snapshotLabels } from './report.js';
import type { Bump } from './types.js';

export const HELP = `usage: npm run diff -- --base <git-ref>            compare spec/ with its state at <git-ref> (e.g. origin/main)
       npm run diff -- <base-file> <revision-file>   compare two documents (YAML or JSON, OpenAPI or AsyncAPI)
options: --format text|github-actions   (default: github-actions under GitHub Actions, else text)`;

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

type Args = { base?: string; files: string[]; format: string } | { exit: number };

function parseArgs(argv: string[], io: Io): Args {
  let base: string | undefined;
  let format = process.env.GITHUB_ACTIONS === 'true' ? 'github-actions' : 'text';
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--base') base = argv[++i];
    else if (a.startsWith('--base=')) base = a.slice(7);
    else if (a === '--format') format = argv[++i];
    else if (a === '--help' || a === '-h') {
      io.out(HELP);
      return { exit: 0 };
    } else files.push(a);
  }
  if ((base === undefined) === (files.length === 0) || (files.length !== 0 && files.length !== 2)) {
    io.err(`diff: give either --base <git-ref> or two files.\n${HELP}`);
    return { exit: 2 };
  }
  if (format !== 'text' && format !== 'github-actions') {
    io.err(`diff: --format ${format} is not a format; use --format text or --format github-actions`);
    return { exit: 2 };
  }
  return { base, files, format };
}

const exists = (f: string) => access(f).then(() => true, () => false);

async function compare(base: string | undefined, files: string[], format: string, io: Io): Promise<boolean> {
  if (!base) {
    const result = await diffDocuments(path.resolve(files[0]), path.resolve(files[1]));
    io.out(formatReport(`diff: ${files[0]} -> ${files[1]}`, result, plainLabels));
    return result.verdict.ok;
  }
  const snapshot = await snapshotSpec(base);
  try {
    const labels = snapshotLabels(snapshot.dir, base);
    // The documents are independent: compare them together (Redocly runs in its own processes), print in order.
    const reports = await Promise.all(
      Object.values(documents).map(async (file) => {
        const repoPath = path.relative(repoRoot, file);
        const before = snapshot.file(repoPath);
        if (!(await exists(before))) return { ok: true, needed: 'minor' as Bump, lines: [`diff: ${repoPath}: new document (not at ${base}), nothing to compare`] };
        const started = Date.now();
        const result = (await unchangedDocument(before, file)) ?? (await diffDocuments(before, file));
        const lines = [formatReport(`diff: ${repoPath} against ${base}`, result, labels) + `  [${((Date.now() - started) / 1000).toFixed(1)}s]`];
        if (format === 'github-actions') lines.push(...formatAnnotations(repoPath, result, labels));
        return { ok: result.verdict.ok, needed: result.verdict.bump.covered ? ('none' as Bump) : result.verdict.bump.needed, lines };
      }),
    );
    for (const line of reports.flatMap((r) => r.lines)) io.out(line);
    const ok = reports.every((r) => r.ok);
    const pending = reports.reduce<Bump>((a, r) => largerBump(a, r.needed), 'none');
    const release = pending === 'none' ? '' : `; the next release needs a ${pending} version bump (see "version:" above)`;
    io.out(ok ? `diff: PASS (no unapproved breaking change)${release}` : 'diff: FAIL (breaking changes need a new major info.version)');
    return ok;
  } finally {
    await snapshot.remove();
  }
}

/** 0 no unapproved breaking change, 1 breaking changes, 2 misuse or an unreadable document. */
export async function runDiff(argv: string[], io: Io): Promise<number> {
  const args = parseArgs(argv, io);
  if ('exit' in args) return args.exit;
  try {
    return (await compare(args.base, args.files, args.format, io)) ? 0 : 1;
  } catch (error) {
    io.err(`diff: ${(error as Error).message}`);
    return 2;
  }
}
