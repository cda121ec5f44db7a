// The shape every diff engine's output is normalised to, so the policy and the report do not care
// whether a change came from `redocly diff` or from `@asyncapi/diff`.
export type Kind = 'openapi' | 'asyncapi';
export type Impact = 'breaking' | 'non-breaking';

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
}
