// The contract in small pieces for an agent's context: a schema as one line of TypeScript-like text, a
// description cut to its first sentence, an example cut to its shape, any value cut to a byte budget, and
// credentials taken out of whatever is answered. Every tool's result goes through `bounded` and `redacted`.
import { mergeAllOf, type JsonObject } from '../contract/model.js';

/** A description's first sentence, at most `max` characters, on one line. */
export function firstSentence(text: unknown, max = 140): string | undefined {
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.!?](\s|$)/);
  const sentence = end === -1 ? flat : flat.slice(0, end + 1);
  return sentence.length <= max ? sentence : `${sentence.slice(0, max - 1)}…`;
}

const MAX_ENUM = 12;

function range(min: unknown, max: unknown): string | undefined {
  const lo = typeof min === 'number' ? min : undefined;
  const hi = typeof max === 'number' ? max : undefined;
  if (lo === undefined && hi === undefined) return undefined;
  if (lo !== undefined && hi !== undefined) return lo === hi ? `${lo}` : `${lo}..${hi}`;
  return lo !== undefined ? `>=${lo}` : `<=${hi}`;
}

/** The constraints of a scalar worth an agent's attention, in parentheses: `string(date-time)`, `integer(1..100)`. */
function scalar(type: string, s: JsonObject): string {
  const notes: string[] = [];
  if (typeof s.format === 'string') notes.push(s.format);
  const length = type === 'string' ? range(s.minLength, s.maxLength) : range(s.minimum ?? s.exclusiveMinimum, s.maximum ?? s.exclusiveMaximum);
  if (length) notes.push(length);
  if (type === 'string' && typeof s.pattern === 'string' && s.pattern.length <= 40) notes.push(`/${s.pattern}/`);
  return notes.length ? `${type}(${notes.join(', ')})` : type;
}

export interface TypeTextOptions {
  /** How many levels of objects are written out; deeper ones are named (their title) or `object`. */
  depth?: number;
  /** Write a named schema (one with a `title`) by its name below the top level. Default true. */
  names?: boolean;
}

/** A schema as one line: `{ id: string(1..64); tags?: string[] (<=50) }`, `Cart | null`, `"a" | "b"`. */
export function typeText(schema: unknown, options: TypeTextOptions = {}, level = 0): string {
  if (schema === true || schema === undefined) return 'any';
  if (schema === false) return 'never';
  if (typeof schema !== 'object' || schema === null) return 'any';
  const depth = options.depth ?? 1;
  let s = schema as JsonObject;
  if (level > 0 && options.names !== false && typeof s.title === 'string' && /^[A-Z][A-Za-z0-9]*$/.test(s.title)) return s.title;
  if (Array.isArray(s.allOf)) s = mergeAllOf(s);
  if ('const' in s) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) {
    const shown = s.enum.slice(0, MAX_ENUM).map((v: unknown) => JSON.stringify(v));
    return shown.join(' | ') + (s.enum.length > MAX_ENUM ? ` | … (${s.enum.length} values)` : '');
  }
  const alternatives = (s.oneOf ?? s.anyOf) as unknown[] | undefined;
  if (Array.isArray(alternatives)) return alternatives.map((a) => typeText(a, options, level + 1)).join(' | ');
  const types: string[] = Array.isArray(s.type) ? s.type : typeof s.type === 'string' ? [s.type] : s.properties ? ['object'] : s.items ? ['array'] : [];
  if (types.length === 0) return 'any';
  return types
    .map((type) => {
      if (type === 'null') return 'null';
      if (type === 'array') {
        const bound = range(s.minItems, s.maxItems);
        const item = typeText(s.items, options, level + 1);
        return `${/[ |]/.test(item) && !item.startsWith('{') ? `(${item})` : item}[]${bound ? ` (${bound} items)` : ''}`;
      }
      if (type === 'object') {
        const properties = (s.properties ?? {}) as Record<string, unknown>;
        const names = Object.keys(properties);
        if (names.length === 0) return s.additionalProperties && typeof s.additionalProperties === 'object' ? `Record<string, ${typeText(s.additionalProperties, options, level + 1)}>` : 'object';
        if (level >= depth) return `object (${names.length} fields)`;
        const required = new Set((s.required as string[] | undefined) ?? []);
        return `{ ${names.map((n) => `${n}${required.has(n) ? '' : '?'}: ${typeText(properties[n], options, level + 1)}`).join('; ')} }`;
      }
      return scalar(type, s);
    })
    .join(' | ');
}

