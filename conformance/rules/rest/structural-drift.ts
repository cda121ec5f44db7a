// structural-drift: the live body has the structure of the recorded one (same status): no recorded
// field missing, no JSON type changed. Advice only: the recordings replay the spec's named examples, and
// data differs between servers, so optional fields may legitimately come and go; response-schema is
// the rule that fails on contract violations. The keys of a free-form map (a schema declaring no
// property: `metadata`, `associated_options`) are data, not structure: only the values of keys both
// bodies have are compared, against the map's value schema.
import { problem, skip } from '../model.js';
import type { RestRule } from '../observations/rest.js';
import { isFreeFormMap, itemSchema, propertySchema, responseSchemaOf, type Schema } from '../response-schemas.js';
import { isObject, jsonType } from '../shared/rest.js';

const MAX = 8;

/** Differences of structure from `recorded` to `live`, guided by the response schema when known. */
export function drift(recorded: unknown, live: unknown, schema?: Schema, at = '', out: string[] = []): string[] {
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
    const freeForm = isFreeFormMap(schema);
    for (const key of Object.keys(recorded)) {
      if (freeForm && !(key in live)) continue;
      const valueSchema = propertySchema(schema, key);
      // A free-form map without a value schema holds arbitrary data: nothing in it is structure.
      if (freeForm && !valueSchema) continue;
      drift(recorded[key], live[key], valueSchema, `${at}/${key}`, out);
    }
  } else if (Array.isArray(recorded) && Array.isArray(live) && recorded.length && live.length) {
    drift(recorded[0], live[0], itemSchema(schema), `${at}/0`, out);
  }
  return out;
}

export const structuralDrift: RestRule = {
  id: 'structural-drift',
  target: 'rest',
  severity: 'warning',
  source: { kind: 'designed', ref: 'spec/openapi/components/examples' },
  summary: 'The live body keeps the recorded structure: no field missing, no type changed.',
  appliesTo: 'replayed',
  check({ step, live }) {
    if (live.status !== step.recorded.status) return skip(`the status differs from the recording's ${step.recorded.status}`);
    if (live.parseError !== undefined || typeof step.recorded.body !== 'object') return skip('no JSON body to compare');
    const found = drift(step.recorded.body, live.body, responseSchemaOf(step.operation.operationId, live.status));
    return found.length ? [problem('body', `drift from the recording: ${found.join('; ')}`)] : [];
  },
};
