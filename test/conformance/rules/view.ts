// What a rule test compares: a rule's judgement of one observation as the run reports it (severities
// capped by the rule, raised by --strict): `skipped`, or one line per finding, warnings marked.
import { isSkipped, type Rule } from '../../../conformance/rules/model.js';
import { judge, type Policy } from '../../../conformance/rules/run.js';

export type View = 'skipped' | string[];

export function view<O>(rule: Rule<O>, observation: O, policy: Policy = {}): View {
  const judgement = judge(rule, observation, policy);
  if (isSkipped(judgement)) return 'skipped';
  return judgement.map((f) => (f.severity === 'warning' ? `warning: ${f.message}` : f.message));
}

/** The skip reason, or undefined when the rule judged. */
export function skipReason<O>(rule: Rule<O>, observation: O): string | undefined {
  const judgement = judge(rule, observation);
  return isSkipped(judgement) ? judgement.skipped : undefined;
}
