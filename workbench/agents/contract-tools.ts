// The contract in small, exact pieces, for an agent that must not guess a field: search by words, one
// operation, one schema, one event, and what is stated by the platform versus designed here. Everything is
// derived from the run-time contract model (../contract/model.ts), the library's webhook catalog and the
// register of designed decisions (spec/inferred/): a new operation, schema, event or decision is found
// and answered with no change here. Each answer is bounded (an operation's card fits in 2 KB).
import { basePathTemplate } from 'storefront-contract/contract';
import { deliveryRules, webhookEvents } from 'storefront-contract';
import { loadContract, mergeAllOf, type Contract, type ContractDocument, type ContractOperation, type JsonObject } from '../contract/model.js';
import { decisionRegister, type DecisionEntry } from '../contract/register.js';
import { bounded, byteLength, fieldLines, firstSentence, shapeOf, typeText } from './compact.js';
import { objectSchema, ToolError, type AgentTool } from './tool.js';

/** The budget of one operation's card, in bytes of JSON (issue 41: any operation <= 2 KB). */
export const OPERATION_CARD_BYTES = 2048;
const SCHEMA_CARD_BYTES = 6144;
const EVENT_CARD_BYTES = 8192;

type ApiName = 'storefront' | 'admin';
const REST_APIS: readonly ApiName[] = ['storefront', 'admin'];

export type Provenance = 'stated by the platform' | 'designed here';

/** `x-contract-source` as the published docs say it. */
export function provenanceOf(node: JsonObject | undefined): Provenance | undefined {
  const source = node?.['x-contract-source'];
  return source === 'seed' ? 'stated by the platform' : source === 'inferred' ? 'designed here' : undefined;
}

/** The contract's parts an agent can look up, read once per process from the model. */
export interface ContractIndex {
  contract: Contract;
  operations: ContractOperation[];
  /** Named schemas of the REST documents and the webhook payloads, by name. */
  schemas: Map<string, { api: string; schema: JsonObject }>;
  decisions: DecisionEntry[];
}

let index: Promise<ContractIndex> | undefined;

export function contractIndex(): Promise<ContractIndex> {
  index ??= (async () => {
    const [contract, decisions] = await Promise.all([loadContract(), decisionRegister()]);
    const operations = REST_APIS.flatMap((api) => contract[api].operations);
    const schemas = new Map<string, { api: string; schema: JsonObject }>();
    for (const api of ['storefront', 'admin', 'webhooks'] as const) collectSchemas(contract[api].document, api, schemas);
    return { contract, operations, schemas, decisions };
  })();
  index.catch(() => (index = undefined));
  return index;
}

/**
 * Every named schema a document reaches: a node with a PascalCase `title` (each schema file of the spec has
 * one, its file's name) that is a schema. The documents reference schema files directly, so the names are
 * the titles, not a `components.schemas` list.
 */
function collectSchemas(document: JsonObject, api: string, into: Map<string, { api: string; schema: JsonObject }>): void {
  const seen = new Set<object>();
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) return node.forEach(walk);
    const n = node as JsonObject;
    const isSchema = 'type' in n || 'properties' in n || 'allOf' in n || 'oneOf' in n || 'anyOf' in n || 'enum' in n;
    if (typeof n.title === 'string' && /^[A-Z][A-Za-z0-9]*$/.test(n.title) && isSchema && !into.has(n.title)) into.set(n.title, { api, schema: n });
    for (const [key, value] of Object.entries(n)) if (key !== 'examples' && key !== 'example') walk(value);
  };
  walk(document);
}

// --- Search -----------------------------------------------------------------------------------------

type Kind = 'operation' | 'schema' | 'event' | 'decision';
const KINDS: readonly Kind[] = ['operation', 'schema', 'event', 'decision'];

interface Entry {
  kind: Kind;
  name: string;
  summary: string;
  /** The tool call that reads it whole. */
  read: string;
  words: { name: Set<string>; title: Set<string>; text: Set<string> };
}

