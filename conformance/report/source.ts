// How a rule's source reads in reports: which contract statement it enforces, and whether that statement
// is the platform's (stated) or this spec's design (designed, so the rule only advises).
import type { Source, Target } from '../rules/model.js';

/** `stated, section 6.2 of the platform's interface document` / `designed (advisory), spec/...`. */
export function describeSource(source: Source): string {
  const where = source.ref.startsWith('section') ? `${source.ref} of the platform's interface document` : source.ref;
  return source.kind === 'stated' ? `stated, ${where}` : `designed (advisory), ${where}`;
}

export function targetLabel(target: Target): string {
  return target === 'rest' ? 'REST' : target === 'webhook-sender' ? 'webhook sender' : 'webhook receiver';
}
