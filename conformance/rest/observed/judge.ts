// Judging traffic nobody recorded or generated: exchanges the validating proxy forwarded (observed/proxy.ts)
// or that a HAR file or an NDJSON access log holds (`certify --from-har`, `--from-log`; observed/files.ts).
// Each is matched to its storefront operation by the tools' one matcher, turned into the observation every
// REST rule receives (an `Exchange` marked `observed`, its `step.recorded` repeating the live answer) and
// judged by the one judge of the exchange loop (rest/exchange.ts `judgeExchange`) with the rules that need
// no recording and no generated case (`appliesTo: 'all'`). Secrets are learnt from the traffic as it goes
// (the recorder's Redactor: the same markers as a HAR of it) and never reach a line or a report.
// Everything kept is bounded: per-rule findings, the exchanges listed in the report, the recent violations.
import type { HarNameValue } from '../har.js';
import { buildRestCertificate, countExchange, failed, type StatusCounts } from '../certificate.js';
import { judgeRules, scrubJudgements, type ExchangeResult } from '../exchange.js';
import { storefrontOperationList } from '../load.js';
import { SECRET_BODY_KEYS, Redactor } from '../recorder/redact.js';
import type { RestCertificate } from '../../report/certificate.js';
import type { Judgement, Rule } from '../../rules/model.js';
import { judgesTraffic, type Exchange, type LiveResponse, type OutgoingRequest } from '../../rules/observations/rest.js';
import { restRules } from '../../rules/rest/index.js';
import { RuleTally, type Policy } from '../../rules/run.js';
import { responseSchemaOf } from '../../rules/response-schemas.js';
import { matchApiPath } from '../../../workbench/contract/match.js';

/** One exchange as traffic shows it: what the client sent and what it got, the body decoded. */
export interface ObservedExchange {
  /** When it started, if the source says. */
  started?: Date;
  method: string;
  /** Absolute URL (the upstream's, for the proxy). */
  url: string;
  requestHeaders: HarNameValue[];
  requestBody?: string;
  status: number;
  responseHeaders: HarNameValue[];
  /** The response body, content codings undone; undefined when `bodyOmitted` says why it is not here. */
  responseText?: string;
  bodyOmitted?: string;
  durationMs: number;
  /** The client's step name (`x-conformance-step`, a HAR entry's comment). */
  step?: string;
}

export type TrafficSource = 'proxy' | 'har' | 'log';

/** The rules that judge an exchange against the contract alone: what observed traffic is judged by. */
export const trafficRules: readonly Rule<Exchange>[] = restRules.filter(judgesTraffic);

/** Findings outside the rules: an exchange whose body could not be judged is advice, never a failure. */
export const BODY_NOT_JUDGED = 'body-not-judged';

export interface TrafficJudgeOptions {
  source: TrafficSource;
  /** The HAR or log file judged (for reports). */
  file?: string;
  /** Judge only this store's storefront traffic; others are passed over (counted). */
  storeId?: string;
  strict?: boolean;
  rules?: readonly Rule<Exchange>[];
  /** Shared with whoever writes the traffic down (the proxy's HAR), so both use the same markers. */
  redactor?: Redactor;
  /** Exchanges listed in the report: the first ones with findings, and the first ones without. */
  keep?: { withFindings: number; passing: number };
  /** Findings listed per rule in the report (all are counted). */
  maxFindingsPerRule?: number;
}

/** What became of one exchange. */
export type TrafficVerdict =
  | { kind: 'judged' | 'body-not-judged'; result: ExchangeResult }
  | { kind: 'no-operation'; index: number; method: string; path: string; status: number }
  | { kind: 'outside-storefront' | 'other-store'; index: number };

type ResultHead = Omit<ExchangeResult, 'findings' | 'judged' | 'error' | 'generated'>;

/** What judging an answer needs besides its body: plain data, so another thread can judge it (judge-worker.ts). */
export interface AnswerToJudge {
  operationId: string;
  id: string;
  name: string;
  index: number;
  request: OutgoingRequest;
  status: number;
  contentType?: string;
  durationMs: number;
}

