// The certifier's subscriber endpoint: a node:http server on loopback that records every request the
// sender makes (exact bytes, every header occurrence, arrival and end times) and answers it as the current
// phase demands: 200, 500, 410, or no answer at all (to watch the sender's time-out).
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { CapturedDelivery } from '../../rules/observations/webhooks.js';

/** Bodies beyond this are cut off (and then fail signature checks): a sender has no reason to send more. */
const MAX_CAPTURE_BYTES = 16 * 1024 * 1024;

export type Answer = number | 'hold';

export interface Attribution {
  phase: CapturedDelivery['phase'];
  answer: Answer;
}

export interface SubscriberOptions {
  port?: number;
  host?: string;
  /** Decides, per arriving delivery, which phase it belongs to and what to answer. */
  attribute(delivery: Omit<CapturedDelivery, 'phase' | 'answer'>, eventId: string | undefined): Attribution;
}

export interface Subscriber {
  url: string;
  deliveries: CapturedDelivery[];
  /** Resolves true as soon as `done()` holds (checked on every arrival and end), false at the deadline. */
  waitFor(done: () => boolean, timeoutMs: number): Promise<boolean>;
  /** Ends every held request (used when a phase is over or the run stops). */
  releaseHeld(): void;
  close(): Promise<void>;
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size >= MAX_CAPTURE_BYTES) return;
      chunks.push(chunk);
      size += chunk.length;
    });
    // A sender that hangs up mid-body still made an attempt: judge what arrived.
    const finish = () => resolve(Buffer.concat(chunks, size).subarray(0, MAX_CAPTURE_BYTES));
    req.on('end', finish);
    req.on('error', finish);
    req.on('aborted', finish);
  });
}

function distinctHeaders(req: IncomingMessage): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i].toLowerCase();
    (out[name] ??= []).push(req.rawHeaders[i + 1]);
  }
  return out;
}

function eventIdOf(body: unknown, headers: Record<string, string[]>): string | undefined {
  const fromBody = body && typeof body === 'object' ? (body as { event_id?: unknown }).event_id : undefined;
  if (typeof fromBody === 'string') return fromBody;
  return headers['x-svc-event-id']?.[0];
}

export async function startSubscriber(options: SubscriberOptions): Promise<Subscriber> {
  const deliveries: CapturedDelivery[] = [];
  const changes = new EventEmitter();
  changes.setMaxListeners(0);
  const held = new Set<ServerResponse>();
  // Held requests we closed ourselves: their end is not the sender giving up.
  const releasedByUs = new WeakSet<ServerResponse>();
  const sockets = new Set<Socket>();

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const receivedAt = performance.now();
    const headers = distinctHeaders(req);
    const raw = await readAll(req);
    let body: unknown;
    let parseError: string | undefined;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch (e) {
      parseError = (e as Error).message.slice(0, 120);
    }
    const base = { seq: deliveries.length + 1, method: req.method ?? '', path: req.url ?? '', headers, raw, body, parseError, receivedAt };
    const { phase, answer } = options.attribute(base, eventIdOf(body, headers));
    const delivery: CapturedDelivery = { ...base, phase, answer };
    deliveries.push(delivery);

    res.on('close', () => {
      held.delete(res);
      delivery.endedAt ??= performance.now();
      if (!res.writableFinished && answer === 'hold' && !releasedByUs.has(res)) delivery.abandonedBySender = true;
      changes.emit('change');
    });
    if (answer === 'hold') {
      held.add(res);
    } else {
      const text = JSON.stringify({ certifier: 'storefront-contract webhooks', answer });
      res.writeHead(answer, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text, () => {
        delivery.endedAt = performance.now();
        changes.emit('change');
      });
    }
    changes.emit('change');
  });
  // A hold must outlast any sender time-out; node's default request timeouts would end it for us.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  server.keepAliveTimeout = 5_000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  const releaseHeld = () => {
    for (const res of held) {
      releasedByUs.add(res);
      res.destroy();
    }
    held.clear();
  };

  return {
    url: `http://${host}:${port}/webhooks/certifier`,
    deliveries,
    waitFor(done, timeoutMs) {
      if (done()) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const onChange = () => {
          if (!done()) return;
          cleanup();
          resolve(true);
        };
        const timer = setTimeout(() => {
          cleanup();
          resolve(done());
        }, Math.max(0, timeoutMs));
        const cleanup = () => {
          clearTimeout(timer);
          changes.off('change', onChange);
        };
        changes.on('change', onChange);
      });
    },
    releaseHeld,
    close: () =>
      new Promise<void>((resolve) => {
        releaseHeld();
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      }),
  };
}
