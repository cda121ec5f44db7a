// The validating proxy (`storefront-contract proxy`): the recorder's forwarding path (recorder/proxy.ts:
// streaming both ways, keep-alive, content codings untouched) with a judging session (session.ts) as its
// observer. Each exchange is handed over once the client has its whole answer, so a rule can neither delay
// nor change what the client receives; by default the session runs on a worker thread (judge-worker.ts), so
// judging one exchange does not hold up the next request either. A judge that throws is reported and the
// traffic goes on. If the judge falls behind, exchanges are handed over without their bodies (advice: not
// judged) and past that only counted, so memory stays bounded. Beside the forwarded API, one route of its
// own, `GET /__proxy/summary` (outside the contract, for callers on this machine only), gives the live
// counts; on close, the drift report (the certifier's report.json, junit.xml, report.html) and, with a HAR
// file, the redacted HAR (the recorder's entries and writer).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { Worker } from 'node:worker_threads';
import type { RestCertificate } from '../../report/certificate.js';
import type { Rule } from '../../rules/model.js';
import type { Exchange } from '../../rules/observations/rest.js';
import { createForwardingProxy, type CapturedBody, type ForwardedExchange, type ForwardingProxy } from '../recorder/proxy.js';
import type { Violation } from './judge.js';
import type { FromJudge, ToJudge } from './judge-worker.js';
import { ProxySession, type Observed, type SessionOptions } from './session.js';
import { compileControlRoutes, matchControlRoute } from '../../../workbench/http/control-routes.js';
import { fail, MockHttpError, writeError, writeReply } from '../../../workbench/http/errors.js';
import { refuseForeignCaller } from '../../../workbench/http/local-origin.js';

/** The proxy's own routes live under this prefix; nothing under it is forwarded. */
export const PROXY_PREFIX = '/__proxy';
/** Response bodies over this many bytes are passed through and not judged (advice). */
export const DEFAULT_PROXY_MAX_BODY = 4 * 1024 * 1024;
/** Exchanges handed to the judge and not judged yet, beyond which the next ones go without their bodies. */
const MAX_PENDING = 256;
/** Bytes of bodies waiting for the judge, beyond which the next ones go without their bodies. */
const MAX_PENDING_BYTES = 64 * 1024 * 1024;
/** Beyond this many waiting, exchanges are only counted. */
const MAX_QUEUED = 4 * MAX_PENDING;

export interface ValidatingProxyOptions {
  upstream: string;
  port?: number;
  host?: string;
  /** Judge only this store's storefront traffic (others are forwarded, counted, not judged). */
  storeId?: string;
  strict?: boolean;
  /** Also write the traffic as redacted HAR 1.2 here, as it happens. */
  harFile?: string;
  maxBodyBytes?: number;
  /** Each finding as the exchange is judged (secrets already out of it). */
  onViolation?(violation: Violation): void;
  /** Exchanges not judged and the proxy's own troubles, one line each (no secret in them). */
  onNote?(line: string): void;
  /**
   * Judge on the proxy's own thread instead of a worker thread: each exchange is judged as soon as it is
   * complete (tests read the findings right after the answer). Custom `rules` imply it.
   */
  inline?: boolean;
  /** The rules to judge with (default: every rule that needs no recording, judge.ts `trafficRules`). */
  rules?: readonly Rule<Exchange>[];
  /** `POST /__proxy/stop` was called (from this machine): the caller stops the proxy as on SIGTERM. */
  onStop?(): void;
}

export interface ValidatingProxy {
  url: string;
  /** The live summary `GET /__proxy/summary` answers. */
  summary(): Promise<Record<string, unknown>>;
  /** The drift report of the traffic judged so far. */
  report(): Promise<RestCertificate>;
  /** Stops forwarding, waits for the judge to finish, closes the HAR; returns the drift report. */
  close(): Promise<RestCertificate>;
}

/** Where the session runs: the same calls on this thread or on the worker. */
interface Judge {
  observe(exchange: ForwardedExchange): void;
  failed(note: string): void;
  summary(): Promise<Record<string, unknown>>;
  report(): Promise<RestCertificate>;
  close(): Promise<RestCertificate>;
}