/** An object schema's fields, one line each: `name: "string(1..255), required: The product's name."` */
export function fieldLines(schema: unknown, options: TypeTextOptions & { /** Each field's first sentence (default true). */ about?: boolean } = {}): Record<string, string> {
  if (!schema || typeof schema !== 'object') return {};
  const s = mergeAllOf(schema as JsonObject);
  const properties = (s.properties ?? {}) as Record<string, JsonObject>;
  const required = new Set((s.required as string[] | undefined) ?? []);
  const out: Record<string, string> = {};
  for (const [name, property] of Object.entries(properties)) {
    const about = options.about === false ? undefined : firstSentence(property?.description, 100);
    out[name] = `${typeText(property, { depth: 0, ...options }, 1)}${required.has(name) ? ', required' : ''}${about ? `: ${about}` : ''}`;
  }
  return out;
}

/**
 * A value cut to its shape: at most `items` entries per list (the count of the rest said in a last
 * entry), strings at most `chars` characters, objects below `depth` levels summarised.
 */
export function shapeOf(value: unknown, options: { items?: number; chars?: number; depth?: number } = {}, level = 0): unknown {
  const items = options.items ?? 1;
  const chars = options.chars ?? 80;
  const depth = options.depth ?? 6;
  if (typeof value === 'string') return value.length <= chars ? value : `${value.slice(0, chars)}…(${value.length} chars)`;
  if (value === null || typeof value !== 'object') return value;
  if (level >= depth) return Array.isArray(value) ? `[… ${value.length} items]` : `{… ${Object.keys(value).length} fields}`;
  if (Array.isArray(value)) {
    const kept = value.slice(0, items).map((v) => shapeOf(v, options, level + 1));
    return value.length > items ? [...kept, `… ${value.length - items} more`] : kept;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = shapeOf(v, options, level + 1);
  return out;
}

export const byteLength = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

/**
 * `value` within `maxBytes` of JSON: cut by `shapeOf` with ever smaller allowances until it fits; a value
 * that does not fit even as its outline is replaced by a note. `truncated` says whether anything was cut.
 */
export function bounded(value: unknown, maxBytes: number): { value: unknown; truncated: boolean } {
  if (byteLength(value) <= maxBytes) return { value, truncated: false };
  for (const [items, chars, depth] of [
    [20, 400, 8],
    [10, 200, 6],
    [5, 120, 5],
    [3, 80, 4],
    [1, 60, 3],
    [1, 40, 2],
  ] as const) {
    const cut = shapeOf(value, { items, chars, depth });
    if (byteLength(cut) <= maxBytes) return { value: cut, truncated: true };
  }
  return { value: `(${byteLength(value)} bytes of JSON, too large to show: narrow the request)`, truncated: true };
}

/** Field names whose values are credentials wherever they appear in an answer. */
const SECRET_FIELDS = /^(access_token|refresh_token|token|secret|signing_secret|api_key|apikey|password|otp|authorization|x-api-key)$/i;
export const REDACTED = '[redacted]';
/** What stands for a webhook's signing secret: why, and where a receiver gets one. */
export const REDACTED_SIGNING_SECRET =
  '[redacted: signing secrets are never shown to agents; your code keeps the one createWebhook answers it, or `storefront-contract webhooks listen --forward-to <receiver>` signs with its own]';

/**
 * `value` with every credential replaced: fields named like one, and any string equal to or holding a
 * secret this server knows (the keys and tokens it signed in with). Nothing an agent reads carries one.
 */
export function redacted(value: unknown, secrets: ReadonlySet<string> = new Set()): unknown {
  if (typeof value === 'string') {
    let text = value;
    for (const secret of secrets) if (secret.length >= 8 && text.includes(secret)) text = text.split(secret).join(REDACTED);
    return text;
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redacted(v, secrets));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const secret = SECRET_FIELDS.test(k) && v !== null && v !== undefined && v !== '';
    out[k] = secret ? (/secret/i.test(k) ? REDACTED_SIGNING_SECRET : REDACTED) : redacted(v, secrets);
  }
  return out;
}
