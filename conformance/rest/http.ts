// Sending one request to the target with undici (keep-alive pool sized to the concurrency) and
// reading the answer as the rules need it.
import { Agent, request } from 'undici';
import type { OutgoingRequest } from './bindings.js';
import type { LiveResponse } from './exchange.js';

export function createDispatcher(connections: number): Agent {
  return new Agent({ connections, keepAliveTimeout: 10_000, headersTimeout: 30_000, bodyTimeout: 30_000 });
}

export async function send(req: OutgoingRequest, dispatcher: Agent, parse: boolean): Promise<LiveResponse & { text: string }> {
  const started = performance.now();
  const reply = await request(req.url, { method: req.method as 'GET', headers: req.headers, body: req.body, dispatcher });
  const text = await reply.body.text();
  const durationMs = performance.now() - started;
  const ct = reply.headers['content-type'];
  const contentType = Array.isArray(ct) ? ct[0] : ct;
  let body: unknown;
  let parseError: string | undefined;
  if (parse) {
    try {
      body = text === '' ? undefined : JSON.parse(text);
      if (text === '') parseError = 'empty body';
    } catch (e) {
      parseError = (e as Error).message;
    }
  }
  return { status: reply.statusCode, contentType, body, parseError, durationMs, text };
}

/** A one-line reason for a transport failure (no stack). */
export function transportError(error: unknown): string {
  const e = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e?.cause?.code ?? e?.code;
  const message = e?.cause?.message ?? e?.message ?? String(error);
  return code ? `${code}: ${message}` : message;
}
