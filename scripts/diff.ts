// npm run diff -- --base <git-ref>        every spec document against its version at the ref
// npm run diff -- <base-file> <revision-file>   two documents directly (YAML or JSON)
// OpenAPI is rated by `redocly diff`, AsyncAPI by `@asyncapi/diff` (scripts/diff/); a change in a shared
// component names every operation or event it reaches. Each change is breaking, non-breaking or docs-only
// (scripts/diff/impact.ts), and each document's report says the version bump its changes need (major,
// minor, patch: scripts/diff/policy.ts). Fails (exit 1) on a breaking change unless info.version was bumped
// to a new major. Annotates the PR under GitHub Actions. The command itself is scripts/diff/cli.ts; the
// changelog between two versions (scripts/changelog/) runs the same engine.
import { runDiff } from './diff/cli.js';

runDiff(process.argv.slice(2), { out: (line) => console.log(line), err: (line) => console.error(line) }).then((code) => process.exit(code));