export async function createValidatingProxy(options: ValidatingProxyOptions): Promise<ValidatingProxy> {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_PROXY_MAX_BODY;
  const sessionOptions: SessionOptions = {
    upstream: options.upstream.replace(/\/+$/, ''),
    maxBodyBytes,
    ...(options.storeId !== undefined ? { storeId: options.storeId } : {}),
    ...(options.strict ? { strict: true } : {}),
    ...(options.harFile ? { harFile: options.harFile } : {}),
  };
  const print = ({ violations, notes }: Observed) => {
    for (const v of violations) options.onViolation?.(v);
    for (const n of notes) options.onNote?.(n);
  };
  const judge = options.inline || options.rules ? inlineJudge({ ...sessionOptions, rules: options.rules }, print) : await workerJudge(sessionOptions, print);

  interface ProxyRoute {
    method: 'GET' | 'POST';
    path: string;
    summary: string;
    handle(): Promise<{ status: number; body: unknown }>;
  }
  const routes = compileControlRoutes<ProxyRoute>([
    { method: 'GET', path: `${PROXY_PREFIX}/summary`, summary: 'the live summary: exchanges judged, per rule and operation, the latest violations', handle: async () => ({ status: 200, body: await judge.summary() }) },
    {
      method: 'POST',
      path: `${PROXY_PREFIX}/stop`,
      summary: 'stop the proxy as SIGTERM does (the drift report is written); for scripts whose signals do not reach it (npx in the background)',
      handle: async () => {
        if (!options.onStop) throw new MockHttpError(404, 'not_found', 'This proxy is stopped by whoever started it, not over HTTP.');
        setImmediate(() => options.onStop?.());
        return { status: 202, body: { stopping: true } };
      },
    },
  ]);

  function route(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
    if (url.pathname !== PROXY_PREFIX && !url.pathname.startsWith(`${PROXY_PREFIX}/`)) return false;
    res.setHeader('x-simulator', 'outside-contract');
    req.resume();
    const answer = async () => {
      // The summary tells what the traffic held (paths, operations): only this machine may read it.
      const foreign = !isLoopback(req.socket.remoteAddress) ? `the proxy's ${PROXY_PREFIX} routes answer only callers on this machine` : refuseForeignCaller(req);
      if (foreign) throw new MockHttpError(403, 'forbidden', foreign);
      const found = matchControlRoute(routes, url.pathname, (req.method ?? 'GET').toUpperCase());
      if (found.kind === 'none') throw new MockHttpError(404, 'not_found', `No proxy route at ${url.pathname.slice(0, 200)}; the proxy answers GET ${PROXY_PREFIX}/summary and POST ${PROXY_PREFIX}/stop and forwards everything else.`);
      if (found.kind === 'no-method') throw new MockHttpError(405, 'method_not_allowed', `${req.method} is not allowed here; use ${found.allowed.join(', ')}.`, [], { allow: found.allowed.join(', ') });
      writeReply(res, await found.route.handle());
    };
    answer().catch((error) => writeError(res, error instanceof MockHttpError ? error : fail(500, 'internal_error', `proxy: ${(error as Error).message}`)));
    return true;
  }

  const proxy: ForwardingProxy = await createForwardingProxy({
    upstream: options.upstream,
    name: 'proxy',
    port: options.port,
    host: options.host,
    maxBodyBytes,
    route,
    routePrefix: PROXY_PREFIX,
    onExchange: (exchange) => judge.observe(exchange),
    onFailure: ({ method, url, reason, answered502 }) =>
      judge.failed(`${new Date().toISOString()} ${method} ${new URL(url).pathname} ${answered502 ? '502' : '---'}: ${answered502 ? 'the upstream failed' : 'the exchange broke off'} (${reason}); not judged`),
    onObserverError: (error) => options.onNote?.(`proxy: judging an exchange failed (a bug of the proxy; the exchange was passed through): ${(error as Error)?.message ?? error}`),
  });

  return {
    url: proxy.url,
    summary: () => judge.summary(),
    report: () => judge.report(),
    close: async () => {
      await proxy.close();
      return judge.close();
    },
  };
}

/** The session on this thread: each exchange judged as it completes. */
function inlineJudge(options: SessionOptions, print: (o: Observed) => void): Judge {
  const session = new ProxySession(options);
  return {
    observe: (exchange) => print(session.observe(exchange)),
    failed: (note) => {
      session.failed();
      print({ violations: [], notes: [session.scrub(note)] });
    },
    summary: async () => session.summary(),
    report: async () => session.certificate(),
    close: async () => {
      session.close();
      return session.certificate();
    },
  };
}

