// The tool names people and agents read beside tools/list, held to the tools themselves: the `mcp` help's
// list and the server's instructions (what an MCP client shows the model before any call).
import { describe, expect, it } from 'vitest';
import { agentToolNames } from '../../scripts/agent-tools.js';
import { MCP_HELP } from '../../workbench/agents/cli.js';
import { INSTRUCTIONS } from '../../workbench/agents/server.js';

const names = await agentToolNames();
const all = [...names.everywhere, ...names.clone];
/** Words of a text shaped like a tool name (`contract_search`, `sandbox_call`). */
const toolWords = (text: string) => [...new Set(text.match(/\b(?:contract|sandbox|workbench)_[a-z_]+\b|\bcertify\b/g) ?? [])];

describe('tool names outside tools/list', () => {
  it('mcp --help lists every tool, and the clone\'s as the clone\'s', () => {
    const listed = MCP_HELP.slice(MCP_HELP.indexOf('Tools:'), MCP_HELP.indexOf('A running workbench'));
    expect(toolWords(listed).sort()).toEqual([...all].sort());
    expect(listed).toMatch(new RegExp(`in a clone of\\s+the contract's repository, ${names.clone.join(' and ')}`));
  });

  it('the server\'s instructions name only tools that exist', () => {
    const named = toolWords(INSTRUCTIONS);
    expect(named.length).toBeGreaterThan(3);
    expect(named.filter((n) => !names.everywhere.includes(n))).toEqual([]);
  });
});
