// Receivers for the certifier's tests: a probe endpoint over any receiver's processed counts, and receivers
// built on the receiver kit's core with exactly one defect each, or one legitimate difference.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookHandler } from '../../src/webhooks/handler.js';
import { signPayload, SIGNATURE_PATTERN } from '../../src/webhooks/verify.js';

export type ReceiverFault =
  | 'none'
  | 'accepts-any-signature'
  | 'verifies-reserialized-json'
  | '500-on-malformed-signature'
  | 'processes-duplicates'
  | '410-on-bad-signature'
  // Not a fault: acknowledges correctly signed content it cannot use (bad JSON, unknown shape) with 200 and
  // drops it, as a receiver tolerant of what it does not know may (the contract requires the signature check).
  | 'acknowledges-signed-bad-content';

/** Rejections of correctly signed bytes: content, not authenticity. */
const CONTENT_REJECTIONS = new Set(['invalid-json', 'invalid-utf8', 'schema', 'envelope-mismatch']);

export interface Running {
  url: string;
  close(): Promise<void>;
}

async function listen(server: Server, path: string): Promise<Running> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Counts processed event_ids; `GET /processed` answers `{ processed: { id: n } }`. */
export class ProcessedCounter {
  readonly counts = new Map<string, number>();
  count = (event: unknown) => {
    const id = (event as { event_id: string }).event_id;
    this.counts.set(id, (this.counts.get(id) ?? 0) + 1);
  };
  serve(extra: () => Array<{ eventId: string }> = () => []): Promise<Running> {
    return listen(
      createServer((_req, res) => {
        const processed: Record<string, number> = Object.fromEntries(this.counts);
        for (const h of extra()) processed[h.eventId] = (processed[h.eventId] ?? 0) + 1;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ processed }));
      }),
      '/processed',
    );
  }
}

const LIMIT = 1024 * 1024;

function readLimited(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > LIMIT) {
        resolve('too-large');
        req.pause();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

/** A receiver on the kit's core with one defect, and a probe endpoint of what it processed. */
export async function startFaultyReceiver(secret: string, fault: ReceiverFault): Promise<{ app: Running; probe: Running }> {
  const counter = new ProcessedCounter();
  const core = createWebhookHandler({ secrets: [secret], onUnhandled: counter.count, dedupe: fault === 'processes-duplicates' ? false : undefined });
  const server = createServer(async (req, res) => {
    const raw = await readLimited(req);
    if (raw === 'too-large') {
      res.writeHead(413, { connection: 'close' }).end();
      return;
    }
    const headers = { ...req.headers };
    let body: Buffer = raw;
    const signature = headers['x-svc-signature'];
    if (fault === 'accepts-any-signature') headers['x-svc-signature'] = signPayload(raw, secret);
    if (fault === '500-on-malformed-signature' && !(typeof signature === 'string' && SIGNATURE_PATTERN.test(signature))) {
      res.writeHead(500).end('crashed');
      return;
    }
    if (fault === 'verifies-reserialized-json') {
      try {
        body = Buffer.from(JSON.stringify(JSON.parse(raw.toString('utf8'))));
      } catch {
        /* not JSON: verify what came */
      }
    }
    const reply = await core.handle({ rawBody: body, headers, method: req.method });
    if (fault === 'acknowledges-signed-bad-content' && CONTENT_REJECTIONS.has(reply.outcome)) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, status: 'dropped' }));
      return;
    }
    const status = fault === '410-on-bad-signature' && reply.status === 401 ? 410 : reply.status;
    res.writeHead(status, reply.headers).end(reply.body);
  });
  return { app: await listen(server, '/webhooks'), probe: await counter.serve() };
}
