// Builds the `payload` of a new event from the catalog example of that event (the AsyncAPI message
// example), with caller overrides deep-merged into `properties`, and validates the whole envelope against
// the event's schema before anything is stored or sent.
import { basePathTemplate } from 'storefront-contract/contract';
import { validateWebhookDelivery, type ValidationIssue } from 'storefront-contract/validators';
import { MAX_JSON_DEPTH, inspectUserJson, isSafeKey, ownChild, tooDeep, unsafeSegment } from '../http/object-paths.js';
import { catalogEntry, webhookEvents } from './rules.js';
import type { ErrorItem } from './replies.js';
import { dotted } from './replies.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isIndex = (key: string) => /^(0|[1-9][0-9]{0,5})$/.test(key);

/**
 * Objects merge key by key; arrays and scalars are replaced, except that an object whose keys are all
 * indexes merges into an array element by element (`{"items": {"0": {"quantity": 3}}}` changes one field
 * of the first item, which is what `--set items.0.quantity=3` produces).
 */
export function deepMerge(base: unknown, override: unknown): unknown {
  if (Array.isArray(base) && isPlainObject(override) && Object.keys(override).length > 0 && Object.keys(override).every(isIndex)) {
    const out = [...base];
    for (const [key, value] of Object.entries(override)) {
      const i = Number(key);
      if (i > out.length) throw new RangeError(`index ${i} is past the end of an array of ${out.length}`);
      out[i] = deepMerge(out[i], value);
    }
    return out;
  }
  if (isPlainObject(base) && isPlainObject(override)) {
    const out: Record<string, unknown> = { ...base };
    for (const [key, value] of Object.entries(override)) {
      // JSON.parse makes `__proto__` an own key; assigning it would swap the object's prototype instead.
      if (!isSafeKey(key)) throw new RangeError(`"${key}" is not a property name the simulator accepts`);
      out[key] = Object.hasOwn(base, key) ? deepMerge(base[key], value) : value;
    }
    return out;
  }
  return override;
}

/** Removes a dotted path (`marketplace_listing`, `items.0.sku`); a path that is not there is reported. */
export function unsetPath(target: unknown, path: string): boolean {
  const keys = path.split('.');
  if (unsafeSegment(keys) !== undefined) return false;
  let here: unknown = target;
  for (const key of keys.slice(0, -1)) {
    if (Array.isArray(here) && isIndex(key)) here = here[Number(key)];
    else if (isPlainObject(here)) here = ownChild(here, key);
    else return false;
  }
  const last = keys[keys.length - 1];
  if (Array.isArray(here) && isIndex(last) && Number(last) < here.length) {
    here.splice(Number(last), 1);
    return true;
  }
  if (isPlainObject(here) && Object.hasOwn(here, last)) {
    delete here[last];
    return true;
  }
  return false;
}

export type BuildResult = { ok: true; payload: Record<string, unknown> } | { ok: false; message: string; details: ErrorItem[] };

export interface BuildInput {
  storeId: string;
  event: string;
  eventId: string;
  /** Placeholder values for the envelope fields set per attempt; they only serve the validation. */
  deliveryId: string;
  occurredAt: number;
  isTest: boolean;
  properties?: unknown;
  unset?: readonly string[];
}

export function knownEventsHint(): string {
  return `${webhookEvents.length} events are known; list them with GET ${basePathTemplate.admin}/webhooks/event-types or \`storefront-contract webhooks events\``;
}

export function buildEventPayload(input: BuildInput): BuildResult {
  const entry = catalogEntry(input.event);
  if (!entry) {
    return { ok: false, message: `Unknown event "${input.event}". ${knownEventsHint()}.`, details: [{ location: 'body', name: 'event', message: 'is not an event of the catalog' }] };
  }
  if (input.properties !== undefined && !isPlainObject(input.properties)) {
    return { ok: false, message: 'properties must be a JSON object of overrides for the example properties.', details: [{ location: 'body', name: 'properties', message: 'must be an object' }] };
  }
  // deepMerge recurses along the overrides: they are checked first, iteratively and bounded in depth.
  const problem = inspectUserJson(input.properties, MAX_JSON_DEPTH);
  if (problem?.kind === 'too-deep') {
    const { message, item } = tooDeep(`properties.${problem.path}`);
    return { ok: false, message, details: [item] };
  }
  const unsafeKey = problem?.path;
  if (unsafeKey !== undefined) {
    return { ok: false, message: `properties.${unsafeKey}: "${unsafeKey.split('.').pop()}" is not a property name the simulator accepts.`, details: [{ location: 'body', name: `properties.${unsafeKey}`, message: 'is a refused property name' }] };
  }
  const example = entry.example.payload.payload as unknown as Record<string, Json>;
  let properties: unknown;
  try {
    properties = deepMerge(structuredClone(example.properties), input.properties ?? {});
  } catch (e) {
    return { ok: false, message: `properties could not be merged: ${(e as Error).message}.`, details: [{ location: 'body', name: 'properties', message: (e as Error).message }] };
  }
  for (const path of input.unset ?? []) {
    const unsafe = unsafeSegment(path.split('.'));
    if (unsafe !== undefined) {
      return { ok: false, message: `unset: "${unsafe}" is not a property name the simulator accepts.`, details: [{ location: 'body', name: 'unset', message: `"${unsafe}" is refused in a property path` }] };
    }
    if (!unsetPath(properties, path)) {
      return { ok: false, message: `unset: properties.${path} is not in the event's properties.`, details: [{ location: 'body', name: 'unset', message: `properties.${path} does not exist` }] };
    }
  }
  const payload: Record<string, unknown> = {
    event: input.event,
    event_id: input.eventId,
    store_id: input.storeId,
    store_type: example.store_type,
    user_id: example.user_id,
    admin_user_id: example.admin_user_id ?? null,
    timestamp: new Date(input.occurredAt).toISOString(),
    properties,
  };
  const verdict = validateWebhookDelivery({
    event: input.event,
    event_id: input.eventId,
    delivery_id: input.deliveryId,
    timestamp: new Date(input.occurredAt).toISOString(),
    is_test: input.isTest,
    payload,
  });
  if (!verdict.valid) {
    const details = verdict.errors.map((issue: ValidationIssue) => ({ location: 'body' as const, name: dotted(issue.path, '/payload'), message: describeIssue(issue) }));
    return {
      ok: false,
      message: `The ${input.event} event is not valid against its schema: ${details.slice(0, 3).map((d) => `${d.name} ${d.message}`).join('; ')}${details.length > 3 ? ` (and ${details.length - 3} more)` : ''}.`,
      details,
    };
  }
  return { ok: true, payload };
}

function describeIssue(issue: ValidationIssue): string {
  return issue.got !== undefined ? `${issue.message} (got ${issue.got})` : issue.message;
}
