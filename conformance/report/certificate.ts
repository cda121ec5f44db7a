// The certificate (report.json) of any certification run: what was certified, against which contract,
// with which tool and policy, each rule's result (with the contract statement it enforces), and the
// evidence of the run: REST exchanges and coverage, or the webhook probes and deliveries. The terminal
// summary, junit.xml and report.html are all written from it.
import { specInfo } from 'storefront-contract';
import { toolsPackage } from '../../workbench/contract/files.js';
import type { Target } from '../rules/model.js';
import type { RuleResult } from '../rules/run.js';
import type { ExchangeResult } from '../rest/exchange.js';

export type Verdict = 'certified' | 'not-certified';

export interface RuleCounts {
  total: number;
  stated: number;
  designed: number;
  passed: number;
  failed: number;
  warned: number;
  skipped: number;
}

interface CertificateBase {
  kind: 'storefront-contract/certificate';
  formatVersion: 2;
  certifies: Target;
  verdict: Verdict;
  /** --strict: warnings (advice from designed rules included) counted as errors. */
  strict: boolean;
  tool: { package: string; version: string; command: string };
  /** The contract document: its path, version, sha256, and for a REST API its base path. */
  spec: { api: 'storefront' | 'webhooks'; source: string; version: string; basePath?: string; sha256: string };
  /** Where the certified thing is, without credentials. */
  target: { url: string };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** What a reader needs to judge the result: options, time scale, tolerances. */
  settings: Record<string, string | number | boolean | null>;
  summary: { rules: RuleCounts; errors: number; warnings: number };
  rules: RuleResult[];
  notes: string[];
}

export type OperationVerdict = 'pass' | 'fail' | 'not-run';

export interface CoverageCell {
  /** A recording holds an exchange of this operation answered with this status. */
  recorded: boolean;
  /** The target answered an exchange of this operation with this status in this run. */
  exercised: boolean;
  /** Every such exchange passed every error-level finding. */
  passed: boolean;
}

export interface RestCertificate extends CertificateBase {
  certifies: 'rest';
  target: { url: string; storeId: string; embeddedMock: boolean };
  /**
   * Set on the part of a run one shard sent (`certify --shard 2/4`): its verdict is that part's, and
   * `certify merge` of every shard's report gives the certificate.
   */
  shard?: { index: number; total: number };
  /**
   * Set on the certificate `certify merge` built: each shard report's digest (`sha256:<hex>` of its file, as
   * its shard job printed it), and whether the merge checked them against those (`--expect-digest`).
   * What a merge can and cannot vouch for is in `notes`.
   */
  merge?: { shards: Array<{ shard: string; digest: string }>; digestsChecked: boolean };
  exchangeSummary: { exchanges: number; judged: number; passed: number; failed: number; unsent: number };
  operations: Array<{
    operationId: string;
    method: string;
    path: string;
    verdict: OperationVerdict;
    statuses: Array<{ status: string; verdict: OperationVerdict; exchanges: number }>;
    /** Generated requests of this operation reported in `exchanges` (0 without --generate). */
    generatedCases: number;
  }>;
  /** operationId -> documented status -> cell. */
  coverage: Record<string, Record<string, CoverageCell>>;
  /** The generative phase (`--generate N`), when it ran: its seed and the cases sent per operation. */
  generation?: {
    /** N: valid and invalid requests per operation, besides the edge cases and credential variants. */
    count: number;
    seed: number;
    /** Cases sent in all (shrinking steps not counted). */
    cases: number;
    durationMs: number;
    perOperation: Record<string, { valid: number; invalid: number; security: number; shrunk: number; total: number }>;
    /** The flags that send the same cases again. */
    reproduce: string;
  };
  /**
   * Set when the exchanges were observed in traffic, not sent by the certifier (the validating proxy,
   * `certify --from-har` / `--from-log`): only the rules that need no recording judged them, and
   * `exchanges` lists the ones kept (every exchange is counted in `exchangeSummary` and the coverage).
   */
  traffic?: {
    source: 'proxy' | 'har' | 'log';
    /** The HAR or log file, for `har` and `log`. */
    file?: string;
    /** Exchanges not judged: outside the storefront API, on another store than --store-id, on a path the contract does not have, or with a body that could not be judged. */
    notJudged: { outsideStorefront: number; otherStore: number; noOperation: number; bodyNotJudged: number };
    /** Exchanges judged but not listed in `exchanges` (the report keeps a bounded number). */
    notListed: number;
  };
  exchanges: ExchangeResult[];
}