/** Words of a text: camelCase and snake_case split, lower case, a plural's `s` dropped. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1)
    .map((w) => (w.length > 3 && w.endsWith('ies') ? `${w.slice(0, -3)}y` : w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));
}

const wordSet = (...texts: unknown[]) => new Set(texts.flatMap((t) => (typeof t === 'string' ? wordsOf(t) : [])));

let entries: Promise<Entry[]> | undefined;

function searchEntries(): Promise<Entry[]> {
  entries ??= contractIndex().then(({ operations, schemas, decisions }) => [
    ...operations.map<Entry>((op) => ({
      kind: 'operation',
      name: op.operationId,
      summary: `${op.api}: ${op.method.toUpperCase()} ${op.path}: ${op.definition.summary ?? ''}`.trim(),
      read: `contract_operation { "operation_id": "${op.operationId}" }`,
      words: {
        name: wordSet(op.operationId),
        title: wordSet(op.definition.summary, op.path, ...(op.definition.tags ?? [])),
        text: wordSet(op.definition.description, ...op.parameters.map((p) => p.name)),
      },
    })),
    ...[...schemas].map<Entry>(([name, { api, schema }]) => ({
      kind: 'schema',
      name,
      summary: `${api}: ${firstSentence(schema.description, 120) ?? name}`,
      read: `contract_schema { "name": "${name}" }`,
      words: { name: wordSet(name), title: wordSet(schema.title), text: wordSet(schema.description, ...Object.keys(schema.properties ?? {})) },
    })),
    ...webhookEvents.map<Entry>((e) => ({
      kind: 'event',
      name: e.event,
      summary: `${e.family}: ${e.summary}`,
      read: `contract_event { "event": "${e.event}" }`,
      words: { name: wordSet(e.event), title: wordSet(e.title, e.family), text: wordSet(e.summary) },
    })),
    ...decisions.map<Entry>((d) => ({
      kind: 'decision',
      name: d.id,
      summary: `${d.register}: ${d.title}`,
      read: `contract_provenance { "id": "${d.id}" }`,
      words: { name: wordSet(d.id), title: wordSet(d.title), text: wordSet(d.decision, d.reason) },
    })),
  ]);
  entries.catch(() => (entries = undefined));
  return entries;
}

function score(entry: Entry, words: string[]): number {
  let total = 0;
  for (const w of words) {
    const hit = (set: Set<string>) => set.has(w) || [...set].some((s) => s.length >= 4 && w.length >= 4 && (s.startsWith(w) || w.startsWith(s)));
    if (hit(entry.words.name)) total += 5;
    else if (hit(entry.words.title)) total += 3;
    else if (hit(entry.words.text)) total += 1;
  }
  return total;
}

const searchTool: AgentTool = {
  name: 'contract_search',
  title: 'Search the contract',
  description:
    'Find operations, schemas, webhook events and designed decisions of the storefront contract by words (e.g. "coupon", "cart expiry", "order created"). Each result names the tool call that reads it whole. Use this before writing code that calls the API: look fields up, never guess them.',
  inputSchema: objectSchema(
    {
      query: { type: 'string', minLength: 1, maxLength: 200, description: 'Words to look for.' },
      kinds: { type: 'array', items: { enum: [...KINDS] }, uniqueItems: true, description: 'Only these kinds (default all).' },
      limit: { type: 'integer', minimum: 1, maximum: 25, default: 10 },
    },
    ['kinds', 'limit'],
  ),
  outputSchema: objectSchema(
    {
      query: { type: 'string' },
      total: { type: 'integer', description: 'Matches in all; `results` holds the best `limit`.' },
      results: {
        type: 'array',
        items: objectSchema({ kind: { enum: [...KINDS] }, name: { type: 'string' }, summary: { type: 'string' }, read: { type: 'string' } }),
      },
      hint: { type: 'string', description: 'When nothing matches: what to try.' },
    },
    ['hint'],
  ),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run(input: { query: string; kinds?: Kind[]; limit?: number }) {
    const words = [...new Set(wordsOf(input.query))];
    if (words.length === 0) throw new ToolError(`query "${input.query.slice(0, 60)}" has no word to look for: give a word of two letters or more`);
    const kinds = new Set(input.kinds?.length ? input.kinds : KINDS);
    const ranked = (await searchEntries())
      .filter((e) => kinds.has(e.kind))
      .map((e) => ({ e, s: score(e, words) }))
      .filter((r) => r.s > 0)
      .sort((a, b) => b.s - a.s || KINDS.indexOf(a.e.kind) - KINDS.indexOf(b.e.kind) || a.e.name.localeCompare(b.e.name));
    return {
      query: input.query,
      total: ranked.length,
      results: ranked.slice(0, input.limit ?? 10).map(({ e }) => ({ kind: e.kind, name: e.name, summary: e.summary.slice(0, 200), read: e.read })),
      ...(ranked.length === 0 ? { hint: `nothing matches ${words.map((w) => `"${w}"`).join(', ')}: try the words of the platform (product, variant, cart, coupon, order, customer, webhook, fulfillment), or fewer words` } : {}),
    };
  },
};

// --- One operation ----------------------------------------------------------------------------------

function authText(op: ContractOperation, schemes: Record<string, JsonObject>): string[] {
  if (op.security.length === 0) return ['none'];
  return op.security.map((alternative) =>
    Object.keys(alternative)
      .map((name) => {
        const s = schemes[name];
        if (s?.type === 'apiKey') return `${name}: ${s.in} ${s.name}`;
        if (s?.type === 'http') return `${name}: Authorization: ${String(s.scheme).replace(/^./, (c) => c.toUpperCase())} <token>`;
        return name;
      })
      .join(' and '),
  );
}

function firstExample(media: JsonObject | undefined): unknown {
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const first = Object.values<JsonObject>(media.examples ?? {})[0];
  return first?.value;
}

const isSuccess = (status: string) => /^2/.test(status);

/** The operation as a card: what a caller sends and what it gets back, bounded to OPERATION_CARD_BYTES. */
export function operationCard(op: ContractOperation, contract: Contract, prefix = basePathTemplate[op.api as ApiName] ?? '', budget = OPERATION_CARD_BYTES): JsonObject {
  const schemes = (contract[op.api as ApiName] as ContractDocument | undefined)?.securitySchemes ?? {};
  const errorCodes = new Set<string>();
  let envelope: string | undefined;
  const responses: Record<string, JsonObject> = {};
  for (const [status, response] of Object.entries<JsonObject>(op.responses)) {
    const media = response.content?.['application/json'] as JsonObject | undefined;
    const example = firstExample(media) as JsonObject | undefined;
    const row: JsonObject = { about: firstSentence(response.description, 110) ?? '' };
    if (provenanceOf(response) === 'designed here') row.designed = true;
    if (isSuccess(status)) {
      if (media?.schema) row.type = typeof media.schema.title === 'string' ? media.schema.title : typeText(media.schema, { depth: 0 });
      if (example !== undefined) row.example = shapeOf(example, { items: 1, chars: 40, depth: 4 });
    } else {
      const code = example?.content?.error?.code;
      if (typeof code === 'string') {
        row.code = code;
        errorCodes.add(code);
      }
      if (media?.schema && !envelope) envelope = typeText(media.schema, { depth: 3, names: false });
    }
    responses[status] = row;
  }
  const body = op.requestBody?.content?.['application/json'] as JsonObject | undefined;
  const card: JsonObject = {
    operation_id: op.operationId,
    api: op.api,
    method: op.method.toUpperCase(),
    path: `${prefix}${op.path}`,
    summary: op.definition.summary ?? '',
    source: op.api === 'workbench' ? 'outside the contract (the workbench\'s own API)' : (provenanceOf(op.definition) ?? 'stated by the platform'),
    auth: authText(op, schemes),
    parameters: op.parameters.map((p) => ({
      name: p.name,
      in: p.in,
      ...(p.required ? { required: true } : {}),
      type: typeText(p.schema, { depth: 1 }),
      ...(provenanceOf(p) === 'designed here' ? { designed: true } : {}),
      about: firstSentence(p.description, 90) ?? '',
    })),
    ...(body ? { body: { required: op.requestBody?.required === true, type: typeof body.schema?.title === 'string' ? body.schema.title : typeText(body.schema, { depth: 0 }), fields: fieldLines(body.schema, { depth: 3 }) } } : {}),
    responses,
    ...(envelope ? { errors: { envelope, codes: [...errorCodes].sort() } } : {}),
    more: `contract_schema { "name": "<type>" } reads a type's fields; the reference: /docs/reference/${op.api}.html`,
  };
  return fitCard(card, op, budget);
}

