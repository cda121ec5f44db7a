// The one place Ajv's error objects become words a person can act on: where, what was expected, what was
// there. `formatErrors` gives pointer-addressed issues (the validators, the client, certification);
// `describeError` gives the place as segments and a sentence relative to it (the workbench's error
// details and fixture errors name the field themselves).
import type { ValidatorError as ErrorObject } from '../../generated/validators/raw-validator.js';
import { errorMessage, patternMessage } from './messages.js';
import { toPointer, unescapePointerSegment } from '../contract/json-pointer.js';

export interface ErrorDescription {
  /** The place the error is about, unescaped: the object's path plus a missing or unexpected key. */
  segments: string[];
  /** A sentence about that place: "is required", "must be one of \"a\", \"b\"", "must be string". */
  message: string;
}

/** One Ajv error as its place and a sentence about it. */
export function describeError(error: ErrorObject): ErrorDescription {
  const segments = error.instancePath.split('/').filter(Boolean).map(unescapePointerSegment);
  const p = error.params as Record<string, any>;
  switch (error.keyword) {
    case 'required':
      return { segments: [...segments, String(p.missingProperty)], message: 'is required' };
    case 'additionalProperties':
      return { segments: [...segments, String(p.additionalProperty)], message: 'is not an allowed property' };
    // A schema closed over its allOf parts (`unevaluatedProperties: false`): the same refusal, named the same way.
    case 'unevaluatedProperties':
      return { segments: [...segments, String(p.unevaluatedProperty)], message: 'is not an allowed property' };
    case 'enum':
      // Inside propertyNames: the key itself is not allowed (a sort field the list does not sort on).
      if (error.propertyName !== undefined) {
        return { segments, message: `names an unknown field "${error.propertyName.slice(0, 60)}" (allowed: ${(p.allowedValues as unknown[]).join(', ')})` };
      }
      return { segments, message: `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` };
    case 'const':
      return { segments, message: `must be ${JSON.stringify(p.allowedValue)}` };
    // Whatever validator made the error (Ajv's own message writes a tab or a line feed of the pattern raw).
    case 'pattern':
      return { segments, message: patternMessage(String(p.pattern)) };
    default:
      return { segments, message: errorMessage(error) || 'is invalid' };
  }
}

export interface ValidationIssue {
  /** JSON pointer into the validated value, `/` for the root. */
  path: string;
  message: string;
  expected?: string;
  got?: string;
}

function valueAt(data: unknown, pointer: string): unknown {
  if (!pointer) return data;
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((at, seg) => (at && typeof at === 'object' ? (at as Record<string, unknown>)[unescapePointerSegment(seg)] : undefined), data);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `array(${value.length})`;
  if (typeof value === 'string') return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'object';
  return `${typeof value} ${String(value)}`;
}

export function formatErrors(errors: ErrorObject[] | null | undefined, data: unknown): ValidationIssue[] {
  return (errors ?? []).map((error) => {
    const at = error.instancePath || '';
    const params = error.params as Record<string, any>;
    switch (error.keyword) {
      case 'required':
        return { path: toPointer(describeError(error).segments), message: `required property "${params.missingProperty}" is missing`, expected: 'present', got: 'nothing' };
      case 'type':
        return { path: at || '/', message: `must be ${params.type}`, expected: String(params.type), got: describe(valueAt(data, at)) };
      case 'enum':
        return { path: at || '/', message: `must be one of ${JSON.stringify(params.allowedValues)}`, expected: JSON.stringify(params.allowedValues), got: describe(valueAt(data, at)) };
      case 'const':
        return { path: at || '/', message: `must equal ${JSON.stringify(params.allowedValue)}`, expected: JSON.stringify(params.allowedValue), got: describe(valueAt(data, at)) };
      case 'additionalProperties':
        return { path: toPointer(describeError(error).segments), message: `unexpected property "${params.additionalProperty}"`, expected: 'absent', got: 'present' };
      case 'unevaluatedProperties':
        return { path: toPointer(describeError(error).segments), message: `unexpected property "${params.unevaluatedProperty}"`, expected: 'absent', got: 'present' };
      default:
        return { path: at || '/', message: errorMessage(error), got: describe(valueAt(data, at)) };
    }
  });
}

export function issuesToString(issues: ValidationIssue[]): string {
  return issues
    .map((i) => `${i.path}: ${i.message}${i.expected !== undefined ? ` (expected ${i.expected}, got ${i.got})` : i.got !== undefined ? ` (got ${i.got})` : ''}`)
    .join('; ');
}

/**
 * The errors a person should read when a value failed an `anyOf` or `oneOf` (Ajv with `allErrors` reports
 * every branch): the branch whose type the value has says what is wrong with it (`delay_ms` 60001 against
 * `integer <= 60000 | object | null` is "must be <= 60000", not also "must be object", "must be null" and
 * "must match a schema in anyOf"); when the value has none of the branches' types, one error names them all
 * ("must be integer, object or null"); when several branches of its type fail, one error says either of
 * them would do ("must match one of: now is required; or advance is required"). A branch's errors are those
 * under the alternative's schema path at or below its place in the value (a schema used for every item of
 * a list fails once per item). Innermost alternatives first; every other error is kept, in order.
 */
export function relevantErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  let kept = [...errors];
  const alternatives = kept.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').sort((a, b) => b.schemaPath.length - a.schemaPath.length);
  for (const alternative of alternatives) {
    const prefix = `${alternative.schemaPath}/`;
    const at = alternative.instancePath;
    const branches = kept.filter((e) => e.schemaPath.startsWith(prefix) && (e.instancePath === at || e.instancePath.startsWith(`${at}/`)));
    // A oneOf that more than one branch matched has no branch error: it is its own reason.
    if (branches.length === 0) continue;
    const mismatch = (e: ErrorObject) => e.keyword === 'type' && e.instancePath === at;
    const within = branches.filter((e) => !mismatch(e));
    const types = [...new Set(branches.filter(mismatch).flatMap((e) => String((e.params as Record<string, unknown>).type).split(',')))];
    const byBranch = new Map<string, ErrorObject[]>();
    for (const e of within) {
      const branch = e.schemaPath.slice(prefix.length).split('/')[0] ?? '';
      byBranch.set(branch, [...(byBranch.get(branch) ?? []), e]);
    }
    let replacement: ErrorObject[];
    if (within.length === 0) replacement = [{ ...alternative, keyword: 'type', params: { type: types.join(',') }, message: `must be ${either(types)}` }];
    else if (byBranch.size === 1) replacement = within;
    else {
      // Each branch's reasons, relative to the alternative's place: any one branch would do.
      const depth = pointerDepth(at);
      const said = [...byBranch.values()].map((list) => list.map((e) => { const d = describeError(e); return `${d.segments.slice(depth).join('.')}${d.segments.length > depth ? ' ' : ''}${d.message}`; }).join(', '));
      replacement = [{ ...alternative, message: `must match one of: ${said.join('; or ')}` }];
    }
    const index = kept.indexOf(alternative);
    kept = [...kept.slice(0, index).filter((e) => !branches.includes(e)), ...replacement, ...kept.slice(index + 1).filter((e) => !branches.includes(e))];
  }
  return kept;
}

function either(words: string[]): string {
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}` : (words[0] ?? '');
}

function pointerDepth(pointer: string): number {
  return pointer.split('/').filter(Boolean).length;
}
