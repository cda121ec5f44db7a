// Before replaying: is anything answering at the base URL? One line naming the fix when not.
import { request } from 'undici';
import { transportError } from './http.js';

export async function unreachableReason(baseUrl: string, timeoutMs = 5000): Promise<string | undefined> {
  try {
    const reply = await request(baseUrl, { method: 'GET', headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    await reply.body.dump();
    return undefined;
  } catch (error) {
    const code = (error as { code?: string; cause?: { code?: string } })?.cause?.code ?? (error as { code?: string })?.code;
    // The usual mistake: the server is not started, or the port is wrong.
    if (code === 'ECONNREFUSED') return `nothing listens at ${baseUrl}: start your server or fix --base-url`;
    return `cannot reach ${baseUrl} (${transportError(error)}); check --base-url and that the server is running`;
  }
}
