#!/usr/bin/env node
// The `storefront-contract` bin: main() of cli/main.ts as a process (its exit code, broken pipes,
// uncaught errors).
import { main } from './main.js';

// Output whose reader has gone (`| head`, a parent process that died): stop, as a Unix tool stopped by
// SIGPIPE does. Without this, every later write fails, and reporting that failure on the same broken pipe
// failed again, for ever: a workbench left spinning, deaf to SIGTERM (whose handler writes a line too).
// Acknowledged writes are already on disk (the journal and the simulator commit before they answer).
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') process.exit(0);
  });
}
// A bug in one request must not take a running workbench down for everyone.
process.on('uncaughtException', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE' && (process.stdout.destroyed || process.stderr.destroyed)) process.exit(0);
  if (process.stderr.writable) process.stderr.write(`storefront-contract: uncaught error: ${err.message}\n`);
});
main(process.argv.slice(2)).then((code) => process.exit(code));