/** An exchange between the two halves of `TrafficJudge.judge`. */
export interface Prepared {
  head: ResultHead;
  answer: AnswerToJudge;
}

const operationsById = new Map<string, (typeof storefrontOperationList)[number]>(storefrontOperationList.map((op) => [op.operationId, op]));

/**
 * The rules' judgements of one answer, unscrubbed: the observation every REST rule receives (marked
 * `observed`: no recording) built from the answer and its body text, judged by the exchange loop's
 * `judgeRules`. Pure: the proxy's judge thread runs it for a large body, `TrafficJudge.judge` for the others.
 */
export function judgeAnswer(answer: AnswerToJudge, text: string, rules: readonly Rule<Exchange>[], policy: Policy): Array<[string, Judgement]> {
  const operation = operationsById.get(answer.operationId);
  if (!operation) throw new Error(`judgeAnswer: ${answer.operationId} is not a storefront operation`);
  const live: LiveResponse = { status: answer.status, contentType: answer.contentType, body: undefined, durationMs: answer.durationMs };
  try {
    live.body = text === '' ? undefined : JSON.parse(text);
    if (text === '') live.parseError = 'empty body';
  } catch (e) {
    live.parseError = (e as Error).message;
  }
  const observation: Exchange = {
    step: { id: answer.id, scenario: 'traffic', name: answer.name, index: answer.index, operation, recorded: { status: answer.status, contentType: answer.contentType, body: undefined } },
    request: answer.request,
    live,
    values: new Map(),
    consistency: [],
    observed: true,
  };
  return judgeRules(observation, rules, policy);
}

/** A violation as the proxy prints it and the live summary lists it. */
export interface Violation {
  time: string;
  method: string;
  path: string;
  operationId: string;
  status: number;
  severity: 'error' | 'warning';
  rule: string;
  message: string;
}

const RECENT = 20;
/** Store ids a report names (multi-tenant traffic could name any number). */
const MAX_STORES_NAMED = 20;
/** A JSON member named as a secret (`"access_token":`), the only place the judge looks for new secrets in a body. */
const SECRET_KEY_RE = new RegExp(`"(?:${[...SECRET_BODY_KEYS].join('|')})"\\s*:`);

export class TrafficJudge {
  readonly redactor: Redactor;
  private readonly rules: readonly Rule<Exchange>[];
  private readonly policy: Policy;
  private readonly tally: RuleTally;
  private readonly counts: StatusCounts = new Map();
  private readonly kept: ExchangeResult[] = [];
  private readonly keep: { withFindings: number; passing: number };
  private keptWithFindings = 0;
  private keptPassing = 0;
  private readonly perRule = new Map<string, { errors: number; warnings: number }>();
  private readonly stores = new Set<string>();
  private readonly recentViolations: Violation[] = [];
  private seen = 0;
  private judged = 0;
  private failing = 0;
  private warned = 0;
  private notListed = 0;
  private readonly notJudged = { outsideStorefront: 0, otherStore: 0, noOperation: 0, bodyNotJudged: 0 };
  readonly startedAt = new Date();

  constructor(private readonly options: TrafficJudgeOptions) {
    this.redactor = options.redactor ?? new Redactor();
    this.rules = options.rules ?? trafficRules;
    this.policy = { strict: options.strict };
    this.tally = new RuleTally(this.rules as readonly Rule<never>[], this.policy, options.maxFindingsPerRule ?? 200);
    this.keep = options.keep ?? { withFindings: 1000, passing: 1000 };
    for (const rule of this.rules) this.perRule.set(rule.id, { errors: 0, warnings: 0 });
  }

  /**
   * Judges one exchange. `learned`: the caller has already passed it through the redactor (written it to a
   * HAR), so its secrets are known; otherwise they are learnt here first.
   */
  judge(exchange: ObservedExchange, learned = false): TrafficVerdict {
    const step = this.prepare(exchange, learned);
    if ('verdict' in step) return step.verdict;
    return this.conclude(step.prepared, judgeAnswer(step.prepared.answer, exchange.responseText ?? '', this.rules, this.policy));
  }

