// A toolbox's calls as the agent tests make them: `ok` expects a result (and answers its structured content),
// `refused` expects the tool's error result (and answers its one line of text).
import { expect } from 'vitest';
import type { AgentToolbox } from '../../workbench/agents/index.js';

export function toolCalls(toolbox: () => AgentToolbox) {
  return {
    async ok(name: string, args: Record<string, unknown>): Promise<any> {
      const result = await toolbox().call(name, args);
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      return result.structuredContent;
    },
    async refused(name: string, args: Record<string, unknown>): Promise<string> {
      const result = await toolbox().call(name, args);
      expect(result.isError).toBe(true);
      return (result.content as Array<{ text: string }>)[0]!.text;
    },
  };
}
