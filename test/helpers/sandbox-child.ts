// The sandbox alone (no webhook simulator, so no SQLite files beside the journal) on a free loopback port, as
// a child process, for tests that must put the process itself under a limit (test/sandbox/journal-disk-full:
// `prlimit --fsize`, a file size limit needs no privilege). Prints `listening on <url>` once it answers;
// SIGTERM closes it (the journal with it) and exits 0.
// Usage: node --import tsx test/helpers/sandbox-child.ts <data-dir> <compact-after>
import { createWorkbench } from '../../workbench/index.js';

const [dataDir, compactAfter] = process.argv.slice(2);
if (!dataDir || !compactAfter) {
  process.stderr.write('usage: node --import tsx test/helpers/sandbox-child.ts <data-dir> <compact-after>\n');
  process.exit(2);
}
const wb = await createWorkbench({ port: 0, host: '127.0.0.1', quiet: true, webhooks: false, sandbox: { dataDir, compactEntries: Number(compactAfter) } });
process.once('SIGTERM', () => {
  void wb.close().then(() => process.exit(0));
});
process.stdout.write(`listening on ${wb.url}\n`);