  /**
   * The first half of `judge`, on the thread that holds the secrets: the operation matched, the secrets
   * learnt, the exchange counted; a verdict when there is nothing to judge, else what `judgeAnswer` needs
   * (the answer's body is the exchange's `responseText`; without one and without `bodyOmitted`, the caller
   * judges a body it holds as bytes elsewhere, unless `needsText`: the answer may carry secrets to learn).
   */
  prepare(exchange: ObservedExchange, learned = false): { verdict: TrafficVerdict } | { prepared: Prepared; needsText: boolean } {
    const index = this.seen++;
    const url = new URL(exchange.url);
    const found = matchApiPath((api) => (api === 'storefront' ? storefrontOperationList : undefined), exchange.method, url.pathname);
    const operationId = found.kind === 'match' ? found.operation.operationId : undefined;
    if (!learned) this.learn(exchange, operationId);
    if (found.kind === 'no-api') {
      this.notJudged.outsideStorefront++;
      return { verdict: { kind: 'outside-storefront', index } };
    }
    const store = safeDecode(found.rawStoreId);
    if (this.options.storeId !== undefined && store !== this.options.storeId) {
      this.notJudged.otherStore++;
      return { verdict: { kind: 'other-store', index } };
    }
    const path = this.scrub(innerPath(url));
    if (found.kind !== 'match') {
      this.notJudged.noOperation++;
      return { verdict: { kind: 'no-operation', index, method: exchange.method, path, status: exchange.status } };
    }
    if (this.stores.size < MAX_STORES_NAMED) this.stores.add(store);
    const head: ResultHead = {
      id: `traffic/#${index}`,
      scenario: 'traffic',
      step: exchange.step ? `#${index} ${this.scrub(exchange.step)}` : `#${index}`,
      index,
      operationId: found.operation.operationId,
      method: exchange.method,
      path,
      recordedStatus: exchange.status,
      status: exchange.status,
      durationMs: Math.round(exchange.durationMs * 10) / 10,
      observed: true,
    };
    if (exchange.responseText === undefined && exchange.bodyOmitted !== undefined && !emptyAnswer(exchange)) return { verdict: this.omitted(head, exchange.bodyOmitted) };
    const headers: Record<string, string> = {};
    for (const h of exchange.requestHeaders) {
      const lower = h.name.toLowerCase();
      headers[lower] = headers[lower] ? `${headers[lower]}, ${h.value}` : h.value;
    }
    const answer: AnswerToJudge = {
      operationId: found.operation.operationId,
      id: head.id,
      name: head.step,
      index,
      request: { method: exchange.method, url: exchange.url, headers, ...(exchange.requestBody !== undefined ? { body: exchange.requestBody } : {}) },
      status: exchange.status,
      contentType: headerOf(exchange.responseHeaders, 'content-type'),
      durationMs: exchange.durationMs,
    };
    return { prepared: { head, answer }, needsText: !learned && namesSecrets(found.operation.operationId, exchange.status) !== false };
  }

  /** The second half of `judge`: the rules' judgements (from `judgeAnswer`, wherever it ran) scrubbed and kept. */
  conclude({ head }: Prepared, raw: ReadonlyArray<[string, Judgement]>): TrafficVerdict {
    const { findings, judgements } = scrubJudgements(raw, (s) => this.scrub(s));
    const result: ExchangeResult = { ...head, judged: true, findings };
    for (const [ruleId, judgement] of judgements) this.tally.add(ruleId, judgement, result.id);
    this.judged++;
    if (failed(result)) this.failing++;
    else if (findings.length) this.warned++;
    for (const f of findings) {
      const counts = this.perRule.get(f.rule);
      if (counts) counts[f.severity === 'error' ? 'errors' : 'warnings']++;
    }
    countExchange(this.counts, result);
    this.listed(result);
    return { kind: 'judged', result };
  }