/** The session on a worker thread, behind a bounded queue. */
async function workerJudge(options: SessionOptions, print: (o: Observed) => void): Promise<Judge> {
  // In this repository the sources run through tsx (registered on the worker's thread by a small entry);
  // the built package runs the compiled file.
  const file = new URL(import.meta.url.endsWith('.ts') ? './judge-worker-source.mjs' : './judge-worker.js', import.meta.url);
  const worker = new Worker(file, { workerData: options });
  const replies = new Map<number, (value: unknown) => void>();
  let nextId = 0;
  let pending = 0;
  let pendingBytes = 0;
  const sizes: number[] = [];
  let dropped = 0;
  let stopped: string | undefined;
  worker.on('message', (message: FromJudge) => {
    if (message.kind === 'reply') {
      replies.get(message.id)?.(message.value);
      replies.delete(message.id);
      return;
    }
    pending -= message.done;
    for (const size of sizes.splice(0, message.done)) pendingBytes -= size;
    print(message);
  });
  worker.on('error', (error) => {
    stopped = error.message;
    print({ violations: [], notes: [`proxy: the judge stopped (a bug of the proxy): ${error.message}; traffic is still forwarded, no longer judged`] });
    for (const resolve of replies.values()) resolve({ error: error.message });
  });
  const send = (message: ToJudge) => {
    if (!stopped) worker.postMessage(message);
  };
  const ask = <T>(kind: 'summary' | 'report' | 'close'): Promise<T> =>
    new Promise((resolve, reject) => {
      if (stopped) return reject(new Error(`the judge stopped: ${stopped}`));
      const id = nextId++;
      replies.set(id, (value) => ((value as { error?: string })?.error ? reject(new Error((value as { error: string }).error)) : resolve(value as T)));
      worker.postMessage({ kind, id } satisfies ToJudge);
    });
  return {
    observe(exchange) {
      if (stopped) return;
      if (pending >= MAX_QUEUED) {
        dropped++;
        return;
      }
      if (dropped) {
        send({ kind: 'dropped', n: dropped });
        dropped = 0;
      }
      const bytes = (exchange.responseBody.bytes?.length ?? 0) + (exchange.requestBody.bytes?.length ?? 0);
      const behind = pending >= MAX_PENDING || pendingBytes + bytes > MAX_PENDING_BYTES;
      const moved: ArrayBuffer[] = [];
      const message: ToJudge = {
        kind: 'exchange',
        exchange: { ...exchange, requestBody: handOver(exchange.requestBody, behind, moved), responseBody: handOver(exchange.responseBody, behind, moved) },
        ...(behind ? { unjudged: { reason: `the judge was ${pending} exchanges behind; the body was passed through unjudged` } } : {}),
      };
      pending++;
      sizes.push(behind ? 0 : bytes);
      pendingBytes += behind ? 0 : bytes;
      if (!stopped) worker.postMessage(message, moved);
    },
    failed: (note) => {
      pending++;
      sizes.push(0);
      send({ kind: 'failed', note });
    },
    summary: () => ask('summary'),
    report: () => ask<RestCertificate>('report'),
    close: async () => {
      if (dropped) send({ kind: 'dropped', n: dropped });
      try {
        return await ask<RestCertificate>('close');
      } finally {
        await worker.terminate();
      }
    },
  };
}

/**
 * A body as the worker gets it. Cloning a Buffer clones all the memory it is a view of (a small Buffer is a
 * view of Node's 8 KB pool), so small ones go as copies of their own bytes, and a large one, whose memory the
 * copy made for it alone, is moved (`moved`: the transfer list), not copied.
 */
function handOver(body: CapturedBody, withoutBytes: boolean, moved: ArrayBuffer[]): CapturedBody {
  const own = (b: Buffer): Uint8Array => {
    if (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.byteLength > 4096) {
      moved.push(b.buffer as ArrayBuffer);
      return b;
    }
    return new Uint8Array(b);
  };
  return { size: body.size, last: body.last, head: own(body.head) as Buffer, ...(body.bytes && !withoutBytes ? { bytes: own(body.bytes) as Buffer } : {}) };
}

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  return plain === '::1' || (isIP(plain) === 4 && plain.startsWith('127.'));
}
