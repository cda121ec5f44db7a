// What the validating proxy does with an exchange once the client has its answer, wherever that runs (a
// worker thread by default, judge-worker.ts; the proxy's own thread with `inline`): the response body decoded
// from the copy (the client got the bytes as they came), the redacted HAR entry written (the recorder's
// entry and writer), then the exchange judged (judge.ts). It returns the lines to print; it keeps the
// bounded tally the summary and the drift report are made of.
import { HarFile } from '../recorder/har-file.js';
import { decodedResponse, harEntry, type ForwardedExchange } from '../recorder/proxy.js';
import type { RestCertificate } from '../../report/certificate.js';
import type { Rule } from '../../rules/model.js';
import type { Exchange } from '../../rules/observations/rest.js';
import { TrafficJudge, type Violation } from './judge.js';

export interface SessionOptions {
  upstream: string;
  storeId?: string;
  strict?: boolean;
  harFile?: string;
  maxBodyBytes: number;
  rules?: readonly Rule<Exchange>[];
}

/** What observing one exchange gives the proxy to print. */
export interface Observed {
  violations: Violation[];
  notes: string[];
}

/** Why an exchange reaches the session without its bodies. */
export interface Unjudged {
  reason: string;
}

export class ProxySession {
  private readonly judge: TrafficJudge;
  private readonly har?: HarFile;
  private upstreamFailures = 0;
  private lost = 0;

  constructor(private readonly options: SessionOptions) {
    this.judge = new TrafficJudge({ source: 'proxy', storeId: options.storeId, strict: options.strict, rules: options.rules });
    this.har = options.harFile ? new HarFile(options.harFile, 'storefront-contract proxy') : undefined;
  }

  /** One complete exchange; `unjudged` when the proxy could not hand its bodies over (the judge was behind). */
  observe(exchange: ForwardedExchange, unjudged?: Unjudged): Observed {
    const decoded = unjudged ? { omitted: unjudged.reason, size: exchange.responseBody.size } : decodedResponse(exchange.responseBody, exchange.responseHeaders, this.options.maxBodyBytes);
    // The HAR entry first: it marks every secret of the exchange, which the judge then scrubs with.
    if (this.har) this.har.append(harEntry(exchange, this.judge.redactor, decoded));
    const body = exchange.requestBody;
    const verdict = this.judge.judge(
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
      this.har !== undefined,
    );
    const notes = verdict.kind === 'no-operation' ? [`${exchange.started.toISOString()} ${verdict.method} ${verdict.path} ${verdict.status}: no operation of the contract has this path and method (not judged)`] : [];
    return { violations: this.judge.violations(verdict, exchange.started), notes };
  }

  /** A request the upstream did not answer (502) or that broke off: counted, never judged. */
  failed(): void {
    this.upstreamFailures++;
  }

  /** Exchanges the proxy could not hand over at all (the judge was far behind): counted. */
  dropped(n: number): void {
    this.lost += n;
  }

  /** Secrets seen so far replaced by their markers (the proxy's own lines go through here). */
  scrub(text: string): string {
    return this.judge.redactor.text(text);
  }

  summary(): Record<string, unknown> {
    return { upstream: this.options.upstream, ...this.judge.summary(), upstreamFailures: this.upstreamFailures, droppedUnjudged: this.lost };
  }

  certificate(): RestCertificate {
    return this.judge.certificate(this.options.upstream, {
      upstream: this.options.upstream,
      maxBodyBytes: this.options.maxBodyBytes,
      upstreamFailures: this.upstreamFailures,
      droppedUnjudged: this.lost,
      ...(this.options.harFile ? { har: this.options.harFile } : {}),
    });
  }

  close(): void {
    this.har?.close();
  }
}