  /** Learns the secrets of an answer read after `prepare` (it was to be judged elsewhere, and may carry some). */
  learnAnswer(text: string, responseHeaders: HarNameValue[]): void {
    if (SECRET_KEY_RE.test(text)) this.redactor.body(text, headerOf(responseHeaders, 'content-type') ?? 'application/json');
  }

  /** An exchange whose body could not be judged: advice, counted, listed. */
  omitted(head: ResultHead, reason: string): TrafficVerdict {
    this.notJudged.bodyNotJudged++;
    const result: ExchangeResult = { ...head, judged: false, findings: [{ rule: BODY_NOT_JUDGED, subject: 'body', severity: 'warning', message: `${this.scrub(reason)}: passed through unjudged` }] };
    this.listed(result);
    return { kind: 'body-not-judged', result };
  }

  /** The violations of a verdict, one per finding, stamped with `at` (the exchange's start, `-` when unknown). */
  violations(verdict: TrafficVerdict, at: Date | undefined): Violation[] {
    if (verdict.kind !== 'judged' && verdict.kind !== 'body-not-judged') return [];
    const r = verdict.result;
    const out = r.findings.map((f) => ({ time: at?.toISOString() ?? '-', method: r.method, path: r.path, operationId: r.operationId, status: r.status ?? 0, severity: f.severity, rule: f.rule, message: f.message }));
    for (const v of out) {
      this.recentViolations.push(v);
      if (this.recentViolations.length > RECENT) this.recentViolations.shift();
    }
    return out;
  }

  /** The live summary (`GET /__proxy/summary`): counts and the latest violations; bounded whatever the traffic. */
  summary(): Record<string, unknown> {
    const operations: Record<string, Record<string, { exchanges: number; failed: number }>> = {};
    for (const [op, byStatus] of this.counts) operations[op] = Object.fromEntries([...byStatus].map(([status, c]) => [status, { exchanges: c.exchanges, failed: c.failed }]));
    return {
      since: this.startedAt.toISOString(),
      verdict: this.judged > 0 && this.failing === 0 ? 'no-violations' : this.failing ? 'violations' : 'nothing-judged',
      strict: this.options.strict ?? false,
      exchanges: { seen: this.seen, judged: this.judged, passed: this.judged - this.failing, failed: this.failing, warned: this.warned, notJudged: { ...this.notJudged } },
      rules: Object.fromEntries(this.perRule),
      operations,
      recent: [...this.recentViolations],
    };
  }

  /** The drift report: the certifier's certificate, over every exchange judged (those listed are bounded). */
  certificate(target: string, settings: RestCertificate['settings'] = {}): RestCertificate {
    const results = [...this.kept].sort((a, b) => a.index - b.index);
    const rules = this.tally.results();
    const stores = [...this.stores].sort();
    const notes = [
      `Judged from observed traffic (${this.options.source === 'proxy' ? 'the validating proxy' : `${this.options.file ?? 'a file'}`}): only the rules that need neither a recording nor a generated case ran (${this.rules.map((r) => r.id).join(', ')}); auth-enforced judges only requests that carried no credentials at all. Exchanges not judged: ${this.notJudged.outsideStorefront} outside the storefront API, ${this.notJudged.otherStore} of another store, ${this.notJudged.noOperation} on a path or method the contract does not have, ${this.notJudged.bodyNotJudged} whose body could not be judged.`,
      ...(this.notListed ? [`${this.notListed} judged exchanges are counted but not listed (a report lists the first ${this.keep.withFindings} with findings and the first ${this.keep.passing} without).`] : []),
    ];
    return buildRestCertificate({
      run: { results, rules, startedAt: this.startedAt, durationMs: Date.now() - this.startedAt.getTime() },
      recorded: [],
      scenarios: [],
      target: { url: target, storeId: this.options.storeId ?? (stores.join(',') || '(none)'), embeddedMock: false },
      concurrency: 1,
      strict: this.options.strict ?? false,
      observed: {
        counts: this.counts,
        exchangeSummary: { exchanges: this.seen, judged: this.judged, passed: this.judged - this.failing, failed: this.failing, unsent: 0 },
        traffic: { source: this.options.source, ...(this.options.file ? { file: this.options.file } : {}), notJudged: { ...this.notJudged }, notListed: this.notListed },
        settings: { source: this.options.source, ...(this.options.file ? { file: this.options.file } : {}), storeId: this.options.storeId ?? null, ...settings, strict: this.options.strict ?? false },
        command: this.options.source === 'proxy' ? 'storefront-contract proxy' : `storefront-contract certify --from-${this.options.source}`,
        notes,
      },
    });
  }

