// Runs a rule set over observations and folds the outcomes into per-rule results and a verdict.
import type { Outcome, RuleResult, WebhookRule } from './types.js';

function statusOf(outcomes: Outcome[]): RuleResult['status'] {
  if (outcomes.some((o) => 'problems' in o && o.problems.length > 0)) return 'fail';
  if (outcomes.every((o) => 'skipped' in o)) return 'skip';
  return 'pass';
}

export function runRules<S>(rules: readonly WebhookRule<S>[], subject: S): RuleResult[] {
  return rules.map((rule) => {
    let outcomes: Outcome[];
    try {
      outcomes = rule.check(subject);
    } catch (e) {
      // A rule that crashes is a certifier bug; report it on the rule instead of losing the whole run.
      outcomes = [{ subject: 'rule', problems: [`rule crashed: ${(e as Error).message}`] }];
    }
    return { id: rule.id, summary: rule.summary, status: statusOf(outcomes), outcomes };
  });
}

export function isCertified(results: RuleResult[]): boolean {
  return results.every((r) => r.status !== 'fail');
}
