// What the clone's bin runs: the tools' CLI from the sources, except `changelog`, the one command only a
// clone has. It reads the git history of spec/ and runs the diff engines of the dev dependencies
// (scripts/changelog/), which the installed bin has neither of; there, the same name says where to go.
if (process.argv[2] === 'changelog') {
  const { runChangelog } = await import('../changelog/cli.js');
  const io = { out: (text: string) => process.stdout.write(text), err: (line: string) => process.stderr.write(`storefront-contract ${line}\n`) };
  process.exitCode = await runChangelog(process.argv.slice(3), io);
} else {
  await import('../../cli/storefront-contract.js');
}
