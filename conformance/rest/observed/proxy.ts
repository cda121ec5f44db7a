// The validating proxy (`storefront-contract proxy`): the recorder's forwarding path (recorder/proxy.ts:
// streaming both ways, keep-alive, content codings untouched) with a judging session (session.ts) as its
// observer. Each exchange is handed over once the client has its whole answer, so a rule can neither delay
// nor change what the client receives. Small answers are judged on the proxy's thread (cheaper than a
// hand-over); answers of 64 KB and more on a thread of its own (judge-worker.ts), so parsing a large page
// does not hold up the next request; past a bounded queue to it, a large body passes through unjudged
// (advice), so memory stays bounded. A judge that throws is reported and the traffic goes on. Beside the
// forwarded API, its own routes under `/__proxy` (outside the contract, for callers on this machine only):
// `GET /__proxy/summary`, the live counts, and `POST /__proxy/stop`; on close, the drift report (the
// certifier's report.json, junit.xml, report.html) and, with a HAR file, the redacted HAR (the recorder's
// entries and writer).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { Worker } from 'node:worker_threads';
import type { RestCertificate } from '../../report/certificate.js';
import type { Rule } from '../../rules/model.js';
import type { Exchange } from '../../rules/observations/rest.js';
import { createForwardingProxy, type ForwardedExchange, type ForwardingProxy } from '../recorder/proxy.js';
import type { Violation } from './judge.js';
import { ProxySession, type Judged, type Observed, type Placement, type SessionOptions } from './session.js';
import { compileControlRoutes, matchControlRoute } from '../../../workbench/http/control-routes.js';
import { fail, MockHttpError } from '../../../workbench/http/errors.js';
import { writeError, writeReply } from '../../../workbench/adapters/node-http.js';
import { refuseForeignCaller } from '../../../workbench/http/local-origin.js';
import type { RequestHeaders } from '../../../workbench/engine/exchange.js';

/** The proxy's own routes live under this prefix; nothing under it is forwarded. */
export const PROXY_PREFIX = '/__proxy';
/** Response bodies over this many bytes are passed through and not judged (advice). */
export const DEFAULT_PROXY_MAX_BODY = 4 * 1024 * 1024;
/** Answers at least this large are judged on the judge's thread (smaller ones cost less than the hand-over). */
const OFFLOAD_BYTES = 64 * 1024;
/** Large answers handed to the judge's thread and not judged yet, beyond which the next pass through unjudged. */
const MAX_PENDING = 64;
/** Bytes of those answers, beyond which the next pass through unjudged. */
const MAX_PENDING_BYTES = 64 * 1024 * 1024;
/** How long closing waits for the judge's thread to finish what it was given. */
const CLOSE_WAIT_MS = 5000;

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
   * Judge every answer on the proxy's own thread, large ones too (no second thread): each exchange is judged
   * as soon as it is complete (tests read the findings right after the answer). Custom `rules` imply it.
   */
  inline?: boolean;
  /** The rules to judge with (default: every rule that needs no recording, judge.ts `trafficRules`). */
  rules?: readonly Rule<Exchange>[];
  /** Answers at least this many bytes (as they came) are judged on the second thread (default 64 KiB). */
  offloadBytes?: number;
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
  const judge = await createJudge({ ...sessionOptions, ...(options.rules ? { rules: options.rules } : {}) }, print, options.inline || options.rules ? undefined : (options.offloadBytes ?? OFFLOAD_BYTES));

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
      const foreign = !isLoopback(req.socket.remoteAddress) ? `the proxy's ${PROXY_PREFIX} routes answer only callers on this machine` : refuseForeignCaller(req.headers as RequestHeaders);
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

/** The session and, for large answers, the judge's thread. */
interface Judge {
  observe(exchange: ForwardedExchange): void;
  failed(note: string): void;
  summary(): Promise<Record<string, unknown>>;
  report(): Promise<RestCertificate>;
  close(): Promise<RestCertificate>;
}

/**
 * The session on this thread; with `offloadBytes`, answers of at least that many bytes are judged on a worker
 * thread behind a bounded queue (past it, a large body passes through unjudged, as advice).
 */
async function createJudge(options: SessionOptions, print: (o: Observed) => void, offloadBytes: number | undefined): Promise<Judge> {
  const session = new ProxySession(options);
  const worker = offloadBytes !== undefined ? startWorker() : undefined;
  let pendingBytes = 0;
  const sizes = new Map<number, number>();
  let stopped: string | undefined;
  let drained: (() => void) | undefined;
  worker?.on('message', (judged: Judged) => {
    pendingBytes -= sizes.get(judged.id) ?? 0;
    sizes.delete(judged.id);
    print(session.settle(judged));
    if (session.offloadedWaiting === 0) drained?.();
  });
  worker?.on('error', (error) => {
    stopped = error.message;
    print({ violations: [], notes: [`proxy: the judge's thread stopped (a bug of the proxy): ${error.message}; large answers are judged on the proxy's thread from now on`] });
    print(session.abandon(`the judge's thread stopped (${error.message})`));
    drained?.();
  });
  const place = (exchange: ForwardedExchange): Placement => {
    const size = exchange.responseBody.bytes?.length ?? 0;
    if (!worker || stopped || size < offloadBytes!) return 'here';
    if (session.offloadedWaiting >= MAX_PENDING || pendingBytes + size > MAX_PENDING_BYTES) return { unjudged: `the judge was ${session.offloadedWaiting} large answers behind` };
    return 'elsewhere';
  };
  return {
    observe(exchange) {
      const outcome = session.observe(exchange, place);
      if ('observed' in outcome) return print(outcome.observed);
      const { offloaded } = outcome;
      sizes.set(offloaded.id, offloaded.bytes.length);
      pendingBytes += offloaded.bytes.length;
      // The copy's bytes are a buffer of their own (recorder/proxy.ts Capture): moved to the judge's thread, not copied.
      const own = offloaded.bytes.byteOffset === 0 && offloaded.bytes.byteLength === offloaded.bytes.buffer.byteLength;
      worker!.postMessage(offloaded, own ? [offloaded.bytes.buffer as ArrayBuffer] : []);
    },
    failed: (note) => print(session.failed(note)),
    summary: async () => session.summary(),
    report: async () => session.certificate(),
    close: async () => {
      if (worker && !stopped && session.offloadedWaiting > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([new Promise<void>((resolve) => (drained = resolve)), new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
        clearTimeout(timer);
        if (session.offloadedWaiting > 0) print(session.abandon('the proxy stopped before its judge had judged it'));
      }
      await worker?.terminate();
      session.close();
      return session.certificate();
    },
  };
}

/** The judge's thread. In this repository the sources run through tsx (registered on that thread by a small entry). */
function startWorker(): Worker {
  const worker = new Worker(new URL(import.meta.url.endsWith('.ts') ? './judge-worker-source.mjs' : './judge-worker.js', import.meta.url));
  // It holds no state of its own: it must not keep a process alive that has nothing else to do.
  worker.unref();
  return worker;
}

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  return plain === '::1' || (isIP(plain) === 4 && plain.startsWith('127.'));
}
