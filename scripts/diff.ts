// npm run diff -- --base <git-ref>        every spec document against its version at the ref
// npm run diff -- <base-file> <revision-file>   two documents directly (YAML or JSON)
// OpenAPI is rated by `redocly diff`, AsyncAPI by `@asyncapi/diff` (scripts/diff/); a change in a shared
// component names every operation or event it reaches. Fails (exit 1) on a breaking change unless
// info.version was bumped to a new major. Annotates the PR under GitHub Actions. The command itself is
// scripts/diff/cli.ts.
import { runDiff } from './diff/cli.js';

runDiff(process.argv.slice(2), { out: (line) => console.log(line), err: (line) => console.error(line) }).then((code) => process.exit(code));
