// The gate's one rule: a breaking change passes only when info.version moved to a new major
// (1.4.0 -> 2.0.0, 1.0.0-beta.1 -> 2.0.0-beta.1). Everything else that is breaking fails.
import type { DocumentDiff } from './types.js';

export function majorOf(version: string): number | undefined {
  const m = /^v?(\d+)(?:\.|$)/.exec(version.trim());
  return m ? Number(m[1]) : undefined;
}

export interface Verdict {
  ok: boolean;
  breaking: number;
  nonBreaking: number;
  majorBumped: boolean;
  reason: string;
}

export function judge(d: DocumentDiff): Verdict {
  const breaking = d.changes.filter((c) => c.impact === 'breaking').length;
  const nonBreaking = d.changes.length - breaking;
  const before = majorOf(d.baseVersion);
  const after = majorOf(d.revisionVersion);
  const majorBumped = before !== undefined && after !== undefined && after > before;
  if (breaking === 0) return { ok: true, breaking, nonBreaking, majorBumped, reason: 'no breaking change' };
  if (majorBumped) return { ok: true, breaking, nonBreaking, majorBumped, reason: `breaking changes allowed: info.version ${d.baseVersion} -> ${d.revisionVersion} is a new major` };
  return {
    ok: false,
    breaking,
    nonBreaking,
    majorBumped,
    reason: `${breaking} breaking change${breaking === 1 ? '' : 's'} without a new major version (info.version ${d.baseVersion} -> ${d.revisionVersion}); undo them, or bump info.version to ${before === undefined ? 'a new major' : `${before + 1}.0.0`}`,
  };
}
