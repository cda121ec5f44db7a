// The validating proxy (`storefront-contract proxy`): the recorder's forwarding path (recorder/proxy.ts:
// streaming both ways, keep-alive, content codings untouched) with the traffic judge (judge.ts) as its
// observer. Each exchange is judged once the client has its whole answer, so a rule can neither delay nor
// change what the client receives; a judge that throws is reported and the traffic goes on. Beside the
// forwarded API, one route of its own, `GET /__proxy/summary` (outside the contract, answered to callers on
// this machine only), gives the live counts; on close the drift report (the certifier's report.json,
// junit.xml, report.html) and, with a HAR file, the redacted HAR (the recorder's entries and writer).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import type { RestCertificate } from '../../report/certificate.js';
import type { Rule } from '../../rules/model.js';
import type { Exchange } from '../../rules/observations/rest.js';
import { writeReports } from '../../report/write.js';
import { HarFile } from '../recorder/har-file.js';
import { createForwardingProxy, decodedResponse, harEntry, type ForwardedExchange, type ForwardingProxy } from '../recorder/proxy.js';
import { TrafficJudge, type TrafficVerdict, type Violation } from './judge.js';
import { compileControlRoutes, matchControlRoute } from '../../../workbench/http/control-routes.js';
import { fail, MockHttpError, writeError, writeReply } from '../../../workbench/http/errors.js';
import { refuseForeignCaller } from '../../../workbench/http/local-origin.js';

/** The proxy's own routes live under this prefix; nothing under it is forwarded. */
export const PROXY_PREFIX = '/__proxy';
/** Response bodies over this many bytes are passed through and not judged (advice). */
export const DEFAULT_PROXY_MAX_BODY = 4 * 1024 * 1024;

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
  /** The rules to judge with (default: every rule that needs no recording, judge.ts `trafficRules`). */
  rules?: readonly Rule<Exchange>[];
}

export interface ValidatingProxy {
  url: string;
  /** The live summary `GET /__proxy/summary` answers. */
  summary(): Record<string, unknown>;
  /** The drift report of the traffic so far. */
  certificate(): RestCertificate;
  /** Stops forwarding, closes the HAR; then `writeReports(certificate(), dir)`. */
  close(): Promise<void>;
}

interface ProxyRoute {
  method: 'GET';
  path: string;
  summary: string;
  handle(): { status: number; body: unknown };
}

export async function createValidatingProxy(options: ValidatingProxyOptions): Promise<ValidatingProxy> {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_PROXY_MAX_BODY;
  const judge = new TrafficJudge({ source: 'proxy', storeId: options.storeId, strict: options.strict, rules: options.rules });
  const har = options.harFile ? new HarFile(options.harFile, 'storefront-contract proxy') : undefined;
  const upstream = options.upstream.replace(/\/+$/, '');
  const note = (line: string) => options.onNote?.(judge.redactor.text(line));
  let failures = 0;

  const routes = compileControlRoutes<ProxyRoute>([
    {
      method: 'GET',
      path: `${PROXY_PREFIX}/summary`,
      summary: 'the live summary: exchanges judged, per rule and operation, the latest violations',
      handle: () => ({ status: 200, body: { upstream, ...judge.summary(), upstreamFailures: failures } }),
    },
  ]);

  function route(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
    if (url.pathname !== PROXY_PREFIX && !url.pathname.startsWith(`${PROXY_PREFIX}/`)) return false;
    res.setHeader('x-simulator', 'outside-contract');
    try {
      // The summary tells what the traffic held (paths, operations): only this machine may read it.
      const foreign = !isLoopback(req.socket.remoteAddress) ? `the proxy's ${PROXY_PREFIX} routes answer only callers on this machine` : refuseForeignCaller(req);
      if (foreign) throw new MockHttpError(403, 'forbidden', foreign);
      const found = matchControlRoute(routes, url.pathname, (req.method ?? 'GET').toUpperCase());
      if (found.kind === 'none') throw new MockHttpError(404, 'not_found', `No proxy route at ${url.pathname.slice(0, 200)}; the proxy answers GET ${PROXY_PREFIX}/summary and forwards everything else.`);
      if (found.kind === 'no-method') throw new MockHttpError(405, 'method_not_allowed', `${req.method} is not allowed here; use ${found.allowed.join(', ')}.`, [], { allow: found.allowed.join(', ') });
      writeReply(res, found.route.handle());
    } catch (error) {
      writeError(res, error instanceof MockHttpError ? error : fail(500, 'internal_error', `proxy: ${(error as Error).message}`));
    }
    req.resume();
    return true;
  }

  function observe(exchange: ForwardedExchange): void {
    const decoded = decodedResponse(exchange.responseBody, exchange.responseHeaders, maxBodyBytes);
    // The HAR entry first: it marks every secret of the exchange, which the judge then scrubs with.
    if (har) har.append(harEntry(exchange, judge.redactor, decoded));
    const body = exchange.requestBody;
    const verdict = judge.judge(
      {
        started: exchange.started,
        method: exchange.method,
        url: exchange.url,
        requestHeaders: exchange.requestHeaders,
        ...(body.bytes && body.size ? { requestBody: body.bytes.toString('utf8') } : {}),
        status: exchange.status,
        responseHeaders: exchange.responseHeaders,
        ...(decoded.text !== undefined ? { responseText: decoded.text } : { bodyOmitted: decoded.omitted }),
        durationMs: exchange.timings.total,
        ...(exchange.step ? { step: exchange.step } : {}),
      },
      har !== undefined,
    );
    report(verdict, exchange.started);
  }

  function report(verdict: TrafficVerdict, at: Date): void {
    if (verdict.kind === 'no-operation') note(`${at.toISOString()} ${verdict.method} ${verdict.path} ${verdict.status}: no operation of the contract has this path and method (not judged)`);
    for (const v of judge.violations(verdict, at)) options.onViolation?.(v);
  }

  const proxy: ForwardingProxy = await createForwardingProxy({
    upstream: options.upstream,
    name: 'proxy',
    port: options.port,
    host: options.host,
    maxBodyBytes,
    route,
    onExchange: observe,
    onFailure: ({ method, url, reason, answered502 }) => {
      failures++;
      note(`${new Date().toISOString()} ${method} ${new URL(url).pathname} ${answered502 ? '502' : '---'}: ${answered502 ? 'the upstream failed' : 'the exchange broke off'} (${reason}); not judged`);
    },
    onObserverError: (error) => note(`proxy: judging an exchange failed (a bug of the proxy; the exchange was passed through): ${(error as Error)?.message ?? error}`),
  });

  return {
    url: proxy.url,
    summary: () => ({ upstream, ...judge.summary(), upstreamFailures: failures }),
    certificate: () => judge.certificate(upstream, { upstream, maxBodyBytes, upstreamFailures: failures, ...(options.harFile ? { har: options.harFile } : {}) }),
    close: async () => {
      await proxy.close();
      har?.close();
    },
  };
}

/** Writes the drift report of a closed proxy; the files written. */
export function writeDriftReport(proxy: ValidatingProxy, dir: string): string[] {
  return writeReports(proxy.certificate(), dir);
}

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  return plain === '::1' || (isIP(plain) === 4 && plain.startsWith('127.'));
}
