// structural-drift: the live body has the structure of the recorded one (same status): no recorded
// field missing, no JSON type changed. A warning: data differs between servers, so optional fields
// may legitimately come and go; response-schema is the rule that fails on contract violations.
import type { Rule } from '../../rest/types.js';
import { isObject, jsonType } from './util.js';

const MAX = 8;

export function drift(recorded: unknown, live: unknown, at = '', out: string[] = []): string[] {
  if (out.length >= MAX || recorded === null || live === null || recorded === undefined) return out;
  if (live === undefined) {
    out.push(`${at || '/'} is missing`);
    return out;
  }
  const was = jsonType(recorded);
  const now = jsonType(live);
  if (was !== now) {
    out.push(`${at || '/'} was ${was}, is ${now}`);
    return out;
  }
  if (isObject(recorded) && isObject(live)) {
    for (const key of Object.keys(recorded)) drift(recorded[key], live[key], `${at}/${key}`, out);
  } else if (Array.isArray(recorded) && Array.isArray(live) && recorded.length && live.length) {
    drift(recorded[0], live[0], `${at}/0`, out);
  }
  return out;
}

export const structuralDrift: Rule = {
  id: 'structural-drift',
  severity: 'warn',
  summary: 'The live body keeps the recorded structure: no field missing, no type changed.',
  check({ step, live }) {
    if (live.status !== step.recorded.status || live.parseError !== undefined || typeof step.recorded.body !== 'object') return [];
    const found = drift(step.recorded.body, live.body);
    return found.length ? [`drift from the recording: ${found.join('; ')}`] : [];
  },
};
