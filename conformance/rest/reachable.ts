// Before replaying: is anything answering at the base URL? One line when not.
import { request } from 'undici';
import { transportError } from './http.js';

export async function unreachableReason(baseUrl: string, timeoutMs = 5000): Promise<string | undefined> {
  try {
    const reply = await request(baseUrl, { method: 'GET', headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    await reply.body.dump();
    return undefined;
  } catch (error) {
    return transportError(error);
  }
}
