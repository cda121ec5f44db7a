// What the validating proxy does with an exchange once the client has its answer: the response body decoded
// from the copy (the client got the bytes as they came), the redacted HAR entry written (the recorder's
// entry and writer), then the exchange judged (judge.ts). All of it on the proxy's thread, which holds the
// secrets and the tally, except, when the proxy says so, the judging of a large answer's body (its JSON
// parse alone is 1.5 ms for a 600 KB page), which the judge's thread does (judge-worker.ts) and hands back.
import { HarFile } from '../recorder/har-file.js';
import { decodedResponse, harEntry, type DecodedResponse, type ForwardedExchange } from '../recorder/proxy.js';
import type { RestCertificate } from '../../report/certificate.js';
import type { Judgement, Rule } from '../../rules/model.js';
import type { Exchange } from '../../rules/observations/rest.js';
import { judgeAnswer, TrafficJudge, trafficRules, type AnswerToJudge, type ObservedExchange, type Prepared, type TrafficVerdict, type Violation } from './judge.js';

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

/** Where an exchange's body is judged: here, on the judge's thread, or not at all (the judge is behind). */
export type Placement = 'here' | 'elsewhere' | { unjudged: string };

/** A large answer for the judge's thread: plain data and the body's bytes as they came. */
export interface Offloaded {
  id: number;
  answer: AnswerToJudge;
  bytes: Buffer;
  encoding?: string;
  maxBytes: number;
  strict: boolean;
}

/** What the judge's thread hands back for an offloaded answer. */
export type Judged = { id: number; judgements: Array<[string, Judgement]> } | { id: number; omitted: string };

export class ProxySession {
  private readonly judge: TrafficJudge;
  private readonly har?: HarFile;
  private readonly rules: readonly Rule<Exchange>[];
  private readonly waiting = new Map<number, { prepared: Prepared; started: Date }>();
  private nextId = 0;
  private upstreamFailures = 0;

  constructor(private readonly options: SessionOptions) {
    this.rules = options.rules ?? trafficRules;
    this.judge = new TrafficJudge({ source: 'proxy', storeId: options.storeId, strict: options.strict, rules: this.rules });
    this.har = options.harFile ? new HarFile(options.harFile, 'storefront-contract proxy') : undefined;
  }

  /**
   * One complete exchange: lines to print now, or an answer to judge elsewhere (`place` says where its body
   * is judged; with a HAR, the body is decoded here anyway, and so judged here).
   */
  observe(exchange: ForwardedExchange, place: (exchange: ForwardedExchange) => Placement = () => 'here'): { observed: Observed } | { offloaded: Offloaded } {
    const bytes = exchange.responseBody.bytes;
    const placement: Placement = this.har || !bytes ? 'here' : place(exchange);
    const decoded: DecodedResponse | undefined =
      typeof placement === 'object' ? { omitted: placement.unjudged, size: exchange.responseBody.size } : placement === 'here' ? decodedResponse(exchange.responseBody, exchange.responseHeaders, this.options.maxBodyBytes) : undefined;
    // The HAR entry first: it marks every secret of the exchange, which the judge then scrubs with.
    if (this.har) this.har.append(harEntry(exchange, this.judge.redactor, decoded));
    const request = exchange.requestBody;
    const observed: ObservedExchange = {
      started: exchange.started,
      method: exchange.method,
      url: exchange.url,
      requestHeaders: exchange.requestHeaders,
      ...(request.bytes && request.size ? { requestBody: request.bytes.toString('utf8') } : {}),
      status: exchange.status,
      responseHeaders: exchange.responseHeaders,
      ...(decoded ? (decoded.text !== undefined ? { responseText: decoded.text } : { bodyOmitted: decoded.omitted }) : {}),
      durationMs: exchange.timings.total,
      ...(exchange.step ? { step: exchange.step } : {}),
    };
    const step = this.judge.prepare(observed, this.har !== undefined);
    if ('verdict' in step) return { observed: this.lines(step.verdict, exchange.started) };
    if (placement === 'elsewhere' && bytes && !step.needsText) {
      const id = this.nextId++;
      this.waiting.set(id, { prepared: step.prepared, started: exchange.started });
      const encoding = exchange.responseHeaders.filter((h) => h.name.toLowerCase() === 'content-encoding').map((h) => h.value).join(', ');
      return { offloaded: { id, answer: step.prepared.answer, bytes, ...(encoding ? { encoding } : {}), maxBytes: this.options.maxBodyBytes, strict: this.options.strict ?? false } };
    }
    // Judged here: the body decoded if it was not (an answer that may carry secrets is read here first).
    const text = decoded ?? decodedResponse(exchange.responseBody, exchange.responseHeaders, this.options.maxBodyBytes);
    if (text.text === undefined) return { observed: this.lines(this.judge.omitted(step.prepared.head, text.omitted ?? 'the body could not be read'), exchange.started) };
    if (!decoded) this.judge.learnAnswer(text.text, observed.responseHeaders);
    return { observed: this.lines(this.judge.conclude(step.prepared, judgeAnswer(step.prepared.answer, text.text, this.rules, { strict: this.options.strict })), exchange.started) };
  }

  /** An offloaded answer's judgements, back from the judge's thread. */
  settle(judged: Judged): Observed {
    const waiting = this.waiting.get(judged.id);
    if (!waiting) return { violations: [], notes: [] };
    this.waiting.delete(judged.id);
    const verdict = 'omitted' in judged ? this.judge.omitted(waiting.prepared.head, judged.omitted) : this.judge.conclude(waiting.prepared, judged.judgements);
    return this.lines(verdict, waiting.started);
  }

  /** Offloaded answers never judged (the judge's thread stopped): advice, each. */
  abandon(reason: string): Observed {
    const out: Observed = { violations: [], notes: [] };
    for (const id of [...this.waiting.keys()]) {
      const lines = this.settle({ id, omitted: reason });
      out.violations.push(...lines.violations);
    }
    return out;
  }

  get offloadedWaiting(): number {
    return this.waiting.size;
  }

  /** A request the upstream did not answer (502) or that broke off: counted, never judged; its line scrubbed. */
  failed(note: string): Observed {
    this.upstreamFailures++;
    return { violations: [], notes: [this.judge.redactor.text(note)] };
  }

  summary(): Record<string, unknown> {
    return { upstream: this.options.upstream, ...this.judge.summary(), upstreamFailures: this.upstreamFailures };
  }

  certificate(): RestCertificate {
    return this.judge.certificate(this.options.upstream, {
      upstream: this.options.upstream,
      maxBodyBytes: this.options.maxBodyBytes,
      upstreamFailures: this.upstreamFailures,
      ...(this.options.harFile ? { har: this.options.harFile } : {}),
    });
  }

  close(): void {
    this.har?.close();
  }

  private lines(verdict: TrafficVerdict, at: Date): Observed {
    const notes = verdict.kind === 'no-operation' ? [`${at.toISOString()} ${verdict.method} ${verdict.path} ${verdict.status}: no operation of the contract has this path and method (not judged)`] : [];
    return { violations: this.judge.violations(verdict, at), notes };
  }
}