/** One probe sent to a receiver and its answer. */
export interface ProbeRow {
  group: string;
  name: string;
  expect: string;
  status: number | null;
  transportError?: string;
}

/** One request a sender made to the certifier's subscriber, times in ms from the start of the run. */
export interface DeliveryRow {
  seq: number;
  phase: string;
  event?: string;
  method: string;
  answer: number | 'hold';
  receivedAtMs: number;
  endedAtMs?: number;
  abandonedBySender?: boolean;
}

export interface WebhookCertificate extends CertificateBase {
  certifies: 'webhook-sender' | 'webhook-receiver';
  probes?: ProbeRow[];
  deliveries?: DeliveryRow[];
}

export type Certificate = RestCertificate | WebhookCertificate;

/**
 * The verdict as people read it: CERTIFIED / NOT CERTIFIED; VIOLATIONS / NO VIOLATIONS for observed traffic; or for a shard's part (which is no
 * certificate) whether the part passed: its exchanges all passed (`certify merge` gives the run's verdict).
 */
export function verdictLabel(cert: Certificate): string {
  if (cert.certifies === 'rest' && cert.shard) return `SHARD ${cert.shard.index}/${cert.shard.total} ${partPassed(cert) ? 'PASSED' : 'FAILED'} (a part of the run; certify merge gives the certificate)`;
  // Observed traffic (the validating proxy, --from-har): a drift report, not a certificate of the server.
  if (cert.certifies === 'rest' && cert.traffic) return cert.verdict === 'certified' ? 'NO VIOLATIONS' : cert.exchangeSummary.judged === 0 ? 'NOTHING JUDGED' : 'VIOLATIONS';
  return cert.verdict === 'certified' ? 'CERTIFIED' : 'NOT CERTIFIED';
}

/** A shard's part passed: no exchange of it failed or went unsent (under --strict, warnings are errors). */
export function partPassed(cert: RestCertificate): boolean {
  return cert.exchangeSummary.failed === 0 && cert.exchangeSummary.unsent === 0;
}

export function packageVersion(): { name: string; version: string } {
  return { name: toolsPackage.name, version: toolsPackage.version };
}

export function ruleCounts(rules: readonly RuleResult[]): RuleCounts {
  const count = (status: RuleResult['status']) => rules.filter((r) => r.status === status).length;
  return {
    total: rules.length,
    stated: rules.filter((r) => r.source.kind === 'stated').length,
    designed: rules.filter((r) => r.source.kind === 'designed').length,
    passed: count('passed'),
    failed: count('failed'),
    warned: count('warned'),
    skipped: count('skipped'),
  };
}

const COMMANDS: Record<Target, string> = {
  rest: 'storefront-contract certify',
  'webhook-sender': 'storefront-contract certify-webhooks sender',
  'webhook-receiver': 'storefront-contract certify-webhooks receiver',
};

/** The fields every certificate has, from the rule results of a run. */
export function certificateFrame<T extends { url: string }>(input: {
  certifies: Target;
  target: T;
  rules: RuleResult[];
  /** False when the run itself failed beyond the rules (an exchange that could not be sent). */
  runOk?: boolean;
  strict: boolean;
  startedAt: Date;
  durationMs: number;
  settings: CertificateBase['settings'];
  notes?: string[];
  /** The command that ran, when not the certifier of the target (`storefront-contract proxy`). */
  command?: string;
}): CertificateBase & { target: T } {
  const pkg = packageVersion();
  const api = input.certifies === 'rest' ? 'storefront' : 'webhooks';
  const counts = ruleCounts(input.rules);
  const certified = (input.runOk ?? true) && counts.failed === 0 && counts.total > counts.skipped;
  return {
    kind: 'storefront-contract/certificate',
    formatVersion: 2,
    certifies: input.certifies,
    verdict: certified ? 'certified' : 'not-certified',
    strict: input.strict,
    tool: { package: pkg.name, version: pkg.version, command: input.command ?? COMMANDS[input.certifies] },
    spec: { api, ...specInfo[api] },
    target: input.target,
    startedAt: input.startedAt.toISOString(),
    finishedAt: new Date(input.startedAt.getTime() + input.durationMs).toISOString(),
    durationMs: Math.round(input.durationMs),
    settings: input.settings,
    summary: { rules: counts, errors: input.rules.reduce((n, r) => n + r.errors, 0), warnings: input.rules.reduce((n, r) => n + r.warnings, 0) },
    rules: input.rules,
    notes: input.notes ?? [],
  };
}
