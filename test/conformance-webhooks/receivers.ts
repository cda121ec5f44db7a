// Receivers for the certifier's tests: a probe endpoint over any receiver's processed counts, and receivers
// built on the receiver kit's core with exactly one defect each, or one legitimate difference.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookHandler } from '../../src/webhooks/handler.js';
import { signPayload, SIGNATURE_PATTERN } from '../../src/webhooks/verify.js';
import type { DeliveryValidator } from '../../src/webhooks/validation.js';
import { validateWebhookDelivery, webhookEventNames } from '../../src/validators/webhooks.js';

export type ReceiverFault =
  | 'none'
  | 'accepts-any-signature'
  | 'verifies-reserialized-json'
  | '500-on-malformed-signature'
  | 'processes-duplicates'
  | '410-on-bad-signature'
  | 'refuses-product-events'
  | 'ignores-header-mismatch'
  | 'refuses-older-updates'
  | 'processes-test-deliveries'
  | 'accepts-oversized-bodies'
  | 'refuses-unknown-fields'
  | '410-on-unknown-event'
  // Not a fault: acknowledges correctly signed content it cannot use (bad JSON, unknown shape) with 200 and
  // drops it, as a receiver tolerant of what it does not know may (the contract requires the signature check).
  | 'acknowledges-signed-bad-content'
  // Not a fault: ignores fields it does not know (as the kit does) and acknowledges events its catalog
  // does not list instead of refusing them (the kit's choice is 400; both are allowed).
  | 'tolerant';

/** Keys of the envelope and its payload in this contract version (section 2.17). */
const ENVELOPE_KEYS = new Set(['event', 'event_id', 'delivery_id', 'timestamp', 'is_test', 'payload']);
const PAYLOAD_KEYS = new Set(['event', 'event_id', 'store_id', 'store_type', 'user_id', 'admin_user_id', 'timestamp', 'properties']);

/** The contract's validator, adapted to the fault: unknown events accepted, or unknown fields refused. */
function validatorFor(fault: ReceiverFault): DeliveryValidator | undefined {
  if (fault === 'tolerant' || fault === '410-on-unknown-event') {
    return (body) => {
      const event = (body as { event?: unknown })?.event;
      return typeof event === 'string' && !webhookEventNames.includes(event) ? { valid: true, event } : validateWebhookDelivery(body);
    };
  }
  if (fault === 'refuses-unknown-fields') {
    return (body) => {
      const b = body as Record<string, unknown> & { payload?: Record<string, unknown> };
      const unknown = [...Object.keys(b ?? {}).filter((k) => !ENVELOPE_KEYS.has(k)), ...Object.keys(b?.payload ?? {}).filter((k) => !PAYLOAD_KEYS.has(k))];
      return unknown.length ? { valid: false, errors: [{ path: '', message: `unknown fields ${unknown.join(', ')}` }] } : validateWebhookDelivery(body);
    };
  }
  return undefined;
}

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

function readLimited(req: IncomingMessage, limit = LIMIT): Promise<Buffer | 'too-large'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
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
  const core = createWebhookHandler({
    secrets: [secret],
    onUnhandled: counter.count,
    onTest: fault === 'processes-test-deliveries' ? counter.count : undefined,
    dedupe: fault === 'processes-duplicates' ? false : undefined,
    validate: validatorFor(fault),
    maxBodyBytes: fault === 'accepts-oversized-bodies' ? 64 * LIMIT : undefined,
  });
  /** Newest payload.timestamp seen per event name (refuses-older-updates). */
  const newest = new Map<string, string>();
  const server = createServer(async (req, res) => {
    const raw = await readLimited(req, fault === 'accepts-oversized-bodies' ? 64 * LIMIT : LIMIT);
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
    if (fault === 'ignores-header-mismatch') {
      // Trusts the body alone: the X-SVC-* headers are overwritten with the body's values before the check.
      try {
        const parsed = JSON.parse(raw.toString('utf8'));
        Object.assign(headers, { 'x-svc-event': parsed.event, 'x-svc-event-id': parsed.event_id, 'x-svc-delivery-id': parsed.delivery_id });
      } catch {
        /* not JSON: the kit refuses it anyway */
      }
    }
    const reply = await core.handle({ rawBody: body, headers, method: req.method });
    if (reply.status === 200 && (fault === 'refuses-product-events' || fault === 'refuses-older-updates' || fault === '410-on-unknown-event')) {
      const parsed = JSON.parse(raw.toString('utf8'));
      if (fault === 'refuses-product-events' && String(parsed.event).startsWith('product.')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: false, status: 'no handler' }));
        return;
      }
      if (fault === 'refuses-older-updates') {
        const last = newest.get(parsed.event);
        if (last && parsed.payload.timestamp < last) {
          res.writeHead(409, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: false, status: 'stale' }));
          return;
        }
        newest.set(parsed.event, parsed.payload.timestamp);
      }
      if (fault === '410-on-unknown-event' && !webhookEventNames.includes(parsed.event)) {
        res.writeHead(410, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: false, status: 'not subscribed to this event' }));
        return;
      }
    }
    if (fault === 'acknowledges-signed-bad-content' && CONTENT_REJECTIONS.has(reply.outcome)) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, status: 'dropped' }));
      return;
    }
    const status = fault === '410-on-bad-signature' && reply.status === 401 ? 410 : reply.status;
    res.writeHead(status, reply.headers).end(reply.body);
  });
  return { app: await listen(server, '/webhooks'), probe: await counter.serve() };
}
