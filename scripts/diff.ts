// npm run diff -- --base <git-ref>        every spec document against its version at the ref
// npm run diff -- <base-file> <revision-file>   two documents directly
// OpenAPI is rated by `redocly diff`, AsyncAPI by `@asyncapi/diff` (scripts/diff/). Fails (exit 1) on a
// breaking change unless info.version was bumped to a new major. Annotates the PR under GitHub Actions.
import { access } from 'node:fs/promises';
import path from 'node:path';
import { documents, repoRoot } from '../src/contract/spec-files.js';
import { diffDocuments } from './diff/compare.js';
import { snapshotSpec } from './diff/git.js';
import { formatAnnotations, formatReport, plainLabels, snapshotLabels } from './diff/report.js';

const HELP = `usage: npm run diff -- --base <git-ref>            compare spec/ with its state at <git-ref> (e.g. origin/main)
       npm run diff -- <base-file> <revision-file>   compare two documents
options: --format text|github-actions   (default: github-actions under GitHub Actions, else text)`;

function parseArgs(argv: string[]) {
  let base: string | undefined;
  let format = process.env.GITHUB_ACTIONS === 'true' ? 'github-actions' : 'text';
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--base') base = argv[++i];
    else if (a.startsWith('--base=')) base = a.slice(7);
    else if (a === '--format') format = argv[++i];
    else if (a === '--help' || a === '-h') {
      console.log(HELP);
      process.exit(0);
    } else files.push(a);
  }
  if ((base === undefined) === (files.length === 0) || (files.length !== 0 && files.length !== 2)) {
    console.error(`diff: give either --base <git-ref> or two files.\n${HELP}`);
    process.exit(2);
  }
  return { base, files, format };
}

const exists = (f: string) => access(f).then(() => true, () => false);

async function main(): Promise<boolean> {
  const { base, files, format } = parseArgs(process.argv.slice(2));
  if (!base) {
    const result = await diffDocuments(path.resolve(files[0]), path.resolve(files[1]));
    console.log(formatReport(`diff: ${files[0]} -> ${files[1]}`, result, plainLabels));
    return result.verdict.ok;
  }
  const snapshot = await snapshotSpec(base);
  try {
    let ok = true;
    for (const file of Object.values(documents)) {
      const repoPath = path.relative(repoRoot, file);
      const before = snapshot.file(repoPath);
      if (!(await exists(before))) {
        console.log(`diff: ${repoPath}: new document (not at ${base}), nothing to compare`);
        continue;
      }
      const started = Date.now();
      const result = await diffDocuments(before, file);
      const labels = snapshotLabels(snapshot.dir, base);
      console.log(formatReport(`diff: ${repoPath} against ${base}`, result, labels) + `  [${((Date.now() - started) / 1000).toFixed(1)}s]`);
      if (format === 'github-actions') for (const a of formatAnnotations(repoPath, result, labels)) console.log(a);
      ok = ok && result.verdict.ok;
    }
    console.log(ok ? 'diff: PASS (no unapproved breaking change)' : 'diff: FAIL (breaking changes need a new major info.version)');
    return ok;
  } finally {
    await snapshot.remove();
  }
}

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (error: Error) => {
    console.error(`diff: ${error.message}`);
    process.exit(2);
  },
);
