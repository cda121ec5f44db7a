// The shape every diff engine's output is normalised to, so the policy and the report do not care
// whether a change came from `redocly diff` or from `@asyncapi/diff`.
export type Kind = 'openapi' | 'asyncapi';
/**
 * breaking: someone relying on the older version breaks; non-breaking: a change that breaks nobody (an
 * addition, a relaxed constraint); docs-only: only what people read changed (scripts/diff/impact.ts).
 */
export type Impact = 'breaking' | 'non-breaking' | 'docs-only';
/** The version bump a set of changes needs: major for breaking, minor for non-breaking, patch for docs-only. */
export type Bump = 'major' | 'minor' | 'patch' | 'none';

export interface Change {
  impact: Impact;
  /** added | removed | modified */
  action: string;
  /**
   * Where, readable: `GET /orders`, `event order.created`, or the shared component that changed
   * (`components/schemas/Order`, `components/schemas/Pricing.yaml`).
   */
  subject: string;
  /** Every operation or event the change reaches through $refs, when the engine can tell (sorted). */
  affects?: string[];
  /** JSON pointer-ish path below the subject. */
  path: string;
  message: string;
  /** file:line of the changed node when the engine knows it. */
  location?: { file: string; line: number; col?: number };
  rule?: string;
}

export interface DocumentDiff {
  kind: Kind;
  baseVersion: string;
  revisionVersion: string;
  changes: Change[];
  /** OpenAPI: each operation's label (`GET /orders`) with its operationId, from both versions. */
  operationIds?: Record<string, string>;
}
