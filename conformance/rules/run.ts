// Running rules: one rule on one observation under the run's policy, and each rule's result over a run
// (one observation for a webhook run, one per exchange for REST).
import { isSkipped, type Finding, type Judgement, type Rule, type Severity, type Source, type Target } from './model.js';

export interface Policy {
  /** --strict: every finding is an error, advice from designed rules included. */
  strict?: boolean;
}

/** A finding's reported severity: capped by its rule (designed rules only advise), raised by --strict. */
export function severityOf(rule: Rule<never>, finding: Finding, policy: Policy): Severity {
  if (policy.strict) return 'error';
  return rule.severity === 'warning' ? 'warning' : finding.severity;
}

export function judge<O>(rule: Rule<O>, observation: O, policy: Policy = {}): Judgement {
  let judgement: Judgement;
  try {
    judgement = rule.check(observation);
  } catch (e) {
    // A crash is a certifier bug: reported loudly on the rule instead of losing the whole run.
    return [{ subject: 'rule', severity: 'error', message: `the rule crashed (a certifier bug): ${(e as Error).message}` }];
  }
  if (isSkipped(judgement)) return judgement;
  return judgement.map((f) => ({ ...f, severity: severityOf(rule as Rule<never>, f, policy) }));
}

export type RuleStatus = 'passed' | 'failed' | 'warned' | 'skipped';

export interface RuleResult {
  id: string;
  target: Target;
  /** The severity its findings are reported with in this run (error for every rule under --strict). */
  severity: Severity;
  source: Source;
  summary: string;
  status: RuleStatus;
  /** Observations judged (not skipped). */
  judged: number;
  /** Why the rule could not judge, when it judged nothing. */
  skipped?: string;
  errors: number;
  warnings: number;
  /** Findings, each subject prefixed with the observation it is about when a run has several. */
  findings: Finding[];
  /** Findings counted in `errors` and `warnings` but not listed (a tally bounded by `maxFindings`). */
  findingsNotListed?: number;
}

const MAX_SKIP_REASONS = 3;
/** Distinct skip reasons a tally keeps per rule (a reason names an operation and status at most). */
const MAX_SKIP_KINDS = 100;

/** Collects the judgements of a rule set over a run and folds them into one result per rule. */
export class RuleTally {
  private readonly entries: Array<{ rule: Rule<never>; judged: number; skips: Map<string, number>; findings: Array<Finding & { where?: string }>; errors: number; warnings: number }>;

  /**
   * `maxFindings`: list at most this many findings per rule (all are counted), so a long run (the
   * validating proxy) holds a bounded tally; unbounded by default.
   */
  constructor(
    rules: readonly Rule<never>[],
    private readonly policy: Policy = {},
    private readonly maxFindings = Infinity,
  ) {
    this.entries = rules.map((rule) => ({ rule, judged: 0, skips: new Map(), findings: [], errors: 0, warnings: 0 }));
  }

  add(ruleId: string, judgement: Judgement, where?: string): void {
    const entry = this.entries.find((e) => e.rule.id === ruleId);
    if (!entry) throw new Error(`RuleTally: unknown rule ${ruleId}`);
    if (isSkipped(judgement)) {
      if (entry.skips.has(judgement.skipped) || entry.skips.size < MAX_SKIP_KINDS) entry.skips.set(judgement.skipped, (entry.skips.get(judgement.skipped) ?? 0) + 1);
      return;
    }
    entry.judged++;
    for (const f of judgement) {
      if (f.severity === 'error') entry.errors++;
      else entry.warnings++;
      if (entry.findings.length < this.maxFindings) entry.findings.push(where ? { ...f, where } : f);
    }
  }

  results(): RuleResult[] {
    return this.entries.map(({ rule, judged, skips, findings: found, errors, warnings }) => {
      // Observations may be judged in any order (concurrent replay): report them in a stable one.
      const findings = [...found]
        .sort((a, b) => (a.where ?? '').localeCompare(b.where ?? '', 'en', { numeric: true }))
        .map(({ where, ...f }) => (where ? { ...f, subject: `${where}: ${f.subject}` } : f));
      const notListed = errors + warnings - findings.length;
      const status: RuleStatus = errors ? 'failed' : warnings ? 'warned' : judged ? 'passed' : 'skipped';
      // The most frequent reasons first, then by name: the same text whatever order the observations came in
      // (a concurrent run, or the shards of one run merged).
      const reasons = [...skips].sort(([a, m], [b, n]) => n - m || a.localeCompare(b)).map(([reason]) => reason);
      const skipped =
        status !== 'skipped' ? undefined
        : reasons.length === 0 ? 'nothing to judge'
        : reasons.slice(0, MAX_SKIP_REASONS).join('; ') + (reasons.length > MAX_SKIP_REASONS ? `; and ${reasons.length - MAX_SKIP_REASONS} more reasons` : '');
      return {
        id: rule.id,
        target: rule.target,
        severity: this.policy.strict ? 'error' : rule.severity,
        source: rule.source,
        summary: rule.summary,
        status,
        judged,
        ...(skipped ? { skipped } : {}),
        errors,
        warnings,
        findings,
        ...(notListed > 0 ? { findingsNotListed: notListed } : {}),
      };
    });
  }
}

/** Judges one observation with every rule of a set (a webhook run). */
export function runRules<O>(rules: readonly Rule<O>[], observation: O, policy: Policy = {}): RuleResult[] {
  const tally = new RuleTally(rules as readonly Rule<never>[], policy);
  for (const rule of rules) tally.add(rule.id, judge(rule, observation, policy));
  return tally.results();
}
