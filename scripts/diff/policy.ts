// The gate's rules. One is enforced: a breaking change passes only when info.version moved to a new major
// (1.4.0 -> 2.0.0, 1.0.0-beta.1 -> 2.0.0-beta.1). The other is stated: which version bump the changes
// need (major for breaking, minor for non-breaking, patch for docs-only), and whether info.version
// already carries it. Minor and patch bumps are made when a release is cut (several pull requests go
// into one), so the gate reports them and does not fail on them; docs/guides/reviewing-spec-changes.md
// ("Which version a change needs") says how this maps onto the beta contract.
import type { Bump, Change, DocumentDiff } from './types.js';

export function majorOf(version: string): number | undefined {
  const m = /^v?(\d+)(?:\.|$)/.exec(version.trim());
  return m ? Number(m[1]) : undefined;
}

interface Semver {
  core: [number, number, number];
  /** `-beta.1` or '' */
  prerelease: string;
}

export function parseVersion(version: string): Semver | undefined {
  const m = /^v?(\d+)\.(\d+)\.(\d+)(-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.exec(version.trim());
  return m ? { core: [Number(m[1]), Number(m[2]), Number(m[3])], prerelease: m[4] ?? '' } : undefined;
}

const BUMP_RANK: Record<Bump, number> = { none: 0, patch: 1, minor: 2, major: 3 };

/** The bump these changes need: the largest of major (breaking), minor (non-breaking), patch (docs-only). */
export function requiredBump(changes: readonly Pick<Change, 'impact'>[]): Bump {
  if (changes.some((c) => c.impact === 'breaking')) return 'major';
  if (changes.some((c) => c.impact === 'non-breaking')) return 'minor';
  return changes.length ? 'patch' : 'none';
}

export const largerBump = (a: Bump, b: Bump): Bump => (BUMP_RANK[a] >= BUMP_RANK[b] ? a : b);
export const bumpCovers = (actual: Bump, needed: Bump): boolean => BUMP_RANK[actual] >= BUMP_RANK[needed];

/**
 * The bump between two versions, read on the version core (major.minor.patch); a change of the
 * pre-release label alone (1.0.0-beta.1 -> 1.0.0-beta.2) is a patch. Undefined when either is no semver
 * version or the version went down.
 */
export function bumpBetween(from: string, to: string): Bump | undefined {
  const a = parseVersion(from);
  const b = parseVersion(to);
  if (!a || !b) return undefined;
  for (const [i, bump] of [[0, 'major'], [1, 'minor'], [2, 'patch']] as const) {
    if (b.core[i] > a.core[i]) return bump;
    if (b.core[i] < a.core[i]) return undefined;
  }
  return a.prerelease === b.prerelease ? 'none' : 'patch';
}

/**
 * The smallest version that carries the bump, keeping a pre-release label (the contract's `-beta`
 * stage) with its counter restarted: 1.0.0-beta.3 + minor = 1.1.0-beta.1, 1.4.2 + major = 2.0.0.
 */
export function nextVersion(version: string, bump: Bump): string | undefined {
  const v = parseVersion(version);
  if (!v) return undefined;
  if (bump === 'none') return version.trim();
  const [major, minor, patch] = v.core;
  const core = bump === 'major' ? [major + 1, 0, 0] : bump === 'minor' ? [major, minor + 1, 0] : [major, minor, patch + 1];
  const label = v.prerelease.replace(/\d+$/, (n) => (Number(n) > 0 ? '1' : n));
  return `${core.join('.')}${label}`;
}

export interface Verdict {
  ok: boolean;
  breaking: number;
  nonBreaking: number;
  docsOnly: number;
  majorBumped: boolean;
  reason: string;
  /** The bump the changes need, the one info.version made, and the smallest version that carries it. */
  bump: { needed: Bump; made?: Bump; suggested?: string; covered: boolean };
}

export function judge(d: DocumentDiff): Verdict {
  const breaking = d.changes.filter((c) => c.impact === 'breaking').length;
  const docsOnly = d.changes.filter((c) => c.impact === 'docs-only').length;
  const nonBreaking = d.changes.length - breaking - docsOnly;
  const before = majorOf(d.baseVersion);
  const after = majorOf(d.revisionVersion);
  const majorBumped = before !== undefined && after !== undefined && after > before;
  const needed = requiredBump(d.changes);
  const made = bumpBetween(d.baseVersion, d.revisionVersion);
  const bump = { needed, made, suggested: nextVersion(d.baseVersion, needed), covered: made !== undefined && bumpCovers(made, needed) };
  const counts = { breaking, nonBreaking, docsOnly, majorBumped, bump };
  if (breaking === 0) return { ok: true, ...counts, reason: 'no breaking change' };
  if (majorBumped) return { ok: true, ...counts, reason: `breaking changes allowed: info.version ${d.baseVersion} -> ${d.revisionVersion} is a new major` };
  return {
    ok: false,
    ...counts,
    reason: `${breaking} breaking change${breaking === 1 ? '' : 's'} without a new major version (info.version ${d.baseVersion} -> ${d.revisionVersion}); undo them, or bump info.version to ${bump.suggested ?? (before === undefined ? 'a new major' : `${before + 1}.0.0`)}`,
  };
}

/** One line: the bump the changes need and whether info.version carries it. */
export function describeBump(d: Pick<DocumentDiff, 'baseVersion' | 'revisionVersion'>, v: Verdict): string {
  const { needed, made, suggested, covered } = v.bump;
  if (needed === 'none') return 'version: no change, no bump needed';
  const what = `${needed} bump (${needed === 'major' ? 'breaking changes' : needed === 'minor' ? 'non-breaking changes' : 'documentation only'})`;
  if (covered) return `version: needs a ${what}; info.version ${d.baseVersion} -> ${d.revisionVersion} carries it`;
  const at = needed === 'major' ? '' : ' at the next release';
  return `version: needs a ${what}; info.version ${d.baseVersion} -> ${d.revisionVersion}${made && made !== 'none' ? ` is only a ${made} bump` : ' is unchanged'}: ${suggested ?? 'a higher version'}${at}`;
}
