// The report of one shard (`certify --shard i/N`): `shard-<i>-of-<N>.json`, everything `certify merge` needs
// to rebuild the certificate of the whole run. Not a certificate: a shard sees a part of the run, so the
// verdict, the rules' results, the coverage and the counts are computed at merge time from what every
// shard observed, never summed from partial verdicts. It carries:
// - what identifies the run, compared across shards: the contract (spec sha256), the recordings (sha256 of
//   their files), the tool version, the target, the settings (generate, seed, strict, only, concurrency,
//   scenarios) and the rule set;
// - the shard (i of N) and the units it sent (scenarios; operations whose cases it generated);
// - every exchange it reported with its findings, and each rule's observation of it (`ruleTally`): judged (its
//   findings are the exchange's findings of that rule) or skipped with the reason.
import { createHash } from 'node:crypto';
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Judgement } from '../rules/model.js';
import { RuleTally } from '../rules/run.js';
import type { ExchangeResult } from '../rest/exchange.js';
import type { RestCertificate } from './certificate.js';
import { reportHtml } from './html.js';
import { junitXml } from './junit.js';

export const SHARD_REPORT_KIND = 'storefront-contract/certify-shard';

/** A rule's observations of one exchange: the rules that judged it and those that skipped it, with why (indexes into the report's tables). */
export interface ShardObservation {
  /** Indexes into `rules` of the rules that judged the exchange. */
  judged: number[];
  /** [index into `rules`, index into `skipReasons`] of the rules that could not judge it. */
  skipped: Array<[number, number]>;
}

export interface ShardReport {
  kind: typeof SHARD_REPORT_KIND;
  formatVersion: 1;
  shard: { index: number; total: number; scenarios: string[]; operations: string[] };
  tool: { package: string; version: string };
  /** The contract: the same fields as a certificate's `spec` (its sha256 identifies it). */
  spec: RestCertificate['spec'];
  /** The recordings every shard loads whole (the split and the coverage matrix read them). */
  recordings: { sha256: string; scenarios: string[]; recorded: string[] };
  target: RestCertificate['target'];
  settings: RestCertificate['settings'];
  startedAt: string;
  durationMs: number;
  /** Rule ids in report order. */
  rules: string[];
  skipReasons: string[];
  exchanges: Array<ExchangeResult & { ruleTally: ShardObservation }>;
  /** The generative phase: the run's seed and N, this shard's cases, and every operation of the run in report order. */
  generation?: Omit<NonNullable<RestCertificate['generation']>, 'cases'> & { operations: string[] };
}

export const shardReportName = (index: number, total: number) => `shard-${index}-of-${total}.json`;
export const SHARD_REPORT_PATTERN = /^shard-(\d+)-of-(\d+)\.json$/;

/** The text of a shard report file: what the digest is taken of. */
export const shardReportText = (report: ShardReport) => `${JSON.stringify(report)}\n`;

/**
 * A shard report's digest, `sha256:<hex>` of the file's bytes (the same `sha256sum` prints): the shard job
 * prints it, and `certify merge --expect-digest` refuses a report whose bytes differ.
 */
export const shardDigest = (bytes: string | Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** A rule tally that also keeps each rule's judgement of each exchange, for the shard report. */
export class ObservedTally extends RuleTally {
  private readonly seen = new Map<string, Array<[string, Judgement]>>();

  override add(ruleId: string, judgement: Judgement, where?: string): void {
    super.add(ruleId, judgement, where);
    if (where === undefined) return;
    const list = this.seen.get(where) ?? [];
    list.push([ruleId, judgement]);
    this.seen.set(where, list);
  }

  /** The observations of every exchange, encoded against the rule and reason tables. */
  encode(ruleIds: readonly string[], exchanges: readonly ExchangeResult[]): Pick<ShardReport, 'skipReasons' | 'exchanges'> {
    const reasons: string[] = [];
    const reasonIndex = new Map<string, number>();
    const out = exchanges.map((ex) => {
      const observed: ShardObservation = { judged: [], skipped: [] };
      for (const [ruleId, judgement] of this.seen.get(ex.id) ?? []) {
        const rule = ruleIds.indexOf(ruleId);
        if (Array.isArray(judgement)) {
          observed.judged.push(rule);
          continue;
        }
        let reason = reasonIndex.get(judgement.skipped);
        if (reason === undefined) {
          reason = reasons.push(judgement.skipped) - 1;
          reasonIndex.set(judgement.skipped, reason);
        }
        observed.skipped.push([rule, reason]);
      }
      return { ...ex, ruleTally: observed };
    });
    return { skipReasons: reasons, exchanges: out };
  }
}

/**
 * Writes a shard's files: its report for the merge, and junit.xml and report.html of its part (for the CI
 * job's own test view). No report.json: the certificate is the merge's.
 */
export function writeShardReports(report: ShardReport, part: RestCertificate, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const files: Array<[string, string]> = [
    [shardReportName(report.shard.index, report.shard.total), shardReportText(report)],
    ['junit.xml', junitXml(part)],
    ['report.html', reportHtml(part)],
  ];
  return files.map(([name, text]) => {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    return file;
  });
}