/** Cuts a card down step by step (examples, then descriptions, then nested fields) until it fits `budget` bytes. */
function fitCard(card: JsonObject, op: ContractOperation, budget: number): JsonObject {
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  const steps: Array<(c: JsonObject) => void> = [
    (c) => Object.values<JsonObject>(c.responses).forEach((r) => r.example !== undefined && (r.example = shapeOf(r.example, { items: 1, chars: 20, depth: 2 }))),
    (c) => c.body && (c.body.fields = fieldLines(bodySchema, { depth: 3, about: false })),
    (c) => c.body && (c.body.fields = fieldLines(bodySchema, { depth: 2, about: false })),
    (c) => c.parameters.forEach((p: JsonObject) => (p.about = firstSentence(p.about, 40) ?? '')),
    (c) => Object.values<JsonObject>(c.responses).forEach((r) => delete r.example),
    (c) => Object.values<JsonObject>(c.responses).forEach((r) => (r.about = firstSentence(r.about, 40) ?? '')),
    (c) => c.parameters.forEach((p: JsonObject) => delete p.about),
  ];
  for (const step of steps) {
    if (byteLength(card) <= budget) break;
    step(card);
  }
  return card;
}

const operationTool = (ids: readonly string[]): AgentTool => ({
  name: 'contract_operation',
  title: 'Read one operation',
  description:
    'One operation of the storefront or Admin API as a compact card (at most 2 KB): method and full path, auth, parameters with types and bounds, the body\'s fields, every status with one example (success) or its error code, and the error envelope. Types named in it are read with contract_schema.',
  inputSchema: objectSchema({ operation_id: { enum: [...ids], description: 'An operationId, e.g. listProducts (contract_search finds them).' } }),
  outputSchema: {
    type: 'object',
    required: ['operation_id', 'api', 'method', 'path', 'source', 'auth', 'parameters', 'responses'],
    properties: {
      operation_id: { type: 'string' },
      api: { enum: [...REST_APIS] },
      method: { type: 'string' },
      path: { type: 'string' },
      summary: { type: 'string' },
      source: { enum: ['stated by the platform', 'designed here'] },
      auth: { type: 'array', items: { type: 'string' } },
      parameters: { type: 'array', items: { type: 'object', required: ['name', 'in', 'type'] } },
      body: { type: 'object', required: ['type', 'fields'] },
      responses: { type: 'object', additionalProperties: { type: 'object', required: ['about'] } },
      errors: { type: 'object', required: ['envelope', 'codes'] },
      more: { type: 'string' },
    },
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run(input: { operation_id: string }) {
    const { contract, operations } = await contractIndex();
    const op = operations.find((o) => o.operationId === input.operation_id);
    if (!op) throw new ToolError(`no operation "${input.operation_id}": contract_search finds operation ids`);
    return operationCard(op, contract);
  },
});

// --- One schema -------------------------------------------------------------------------------------

const schemaTool = (names: readonly string[]): AgentTool => ({
  name: 'contract_schema',
  title: 'Read one schema',
  description:
    'One named schema of the contract (REST bodies and webhook payloads): each field with its type, bounds, whether it is required and what it means, whether the platform states it or it is designed here, and the operations that use it.',
  inputSchema: objectSchema({ name: { enum: [...names], description: 'A schema name, e.g. Cart, Product, ErrorEnvelope.' } }),
  outputSchema: objectSchema(
    {
      name: { type: 'string' },
      api: { type: 'string' },
      source: { type: 'string' },
      about: { type: 'string' },
      type: { type: 'string' },
      fields: { type: 'object', additionalProperties: { type: 'string' } },
      used_by: { type: 'array', items: { type: 'string' } },
      truncated: { type: 'boolean' },
    },
    ['source', 'about', 'fields', 'truncated'],
  ),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run(input: { name: string }) {
    const { schemas, operations } = await contractIndex();
    const found = schemas.get(input.name);
    if (!found) throw new ToolError(`no schema "${input.name}": contract_search { "query": "...", "kinds": ["schema"] } finds schema names`);
    const { schema, api } = found;
    const fields = fieldLines(schema);
    const card: JsonObject = {
      name: input.name,
      api,
      ...(provenanceOf(schema) ? { source: provenanceOf(schema) } : {}),
      ...(firstSentence(schema.description, 300) ? { about: firstSentence(schema.description, 300) } : {}),
      type: Object.keys(fields).length ? 'object' : typeText(schema, { depth: 2 }),
      ...(Object.keys(fields).length ? { fields } : {}),
      used_by: operations.filter((op) => usesSchema(op, schema)).map((op) => op.operationId),
    };
    const cut = bounded(card, SCHEMA_CARD_BYTES);
    return { ...(cut.value as JsonObject), truncated: cut.truncated };
  },
});

/** Whether the operation's body or an answer reaches `schema` (the model shares one object per schema). */
function usesSchema(op: ContractOperation, schema: JsonObject): boolean {
  const seen = new Set<object>();
  const reaches = (node: unknown, depth: number): boolean => {
    if (!node || typeof node !== 'object' || depth > 12 || seen.has(node)) return false;
    if (node === schema) return true;
    seen.add(node);
    return Object.values(node).some((v) => reaches(v, depth + 1));
  };
  return reaches(op.requestBody, 0) || Object.values(op.responses).some((r) => reaches(r, 0));
}

// --- One event --------------------------------------------------------------------------------------

const eventNames = webhookEvents.map((e) => e.event);

const eventTool: AgentTool = {
  name: 'contract_event',
  title: 'Read one webhook event',
  description:
    'One webhook event: what raises it, its payload\'s fields (payload.properties), how deliveries are signed and retried, and its signed example delivery (headers and body) to test a receiver against.',
  inputSchema: objectSchema({ event: { enum: eventNames, description: 'An event name, e.g. order.created.' } }),
  outputSchema: objectSchema(
    {
      event: { type: 'string' },
      title: { type: 'string' },
      summary: { type: 'string' },
      family: { type: 'string' },
      source: { type: 'string' },
      properties: { type: 'object', additionalProperties: { type: 'string' } },
      delivery: { type: 'object' },
      example: { type: 'object', required: ['headers', 'body'] },
      truncated: { type: 'boolean' },
    },
    ['properties'],
  ),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run(input: { event: string }) {
    const entry = webhookEvents.find((e) => e.event === input.event);
    if (!entry) throw new ToolError(`no event "${input.event}": contract_search { "query": "...", "kinds": ["event"] } finds event names`);
    const { contract } = await contractIndex();
    const message = contract.webhooks.document.components?.messages?.[entry.event] as JsonObject | undefined;
    const properties = message?.payload ? propertiesOf(message.payload) : undefined;
    const card: JsonObject = {
      event: entry.event,
      title: entry.title,
      summary: entry.summary,
      family: entry.family,
      source: entry.contractSource === 'seed' ? 'stated by the platform' : 'designed here',
      properties: properties ? fieldLines(properties) : {},
      delivery: {
        method: deliveryRules.method,
        headers: deliveryRules.headers,
        signature: `${deliveryRules.signature.header}: ${deliveryRules.signature.prefix}<hex HMAC-SHA256 of the raw body, keyed with the webhook's secret>`,
        retries_after_seconds: deliveryRules.retryDelaysSeconds,
        success: deliveryRules.successStatus,
        at_least_once: `dedupe by ${deliveryRules.dedupeKey}`,
      },
      example: { headers: entry.example.headers, body: entry.example.payload },
    };
    const cut = bounded(card, EVENT_CARD_BYTES);
    return { ...(cut.value as JsonObject), truncated: cut.truncated };
  },
};

/** The `properties` object schema inside a delivery's envelope (payload.properties), when there is one. */
function propertiesOf(envelope: JsonObject): JsonObject | undefined {
  const outer = mergeAllOf(envelope) as JsonObject;
  const payload = mergeAllOf(outer.properties?.payload ?? {}) as JsonObject;
  return (payload.properties?.properties as JsonObject | undefined) ?? undefined;
}

// --- Provenance -------------------------------------------------------------------------------------

const provenanceTool: AgentTool = {
  name: 'contract_provenance',
  title: 'What the platform states, what is designed here',
  description:
    'The register of designed decisions: where the platform\'s document shows nothing, what this contract decided and why. Give an id (SF-001) for one decision, or words to filter, or nothing for the list (paged). Certification judges designed parts only as advice.',
  inputSchema: objectSchema(
    {
      id: { type: 'string', pattern: '^[A-Z]{2}-[0-9]{3}$', description: 'One decision, e.g. SF-036.' },
      query: { type: 'string', maxLength: 200 },
      register: { enum: ['storefront', 'admin', 'webhooks'] },
      offset: { type: 'integer', minimum: 0, default: 0 },
      limit: { type: 'integer', minimum: 1, maximum: 50, default: 20 },
    },
    ['id', 'query', 'register', 'offset', 'limit'],
  ),
  outputSchema: objectSchema(
    {
      rule: { type: 'string' },
      total: { type: 'integer' },
      decisions: {
        type: 'array',
        items: objectSchema({ id: { type: 'string' }, register: { type: 'string' }, title: { type: 'string' }, decision: { type: 'string' }, reason: { type: 'string' }, where: { type: 'array', items: { type: 'string' } } }, ['reason', 'where']),
      },
      next_offset: { type: 'integer' },
    },
    ['next_offset'],
  ),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run(input: { id?: string; query?: string; register?: string; offset?: number; limit?: number }) {
    const { decisions } = await contractIndex();
    const rule =
      'Parts marked "stated by the platform" are fixed by the platform\'s interface document; parts "designed here" fill what it does not show, each registered with its reason. Certification fails an implementation only on stated parts; designed parts give advice.';
    if (input.id) {
      const one = decisions.find((d) => d.id === input.id);
      if (!one) throw new ToolError(`no decision "${input.id}": call contract_provenance without an id to list them`);
      return { rule, total: 1, decisions: [{ id: one.id, register: one.register, title: one.title, decision: one.decision.slice(0, 1500), reason: one.reason.slice(0, 1500), where: one.where.slice(0, 20) }] };
    }
    const words = input.query ? wordsOf(input.query) : [];
    const matching = decisions.filter((d) => (!input.register || d.register === input.register) && words.every((w) => wordsOf(`${d.id} ${d.title} ${d.decision}`).some((x) => x.startsWith(w))));
    const offset = input.offset ?? 0;
    const limit = input.limit ?? 20;
    const page = matching.slice(offset, offset + limit).map((d) => ({ id: d.id, register: d.register, title: d.title, decision: firstSentence(d.decision, 160) ?? '' }));
    return { rule, total: matching.length, decisions: page, ...(offset + limit < matching.length ? { next_offset: offset + limit } : {}) };
  },
};

/** The contract tools, their enums (operation ids, schema names) read from the model. */
export async function contractTools(): Promise<AgentTool[]> {
  const { operations, schemas } = await contractIndex();
  return [searchTool, operationTool(operations.map((op) => op.operationId)), schemaTool([...schemas.keys()]), eventTool, provenanceTool];
}
