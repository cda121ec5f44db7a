// Fetch API: `(request: Request) => Promise<Response>`, for Hono (`c.req.raw`), Next.js route handlers,
// Deno, Bun, Cloudflare Workers and node:http behind a Request/Response bridge. The body stream is read
// with the size cap and cancelled once it passes it.
import type { WebhookHandler } from '../handler.js';
import { declaresTooLarge } from '../read-body.js';
import { reply, type WebhookReply } from '../responses.js';

export type FetchHandler = (request: Request) => Promise<Response>;

function toResponse(answer: WebhookReply): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

type ReadResult = { ok: true; body: Uint8Array } | { ok: false };

async function readLimited(request: Request, maxBytes: number): Promise<ReadResult> {
  if (!request.body) return { ok: true, body: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return { ok: false };
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, body };
}

export function toFetchHandler(core: WebhookHandler): FetchHandler {
  const tooLarge = () => {
    core.reportRejection({ ok: false, status: 413, reason: 'too-large', message: `body is larger than ${core.maxBodyBytes} bytes` });
    return toResponse(core.tooLarge());
  };
  return async (request) => {
    try {
      if (request.method.toUpperCase() !== 'POST') return toResponse(await core.handle({ rawBody: new Uint8Array(0), headers: request.headers, method: request.method }));
      if (declaresTooLarge(request.headers.get('content-length') ?? undefined, core.maxBodyBytes)) return tooLarge();
      const read = await readLimited(request, core.maxBodyBytes);
      if (!read.ok) return tooLarge();
      return toResponse(await core.handle({ rawBody: read.body, headers: request.headers, method: request.method }));
    } catch {
      // Reading can fail when the client disconnects; the answer then reaches no one, but never throw.
      return toResponse(reply(500, 'handler-error'));
    }
  };
}