  private listed(result: ExchangeResult): void {
    if (result.findings.length ? this.keptWithFindings++ < this.keep.withFindings : this.keptPassing++ < this.keep.passing) this.kept.push(result);
    else this.notListed++;
  }

  private scrub(text: string): string {
    return this.redactor.text(text);
  }

  /**
   * Marks the exchange's secrets (credentials sent, tokens issued) so nothing printed or kept shows them.
   * Walking a body costs (a 100-product page is 600 KB): a request body or an answer can hold a new secret
   * only where a member is named as one; for an operation's answer the contract says whether its schema
   * has such a member (the tokens of `createAnonymousUser`, the OTP of `startPosPhoneLogin`), otherwise one
   * pass of one pattern finds out.
   */
  private learn(exchange: ObservedExchange, operationId: string | undefined): void {
    this.redactor.headers(exchange.requestHeaders);
    this.redactor.url(exchange.url);
    this.redactor.headers(exchange.responseHeaders);
    const request = exchange.requestBody;
    if (request && SECRET_KEY_RE.test(request)) this.redactor.body(request, headerOf(exchange.requestHeaders, 'content-type') ?? 'application/json');
    const answer = exchange.responseText;
    const declared = operationId === undefined ? undefined : namesSecrets(operationId, exchange.status);
    if (answer && (declared ?? SECRET_KEY_RE.test(answer))) this.redactor.body(answer, headerOf(exchange.responseHeaders, 'content-type') ?? 'application/json');
  }
}

/** One violation as the proxy prints it: time, method, path, operation, status, severity, rule, message. */
export function violationLine(v: Violation): string {
  return `${v.time} ${v.method} ${v.path} ${v.operationId} ${v.status} ${v.severity === 'error' ? 'error' : 'warn '} ${v.rule}: ${v.message}`;
}

function headerOf(headers: HarNameValue[], name: string): string | undefined {
  return headers.find((h) => h.name.toLowerCase() === name)?.value;
}

/** A 204, a 304 or a HEAD answer has no body to judge. */
function emptyAnswer(exchange: ObservedExchange): boolean {
  return exchange.status === 204 || exchange.status === 304 || exchange.method === 'HEAD';
}

/** `/catalog/products?limit=2`: the path inside the storefront API and the query. */
function innerPath(url: URL): string {
  return `${url.pathname.replace(/^\/api\/v1\/[^/]+\/storefront/, '')}${url.search}`;
}

function safeDecode(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

const secretNames = new Map<string, boolean | undefined>();

/**
 * Whether the response schema of `operationId` for `status` declares a member named as a secret (anywhere
 * in it); undefined when the contract has no schema for that status.
 */
function namesSecrets(operationId: string, status: number): boolean | undefined {
  const key = `${operationId} ${status}`;
  if (!secretNames.has(key)) {
    const schema = responseSchemaOf(operationId, status);
    secretNames.set(key, schema ? schema.some((node) => declaresSecret(node, new Set())) : undefined);
  }
  return secretNames.get(key);
}

function declaresSecret(node: unknown, seen: Set<unknown>): boolean {
  if (!node || typeof node !== 'object' || seen.has(node)) return false;
  seen.add(node);
  const schema = node as Record<string, unknown>;
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  if (Object.keys(properties).some((name) => SECRET_BODY_KEYS.has(name))) return true;
  const children = [...Object.values(properties), schema.items, schema.additionalProperties, ...(['allOf', 'oneOf', 'anyOf'] as const).flatMap((k) => (Array.isArray(schema[k]) ? (schema[k] as unknown[]) : []))];
  return children.some((child) => declaresSecret(child, seen));
}
