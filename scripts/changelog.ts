// npm run changelog -- <old> <new> [--format md|json] [--out <file>]...
// What changed in the contract between two versions (releases of spec/versions.yaml, git refs, folders),
// grouped breaking / non-breaking / docs-only, rated by the diff engine of `npm run diff`. In a clone,
// `npx storefront-contract changelog` runs the same (scripts/bin/storefront-contract.mjs). The command
// itself is scripts/changelog/cli.ts.
import { runChangelog } from './changelog/cli.js';

runChangelog(process.argv.slice(2), { out: (text) => process.stdout.write(text), err: (line) => console.error(line) }).then((code) => process.exit(code));
