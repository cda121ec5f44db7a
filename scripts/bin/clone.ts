// What the clone's bin (and `npm start`) runs: the tools' CLI from the sources, with the agent tools only a
// clone has (scripts/agent-tools.ts), except `changelog`, the one command only a clone has. Both read the
// git history of spec/ and run the diff engines of the dev dependencies (scripts/changelog/, scripts/diff/),
// which the installed bin has neither of; there, `changelog` says where to go and the tools are not listed.
if (process.argv[2] === 'changelog') {
  const { runChangelog } = await import('../changelog/cli.js');
  const io = { out: (text: string) => process.stdout.write(text), err: (line: string) => process.stderr.write(`storefront-contract ${line}\n`) };
  process.exitCode = await runChangelog(process.argv.slice(3), io);
} else {
  // The agent tools only a clone has (contract_diff, contract_lint), for `mcp` and the /mcp of `mock`.
  const [{ registerAgentTools }, { repositoryTools }] = await Promise.all([import('../../cli/main.js'), import('../agent-tools.js')]);
  registerAgentTools(repositoryTools);
  await import('../../cli/storefront-contract.js');
}
