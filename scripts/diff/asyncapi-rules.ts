// How AsyncAPI changes are rated. `@asyncapi/diff` rates document-level changes with its standard
// (a removed message or channel is breaking) but leaves every change inside a payload or header
// schema "unclassified": its standard has no patterns below `payload`. These rules fill that gap from
// the receiver's side (the service sends, subscribers receive), and anything still unclassified is
// treated as breaking, so nothing slips through unrated.
import { isDocumentationOnly } from './impact.js';
import type { Impact } from './types.js';

/** Overrides of @asyncapi/diff's standard (exact pointer patterns, `*` = one segment). */
export const overrides = {
  // The version is judged by the major-bump policy, not as a change.
  '/info/version': { add: 'non-breaking', remove: 'breaking', edit: 'non-breaking' },
  // Events live in components.messages too; removing one is removing an event.
  '/components/messages': { add: 'non-breaking', remove: 'breaking', edit: 'breaking' },
  '/components/messages/*': { add: 'non-breaking', remove: 'breaking', edit: 'breaking' },
} as const;

type Action = 'add' | 'remove' | 'edit';

export interface Rating {
  impact: Impact;
  reason: string;
}

/**
 * Rates a change the standard left unclassified. `segments` is the path below the message (for
 * example ['payload', 'allOf', '1', 'properties', 'status', 'enum', '"draft"']), or the whole path
 * for changes outside messages.
 */
/** Bounds a sender keeps its values under (a lower one is narrower) and over (a higher one is narrower). */
const UPPER_BOUNDS = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties']);
const LOWER_BOUNDS = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']);
/** Constraints whose edit cannot be ordered: adding one narrows what is sent, removing one widens it. */
const CONSTRAINTS = new Set(['pattern', 'format', 'multipleOf', 'const', 'uniqueItems']);

/**
 * A constraint on what the sender sends, from the receiver's side: one added or narrowed only narrows
 * what can arrive (non-breaking); one removed or widened lets values arrive a receiver may rely on never
 * seeing (breaking).
 */
function rateConstraint(keyword: string, action: Action, before: unknown, after: unknown): Rating | undefined {
  const bound = UPPER_BOUNDS.has(keyword) ? 'upper' : LOWER_BOUNDS.has(keyword) ? 'lower' : CONSTRAINTS.has(keyword) ? 'other' : undefined;
  if (!bound) return undefined;
  if (action === 'add') return { impact: 'non-breaking', reason: `\`${keyword}\` added: narrows what is sent` };
  if (action === 'remove') return { impact: 'breaking', reason: `\`${keyword}\` removed: values outside it may now be sent` };
  if (bound !== 'other' && typeof before === 'number' && typeof after === 'number') {
    const narrower = bound === 'upper' ? after < before : after > before;
    return narrower
      ? { impact: 'non-breaking', reason: `\`${keyword}\` narrowed: fewer values are sent` }
      : { impact: 'breaking', reason: `\`${keyword}\` widened: values outside the old bound may now be sent` };
  }
  return { impact: 'breaking', reason: `\`${keyword}\` changed: values outside the old one may now be sent` };
}

export function rateUnclassified(segments: string[], action: Action, inSchema: boolean, before?: unknown, after?: unknown): Rating {
  const last = segments[segments.length - 1];
  const parent = segments[segments.length - 2];
  // A documentation keyword (not a property of that name: impact.ts) changes what people read only.
  if (isDocumentationOnly(segments)) return { impact: 'docs-only', reason: 'documentation only' };
  if (last === 'deprecated' && parent !== 'properties') return { impact: 'non-breaking', reason: action === 'remove' ? 'no longer deprecated' : 'marked deprecated' };
  if (!inSchema) return { impact: 'breaking', reason: 'unclassified change, treated as breaking (rate it in scripts/diff/asyncapi-rules.ts)' };
  if (parent === 'properties') {
    return action === 'add'
      ? { impact: 'non-breaking', reason: `property \`${last}\` added` }
      : action === 'remove'
        ? { impact: 'breaking', reason: `property \`${last}\` removed: receivers that read it break` }
        : { impact: 'breaking', reason: `property \`${last}\` replaced` };
  }
  if (parent === 'required') {
    return action === 'add'
      ? { impact: 'non-breaking', reason: `\`${last}\` is now always sent` }
      : { impact: 'breaking', reason: `\`${last}\` is no longer guaranteed` };
  }
  if (parent === 'enum') {
    return action === 'remove'
      ? { impact: 'non-breaking', reason: `value ${last} no longer sent` }
      : { impact: 'breaking', reason: `new value ${last}: receivers may not handle it` };
  }
  if (last === 'type' || parent === 'type') return { impact: 'breaking', reason: 'type changed' };
  const constraint = rateConstraint(last, action, before, after);
  if (constraint) return constraint;
  // Extensions inside a schema (x-expired-status, x-max-json-depth) annotate it; validation ignores them.
  if (last.startsWith('x-')) return { impact: 'non-breaking', reason: `annotation \`${last}\` ${action === 'add' ? 'added' : action === 'remove' ? 'removed' : 'changed'}` };
  return { impact: 'breaking', reason: `\`${last}\` ${action === 'add' ? 'added' : action === 'remove' ? 'removed' : 'changed'} in a schema (treated as breaking)` };
}
