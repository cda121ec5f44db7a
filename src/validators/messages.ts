// The sentence for an Ajv error. The precompiled validators are generated with `messages: false`
// (smaller modules), so the words come from here, from the error's keyword and params, in Ajv's
// own phrasing.
import type { ValidatorError as ErrorObject } from '../../generated/validators/raw-validator.js';

type Params = Record<string, any>;

const LIMITS: Record<string, [string, string]> = {
  minLength: ['fewer', 'characters'],
  maxLength: ['more', 'characters'],
  minItems: ['fewer', 'items'],
  maxItems: ['more', 'items'],
  minProperties: ['fewer', 'properties'],
  maxProperties: ['more', 'properties'],
  minContains: ['fewer', 'items'],
  maxContains: ['more', 'items'],
};

const FIXED: Record<string, string> = {
  oneOf: 'must match exactly one schema in oneOf',
  anyOf: 'must match a schema in anyOf',
  not: 'must NOT be valid',
  'false schema': 'boolean schema is false',
  propertyNames: 'property name must be valid',
  unevaluatedProperties: 'must NOT have unevaluated properties',
  additionalProperties: 'must NOT have additional properties',
  discriminator: 'tag must be a string with a mapped value',
};

export function errorMessage(error: ErrorObject): string {
  if (error.message) return error.message;
  const p = error.params as Params;
  const limit = LIMITS[error.keyword];
  if (limit) return `must NOT have ${limit[0]} than ${p.limit} ${limit[1]}`;
  if (error.keyword in FIXED) return FIXED[error.keyword]!;
  switch (error.keyword) {
    case 'required':
      return `must have required property '${p.missingProperty}'`;
    case 'type':
      return `must be ${p.type}`;
    case 'enum':
      return 'must be equal to one of the allowed values';
    case 'const':
      return 'must be equal to constant';
    case 'format':
      return `must match format "${p.format}"`;
    case 'pattern':
      return patternMessage(String(p.pattern));
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
    case 'formatMinimum':
    case 'formatMaximum':
    case 'formatExclusiveMinimum':
    case 'formatExclusiveMaximum':
      return `must be ${p.comparison} ${p.limit}`;
    case 'multipleOf':
      return `must be multiple of ${p.multipleOf}`;
    case 'uniqueItems':
      return `must NOT have duplicate items (items ## ${p.j} and ${p.i} are identical)`;
    case 'contains':
      return `must contain at least ${p.minContains ?? 1} valid item(s)`;
    case 'items':
    case 'additionalItems':
    case 'unevaluatedItems':
      return `must NOT have more than ${p.limit} items`;
    case 'if':
      return `must match "${p.failingKeyword}" schema`;
    case 'dependencies':
    case 'dependentRequired':
      return `must have propert${p.depsCount === 1 ? 'y' : 'ies'} ${p.deps} when property ${p.property} is present`;
    default:
      return `must pass "${error.keyword}" keyword validation`;
  }
}

/**
 * `must match pattern "..."`, with the control characters a pattern may hold (NonBlankText's tab, line feed
 * and carriage return) written as their escapes, so the sentence has no raw white space or control byte;
 * everything else as the pattern is (`^\+[0-9]{1,4}$` stays one backslash).
 */
export function patternMessage(pattern: string): string {
  const shown = pattern.replace(/[\u0000-\u001f\u007f]/g, (c) => ({ '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `must match pattern "${shown}"`;
}
