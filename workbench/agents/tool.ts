// What an agent tool is: a name, a description, JSON Schemas for its input and its result (declared to the
// client in tools/list; the client checks every result against the output schema), and `run`. The MCP
// server (server.ts) lists and calls them; nothing here knows the transport.
import type { JsonObject } from '../contract/model.js';

export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface AgentTool {
  name: string;
  title: string;
  /** What it does and when to use it, for the agent choosing a tool: a few sentences. */
  description: string;
  inputSchema: JsonObject;
  outputSchema: JsonObject;
  annotations?: ToolAnnotations;
  /** The result (checked against `outputSchema` by the server before it is sent); a ToolError for a refusal the agent can act on. */
  run(input: any, signal?: AbortSignal): Promise<Record<string, unknown>>;
}

/** A refusal or failure told to the agent as the tool's error result (`isError`), one line with the way out. */
export class ToolError extends Error {}

/** The largest result any tool answers, in bytes of JSON: what a bounded context can take. */
export const MAX_RESULT_BYTES = 16_384;

/** An object schema with these properties, all listed ones required unless named in `optional`. */
export function objectSchema(properties: Record<string, JsonObject>, optional: readonly string[] = []): JsonObject {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    additionalProperties: false,
  };
}

/**
 * At most `max` runs of a long tool at once (a delivery wait, a certification): past it the call is refused
 * with a line saying so, instead of queueing work a client may never read.
 */
export class Slots {
  private running = 0;

  constructor(
    private readonly max: number,
    private readonly what: string,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.max) throw new ToolError(`${this.max} ${this.what} are running already: wait for one to end, then call again`);
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
    }
  }
}
