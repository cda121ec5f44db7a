// The sandbox alone (no webhook simulator) on a free loopback port, as
// a child process, for tests that must put the process itself under a limit (test/sandbox/journal-disk-full:
// `prlimit --fsize`, a file size limit needs no privilege). Prints `listening on <url>` once it answers;
// SIGTERM closes it (the store with it) and exits 0.
// Usage: node --import tsx test/helpers/sandbox-child.ts <data-dir>
import { createWorkbench } from '../../workbench/index.js';

const [dataDir] = process.argv.slice(2);
if (!dataDir) {
  process.stderr.write('usage: node --import tsx test/helpers/sandbox-child.ts <data-dir>\n');
  process.exit(2);
}
const wb = await createWorkbench({ port: 0, host: '127.0.0.1', quiet: true, webhooks: false, sandbox: { dataDir } });
process.once('SIGTERM', () => {
  void wb.close().then(() => process.exit(0));
});
process.stdout.write(`listening on ${wb.url}\n`);
