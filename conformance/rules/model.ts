// The one rule model of certification, shared by REST exchanges, webhook senders and webhook receivers.
// A rule judges ONE typed observation and returns its findings, or says why it could not judge
// (skipped): what a rule could not observe is reported as skipped with the reason, never as passed.
// Each rule names the contract statement it enforces. Statements of the platform's interface document
// are `stated`; where that document leaves the matter open and the spec designs it, the rule is
// `designed` and can only advise (a warning), unless the run is --strict.

export type Target = 'rest' | 'webhook-sender' | 'webhook-receiver';

export type Severity = 'error' | 'warning';

export interface Source {
  /** stated: the platform's interface document says it; designed: it leaves it open, the spec designs it. */
  kind: 'stated' | 'designed';
  /**
   * Where: `section 6.2` (of the platform's interface document), or a location in this repository,
   * `spec/openapi/storefront.yaml#/paths` (file, then a JSON pointer) or `docs/guides/x.md#heading`.
   */
  ref: string;
}

export interface Finding {
  /** What was judged: a part of an exchange (`status`, `Content-Type`), a delivery, a probe, a phase. */
  subject: string;
  severity: Severity;
  /** One sentence: what was expected and what came. Never a secret. */
  message: string;
}

/** The rule could not judge this observation (nothing to look at, or a part it cannot observe). */
export interface Skipped {
  skipped: string;
}

/** Findings (an empty list: judged, nothing wrong), or the reason the rule could not judge. */
export type Judgement = Finding[] | Skipped;

interface RuleBase<O> {
  /** kebab-case, the rule's file name in conformance/rules/<rest|webhooks>/. */
  id: string;
  target: Target;
  /** One line: what the rule requires (also its line in conformance/rules/README.md). */
  summary: string;
  check(observation: O): Judgement;
}

/** A rule enforcing what the interface document states; a finding of it may fail certification. */
export interface StatedRule<O> extends RuleBase<O> {
  source: Source & { kind: 'stated' };
  severity: Severity;
}

/** A rule enforcing a designed part of the contract: advisory, so its findings are warnings. */
export interface DesignedRule<O> extends RuleBase<O> {
  source: Source & { kind: 'designed' };
  severity: 'warning';
}

export type Rule<O> = StatedRule<O> | DesignedRule<O>;

/** A finding at the rule's own severity (a warning rule's problems are warnings). */
export function problem(subject: string, message: string): Finding {
  return { subject, severity: 'error', message };
}

/** A finding that is advice even in an error rule: a designed detail of a stated requirement. */
export function advisory(subject: string, message: string): Finding {
  return { subject, severity: 'warning', message };
}

export function skip(reason: string): Skipped {
  return { skipped: reason };
}

export function isSkipped(judgement: Judgement): judgement is Skipped {
  return !Array.isArray(judgement);
}

/**
 * Findings of several parts of one observation into one judgement: the findings when there are any,
 * else skipped when a part could not be judged (a rule only partly observed has not passed), else [].
 */
export function combine(parts: Judgement[]): Judgement {
  const findings = parts.flatMap((p) => (isSkipped(p) ? [] : p));
  if (findings.length) return findings;
  const reasons = [...new Set(parts.filter(isSkipped).map((p) => p.skipped))];
  return reasons.length ? skip(reasons.join('; ')) : [];
}
