// The event catalog as the console's "raise an event" form needs it: per event, the fields of its
// `payload.properties` model (from the AsyncAPI document, read once through the contract model) with
// their types, bounds and enums, and the catalog example's values to start from. The page builds one
// control per field (typed inputs, selects for enums and booleans, JSON for objects and arrays), so what
// it sends has the schema's shape; the simulator's trigger route validates the whole envelope again
// (event-builder.ts) and its 400 names the field, which the page shows next to it.
import { contractModel, mergeAllOf, type JsonObject } from '../contract/model.js';
import { catalogEntry, webhookEvents } from '../simulator/rules.js';

export interface EventField {
  name: string;
  /** JSON Schema types the field admits (`['string', 'null']`). */
  types: string[];
  required: boolean;
  enum?: unknown[];
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  description?: string;
}

export interface EventForm {
  event: string;
  title: string;
  summary: string;
  family: string;
  fields: EventField[];
  /** The catalog example's `payload.properties`: the form's starting values. */
  example: Record<string, unknown>;
}

let forms: Promise<EventForm[]> | undefined;

/** Every event of the catalog, in its order, with its form; built once per process. */
export function eventForms(): Promise<EventForm[]> {
  forms ??= build().catch((e) => {
    forms = undefined;
    throw e;
  });
  return forms;
}

async function build(): Promise<EventForm[]> {
  const messages = ((await contractModel('webhooks')).document.components?.messages ?? {}) as Record<string, JsonObject>;
  return webhookEvents.map((entry) => {
    const message = messages[entry.event];
    const model = message ? propertiesSchema(message.payload) : undefined;
    const required = new Set((model?.required as string[] | undefined) ?? []);
    const fields = Object.entries((model?.properties ?? {}) as Record<string, JsonObject>).map(([name, raw]) => field(name, raw, required.has(name)));
    const example = (catalogEntry(entry.event)?.example as { payload?: { payload?: { properties?: Record<string, unknown> } } } | undefined)?.payload?.payload?.properties ?? {};
    return { event: entry.event, title: entry.title, summary: entry.summary, family: entry.family, fields, example };
  });
}

/** The message's envelope schema down to `payload.properties` (allOf folded at each level). */
function propertiesSchema(envelope: JsonObject | undefined): JsonObject | undefined {
  const payload = envelope && (mergeAllOf(envelope).properties as JsonObject | undefined)?.payload;
  const properties = payload && (mergeAllOf(payload).properties as JsonObject | undefined)?.properties;
  return properties ? mergeAllOf(properties) : undefined;
}

function field(name: string, raw: JsonObject, required: boolean): EventField {
  const schema = mergeAllOf(raw);
  const variants = ((schema.oneOf ?? schema.anyOf) as JsonObject[] | undefined)?.map((s) => mergeAllOf(s));
  const types = new Set<string>();
  for (const s of [schema, ...(variants ?? [])]) {
    const t = s.type;
    if (Array.isArray(t)) t.forEach((x) => types.add(String(x)));
    else if (typeof t === 'string') types.add(t);
    else if (s.properties) types.add('object');
    else if (s.const === null) types.add('null');
  }
  const pick = <K extends keyof EventField>(key: K, value: unknown) => (value === undefined ? {} : ({ [key]: value } as Pick<EventField, K>));
  const description = typeof schema.description === 'string' ? schema.description.split('\n')[0].slice(0, 200) : undefined;
  return {
    name,
    types: types.size ? [...types] : ['object'],
    required,
    ...pick('enum', schema.enum),
    ...pick('format', schema.format),
    ...pick('minimum', schema.minimum),
    ...pick('maximum', schema.maximum),
    ...pick('minLength', schema.minLength),
    ...pick('maxLength', schema.maxLength),
    ...pick('pattern', schema.pattern),
    ...pick('description', description),
  };
}
