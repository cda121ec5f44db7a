// The sandbox for an agent: call any storefront or Admin operation on a store with sign-in handled, drive
// the workbench's own API (back office, clocks, faults, events, the console's reads) by operation id, and
// wait for a webhook to be delivered. Requests go to the workbench through a link (`WorkbenchLink`): its
// engine in process (the MCP endpoint of a running workbench) or its URL over HTTP. Both operation lists
// are the documents' own (the contract model, spec/workbench/openapi.yaml): nothing is listed here.
// Credentials the tools use (store keys, access tokens, admin tokens) never appear in a result.
import { basePath } from 'storefront-contract/contract';
import { webhookEvents } from 'storefront-contract';
import { workbenchDocument } from '../contract/files.js';
import { loadDocument, type ContractDocument, type ContractOperation, type JsonObject } from '../contract/model.js';
import { CONTROL_PREFIX as workbenchOperationsBasePath } from '../http/control-routes.js';
import { bounded, redacted } from './compact.js';
import { contractIndex, operationCard } from './contract-tools.js';
import { MAX_RESULT_BYTES, objectSchema, Slots, ToolError, type AgentTool } from './tool.js';

/** How the tools reach the workbench. */
export interface WorkbenchLink {
  /** One request to the workbench: its engine in process, or fetch over HTTP. */
  fetch(request: Request): Promise<Response>;
  /** The workbench's origin (`http://127.0.0.1:4010`): request URLs are built on it, certification targets it. */
  origin(): string;
  /** The Admin API token when the workbench accepts only one (STOREFRONT_ADMIN_TOKEN); otherwise one of the tools' own. */
  adminToken?: string;
  /** The store API key when the workbench accepts only one (STOREFRONT_API_KEY); otherwise each store's own (getKeys). */
  apiKey?: string;
}

const STORE_ID = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', default: 'demo-store', description: 'The store (any id: each store is its own seeded world).' };
// Bounded like the requests the engine takes (a URL a few KB long): values, names and counts.
const VALUE = { anyOf: [{ type: 'string', maxLength: 2000 }, { type: 'number' }, { type: 'boolean' }] };
const NAME = { type: 'string', pattern: '^[A-Za-z0-9_.\\[\\]-]{1,100}$' };
const PARAMS = { type: 'object', propertyNames: NAME, maxProperties: 10, additionalProperties: VALUE, description: 'Path parameters by name (besides store_id).' };
const QUERY = {
  type: 'object',
  propertyNames: NAME,
  maxProperties: 50,
  additionalProperties: { anyOf: [VALUE, { type: 'array', items: VALUE, maxItems: 50 }] },
  description: 'Query parameters by name; a list repeats the parameter.',
};
/** Headers an agent may send besides the credentials: names of a header, values of one line. */
const HEADERS = {
  type: 'object',
  propertyNames: { type: 'string', pattern: '^[A-Za-z0-9-]{1,100}$' },
  maxProperties: 20,
  additionalProperties: { type: 'string', maxLength: 2000, pattern: '^[^\\r\\n\\u0000]*$' },
  description: 'Other request headers (x-customer-group-id); credentials and transport headers are set by the tool.',
};
/** What both call tools take beside the operation id. */
const CALL_FIELDS = { store_id: STORE_ID, path: PARAMS, query: QUERY, body: { description: 'The JSON body, for operations that take one.' } };

/** The longest URL a result repeats back. */
const MAX_URL_CHARS = 2000;

const ANSWER = objectSchema(
  {
    operation_id: { type: 'string' },
    method: { type: 'string' },
    url: { type: 'string', description: 'The URL called, without credentials.' },
    status: { type: 'integer' },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    body: { description: 'The answer (JSON), credentials redacted, cut to fit when large.' },
    truncated: { type: 'boolean' },
    signed_in: { type: 'string', description: 'Who the call was made as.' },
    card: { type: 'object', description: 'With describe: the operation itself, no call made.' },
  },
  ['url', 'status', 'headers', 'body', 'truncated', 'signed_in', 'card', 'method'],
);

/** Headers of an answer worth an agent's reading (the rest are transport). */
const SHOWN_HEADERS = ['content-type', 'location', 'retry-after', 'www-authenticate', 'x-simulator', 'x-sandbox-warning', 'allow'];

/** What the tools signed in as, for one caller of a store: the anonymous shopper ('') or a customer. */
interface Identity {
  token?: string;
  /** The user the token was issued to (what `user_id` parameters name). */
  userId?: string;
  /** A sign-in under way: calls that arrive meanwhile share it instead of making their own. */
  signingIn?: Promise<string>;
}

interface Session {
  apiKey?: string;
  /** A key read under way, shared like a sign-in. */
  readingKey?: Promise<string>;
  /** By customer id ('' for the anonymous shopper): each keeps its own token, so switching costs nothing. */
  identities: Map<string, Identity>;
}

/** Customers a store's session keeps a token for; past it the least recently signed in is dropped. */
const IDENTITIES_PER_STORE = 50;

export class SandboxLink {
  /** Per store: the key and token the tools signed in with. */
  private readonly sessions = new Map<string, Session>();
  /** Every credential the tools hold: taken out of any result. */
  readonly secrets = new Set<string>();
  /** Delivery waits at once (each polls the store every 150 ms until its time-out). */
  readonly waits = new Slots(16, 'delivery waits');
  /** Certifications at once (each sends hundreds of requests). */
  readonly certifications = new Slots(2, 'certifications');
  private readonly adminCredential: string;

  constructor(readonly link: WorkbenchLink) {
    this.adminCredential = link.adminToken ?? 'agent-admin-token-of-this-workbench';
    this.secrets.add(this.adminCredential);
    if (link.apiKey) this.secrets.add(link.apiKey);
  }

  private session(storeId: string): Session {
    let s = this.sessions.get(storeId);
    if (!s) {
      s = { identities: new Map() };
      this.sessions.set(storeId, s);
      // Bounded: the tools of one server touch few stores; the oldest session is dropped past 1,000.
      if (this.sessions.size > 1000) {
        const [oldest, dropped] = this.sessions.entries().next().value as [string, Session];
        // Its credentials go with it: the secrets looked for in results stay as many as the sessions.
        for (const secret of [dropped.apiKey, ...[...dropped.identities.values()].map((i) => i.token)]) if (secret && secret !== this.link.apiKey) this.secrets.delete(secret);
        this.sessions.delete(oldest);
      }
    }
    return s;
  }

  async request(method: string, pathAndQuery: string, init: { headers?: Record<string, string>; body?: unknown } = {}): Promise<{ status: number; headers: Headers; body: unknown }> {
    const headers = new Headers(init.headers);
    let body: string | undefined;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers.set('content-type', 'application/json');
    }
    let response: Response;
    try {
      response = await this.link.fetch(new Request(`${this.link.origin()}${pathAndQuery}`, { method: method.toUpperCase(), headers, body }));
    } catch (error) {
      throw new ToolError(`the workbench at ${this.link.origin()} did not answer ${method.toUpperCase()} ${pathAndQuery.split('?')[0]}: ${(error as Error).message}; is it running?`);
    }
    const text = method.toUpperCase() === 'HEAD' ? '' : await response.text();
    let parsed: unknown = text;
    if (text && /json/.test(response.headers.get('content-type') ?? '')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: response.status, headers: response.headers, body: parsed };
  }

  /** The store's API key: the workbench's fixed one, else the store's own sandbox key (GET .../keys). */
  async apiKey(storeId: string): Promise<string> {
    if (this.link.apiKey) return this.link.apiKey;
    const s = this.session(storeId);
    if (s.apiKey) return s.apiKey;
    s.readingKey ??= this.readKey(storeId, s).finally(() => (s.readingKey = undefined));
    return s.readingKey;
  }

  private async readKey(storeId: string, s: Session): Promise<string> {
    const answer = await this.request('GET', `${workbenchOperationsBasePath}/stores/${encodeURIComponent(storeId)}/keys`);
    const key = (answer.body as JsonObject)?.content?.api_key;
    if (answer.status !== 200 || typeof key !== 'string') throw new ToolError(`could not read store ${storeId}'s API key from the workbench (status ${answer.status}); start it with --api-key, or set STOREFRONT_API_KEY for the tools`);
    this.secrets.add(key);
    s.apiKey = key;
    return key;
  }

  /** A storefront access token for the store: an anonymous user's, or a customer's (`customerId`), kept until refused. */
  async token(storeId: string, customerId?: string, fresh = false): Promise<string> {
    const s = this.session(storeId);
    const who = customerId ?? '';
    let identity = s.identities.get(who);
    if (!identity) {
      identity = {};
      s.identities.set(who, identity);
      if (s.identities.size > IDENTITIES_PER_STORE) {
        const [oldest, dropped] = s.identities.entries().next().value as [string, Identity];
        if (dropped.token) this.secrets.delete(dropped.token);
        s.identities.delete(oldest);
      }
    }
    if (!fresh && identity.token) return identity.token;
    if (identity.signingIn) return identity.signingIn;
    const id = identity;
    id.signingIn = this.signIn(storeId, id, customerId).finally(() => (id.signingIn = undefined));
    return id.signingIn;
  }

  private async signIn(storeId: string, identity: Identity, customerId: string | undefined): Promise<string> {
    let answer;
    if (customerId) {
      answer = await this.request('POST', `${workbenchOperationsBasePath}/stores/${encodeURIComponent(storeId)}/customers/${encodeURIComponent(customerId)}/sign-in`, { body: {} });
    } else {
      const { contract } = await contractIndex();
      const op = contract.storefront.operation('createAnonymousUser')!;
      answer = await this.request(op.method, `${basePath('storefront', storeId)}${op.path}`, { headers: { 'x-api-key': await this.apiKey(storeId) } });
    }
    const token = (answer.body as JsonObject)?.content?.access_token;
    if (answer.status >= 300 || typeof token !== 'string') {
      throw new ToolError(`could not sign in to store ${storeId}${customerId ? ` as customer ${customerId}` : ''}: status ${answer.status}, ${messageOf(answer.body)}`);
    }
    if (identity.token) this.secrets.delete(identity.token);
    this.secrets.add(token);
    identity.token = token;
    const user = (answer.body as JsonObject)?.content?.user?.id;
    identity.userId = typeof user === 'string' ? user : undefined;
    return token;
  }

  /** The user a store's token for this caller was issued to, when known. */
  userOf(storeId: string, customerId?: string): string | undefined {
    return this.sessions.get(storeId)?.identities.get(customerId ?? '')?.userId;
  }

  get adminToken(): string {
    return this.adminCredential;
  }

  /** A GET of the Admin API by operation id (its path from the contract model), with the admin token. */
  async admin(operationId: string, storeId: string, query: Record<string, unknown> = {}): Promise<{ status: number; headers: Headers; body: unknown }> {
    const { contract } = await contractIndex();
    const op = contract.admin.operation(operationId);
    if (!op) throw new ToolError(`the Admin API has no operation ${operationId}`);
    return this.request(op.method, `${basePath('admin', storeId)}${op.path}${queryString(query)}`, { headers: { authorization: `Bearer ${this.adminCredential}` } });
  }

  /** An answer as a tool's result: the headers worth reading, the body redacted and bounded. */
  result(op: { operationId: string; method: string }, url: string, answer: { status: number; headers: Headers; body: unknown }, signedIn: string): Record<string, unknown> {
    const headers: Record<string, string> = {};
    for (const name of SHOWN_HEADERS) {
      const value = answer.headers.get(name);
      if (value !== null) headers[name] = name === 'www-authenticate' ? value.slice(0, 200) : value.slice(0, 500);
    }
    // The body's share of the result: what the url (2,000), the headers (7 of at most 500) and the rest leave.
    const cut = bounded(redacted(answer.body, this.secrets), MAX_RESULT_BYTES - 6144);
    const shown = redacted(url, this.secrets) as string;
    return { operation_id: op.operationId, method: op.method.toUpperCase(), url: shown.length <= MAX_URL_CHARS ? shown : `${shown.slice(0, MAX_URL_CHARS)}…(${shown.length} chars)`, status: answer.status, headers, body: cut.value ?? null, truncated: cut.truncated, signed_in: signedIn };
  }
}

function messageOf(body: unknown): string {
  const message = (body as JsonObject)?.message;
  return typeof message === 'string' ? message.slice(0, 300) : typeof body === 'string' ? body.slice(0, 300) : 'no message';
}

/** `template` with its `{name}` parameters filled from `values` (percent-encoded); a missing one is named. */
function fillPath(template: string, values: Record<string, unknown>, op: string): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === '') throw new ToolError(`${op} needs the path parameter "${name}": give it in "path": { "${name}": ... }`);
    // A dot segment would be resolved away by the URL: the request would reach another route than the one named.
    if (value === '.' || value === '..') throw new ToolError(`${op}'s path parameter "${name}" may not be "${value}": it would name another path`);
    return encodeURIComponent(String(value));
  });
}

function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined && v !== null) params.append(name, String(v));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Who a request is made as, from the operation's security: the store's key, a storefront token, the admin token. */
async function credentials(sandbox: SandboxLink, op: ContractOperation, doc: ContractDocument, storeId: string, customerId: string | undefined): Promise<{ headers: Record<string, string>; as: string }> {
  if (op.security.length === 0) return { headers: {}, as: 'nobody (a public operation)' };
  // The first alternative the tools can satisfy: every scheme of it.
  const alternative = op.security[0];
  const headers: Record<string, string> = {};
  const as: string[] = [];
  for (const name of Object.keys(alternative)) {
    const scheme = doc.securitySchemes[name];
    if (scheme?.type === 'apiKey') {
      headers[String(scheme.name).toLowerCase()] = await sandbox.apiKey(storeId);
      as.push(`the store's API key (${scheme.name})`);
    } else if (scheme?.type === 'http' && op.api === 'admin') {
      headers.authorization = `Bearer ${sandbox.adminToken}`;
      as.push('an admin token');
    } else if (scheme?.type === 'http') {
      const token = await sandbox.token(storeId, customerId);
      headers.authorization = `Bearer ${token}`;
      const user = sandbox.userOf(storeId, customerId);
      as.push(`${customerId ? `customer ${customerId}'s access token` : "an anonymous user's access token"}${user ? ` (user ${user})` : ''}`);
    }
  }
  return { headers, as: as.join(' and ') };
}

interface CallInput {
  operation_id: string;
  store_id?: string;
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  headers?: Record<string, string>;
  body?: unknown;
  as_customer?: string;
  describe?: boolean;
}

/** Headers an agent may not set: the credentials, which the tools hold, and the transport's own. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'x-api-key', 'cookie']);
const TRANSPORT_HEADERS = new Set(['host', 'origin', 'content-length', 'transfer-encoding', 'connection', 'content-type', 'expect', 'upgrade', 'te', 'trailer']);

function sandboxCallTool(sandbox: SandboxLink, operations: ContractOperation[], docs: Record<string, ContractDocument>): AgentTool {
  return {
    name: 'sandbox_call',
    title: 'Call the storefront or Admin API',
    description:
      'Call one operation of the storefront or Admin API on a sandbox store, signed in for you (the store\'s API key, an anonymous shopper\'s token or a customer\'s with as_customer, an admin token). Answers the status, the headers worth reading and the JSON body (credentials redacted, long lists cut). contract_operation says what an operation takes. Operations: ' +
      operations.map((op) => op.operationId).join(', ') +
      '.',
    inputSchema: objectSchema(
      {
        operation_id: { enum: operations.map((op) => op.operationId) },
        ...CALL_FIELDS,
        headers: HEADERS,
        as_customer: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'Sign in as this customer of the store (a storefront token bound to it) instead of an anonymous shopper.' },
      },
      ['store_id', 'path', 'query', 'headers', 'body', 'as_customer'],
    ),
    outputSchema: ANSWER,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async run(input: CallInput) {
      const op = operations.find((o) => o.operationId === input.operation_id);
      if (!op) throw new ToolError(`no operation "${input.operation_id}"`);
      const storeId = input.store_id ?? 'demo-store';
      for (const name of Object.keys(input.headers ?? {})) {
        if (CREDENTIAL_HEADERS.has(name.toLowerCase())) throw new ToolError(`header "${name}" is set by the tool (it signs in for you): leave it out`);
        if (TRANSPORT_HEADERS.has(name.toLowerCase())) throw new ToolError(`header "${name}" is the transport's: leave it out`);
      }
      const url = `${basePath(op.api as 'storefront' | 'admin', storeId)}${fillPath(op.path, input.path ?? {}, op.operationId)}${queryString(input.query)}`;
      const send = async (fresh: boolean) => {
        if (fresh) await sandbox.token(storeId, input.as_customer, true);
        const auth = await credentials(sandbox, op, docs[op.api], storeId, input.as_customer);
        return { auth, answer: await sandbox.request(op.method, url, { headers: { ...input.headers, ...auth.headers }, body: input.body }) };
      };
      let { auth, answer } = await send(false);
      // A token the store no longer takes (its lifetime passed on the store's clock): signed in again, once.
      if (answer.status === 401 && auth.headers.authorization && op.api === 'storefront') ({ auth, answer } = await send(true));
      return sandbox.result(op, `${sandbox.link.origin()}${url}`, answer, auth.as);
    },
  };
}

function workbenchCallTool(sandbox: SandboxLink, document: ContractDocument): AgentTool {
  // Every JSON operation of the workbench API; the request log's Server-Sent Events stream is for pages.
  const operations = document.operations.filter((op) => op.responses['200']?.content?.['text/event-stream'] === undefined);
  return {
    name: 'workbench_call',
    title: 'Drive the sandbox (back office, clock, faults, events)',
    description:
      'Call the workbench\'s own API (outside the platform\'s contract): reset a store, set stock, create a cart, place an order and move its status, advance a store\'s clock, add a fault, raise an event, list events and delivery attempts. With describe: true, answers the operation\'s card (parameters, body fields) instead of calling it. Operations: ' +
      operations.map((op) => `${op.operationId} (${op.definition.summary ?? ''})`).join('; ') +
      '.',
    inputSchema: objectSchema(
      {
        operation_id: { enum: operations.map((op) => op.operationId) },
        ...CALL_FIELDS,
        describe: { type: 'boolean', default: false, description: 'Answer the operation\'s card instead of calling it.' },
      },
      ['store_id', 'path', 'query', 'body', 'describe'],
    ),
    outputSchema: ANSWER,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async run(input: CallInput) {
      const op = operations.find((o) => o.operationId === input.operation_id);
      if (!op) throw new ToolError(`no workbench operation "${input.operation_id}"`);
      if (input.describe) {
        const { contract } = await contractIndex();
        return { operation_id: op.operationId, card: operationCard(op, contract, workbenchOperationsBasePath, WORKBENCH_CARD_BYTES) };
      }
      const storeId = input.store_id ?? 'demo-store';
      if (input.path && 'store_id' in input.path) throw new ToolError('give the store as "store_id", not in "path"');
      const url = `${workbenchOperationsBasePath}${fillPath(op.path, { ...input.path, store_id: storeId }, op.operationId)}${queryString(input.query)}`;
      const answer = await sandbox.request(op.method, url, { body: input.body ?? (op.requestBody?.required ? {} : undefined) });
      return sandbox.result(op, `${sandbox.link.origin()}${url}`, answer, 'a local caller (the workbench API takes no credentials)');
    },
  };
}

interface WaitInput {
  include_test?: boolean;
  store_id?: string;
  event: string;
  event_id?: string;
  since?: string;
  timeout_seconds?: number;
}

const POLL_MS = 150;
/** A workbench operation's card: its bodies are larger than the contract's (a cart's 18 fields). */
const WORKBENCH_CARD_BYTES = 4096;

function waitTool(sandbox: SandboxLink): AgentTool {
  return {
    name: 'sandbox_wait_for_delivery',
    title: 'Wait for a webhook delivery',
    description:
      'Wait until an event of the store has been delivered to a subscribed receiver (an attempt answered 2XX), or until the timeout. Answers the newest delivered attempt, or the attempts so far with their status and error when none succeeded. Without event_id or since, any delivery of the event counts, an earlier one too: to wait for the one your action raises, give since (the time before it) or its event_id (workbench_call listEvents). Subscribe first (sandbox_call createWebhook); on a store with a clock of its own, retries follow that clock.',
    inputSchema: objectSchema(
      {
        store_id: STORE_ID,
        event: { enum: webhookEvents.map((e) => e.event) },
        event_id: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'Only this event (from workbench_call listEvents).' },
        since: { type: 'string', format: 'date-time', description: 'Only attempts scheduled at or after this time.' },
        timeout_seconds: { type: 'number', minimum: 0, maximum: 120, default: 20 },
        include_test: { type: 'boolean', default: false, description: 'Count test deliveries (sendTestWebhook) too.' },
      },
      ['store_id', 'event_id', 'since', 'timeout_seconds', 'include_test'],
    ),
    outputSchema: objectSchema(
      {
        delivered: { type: 'boolean' },
        waited_ms: { type: 'integer' },
        attempt: { type: 'object', description: 'The delivered attempt.' },
        attempts: { type: 'array', items: { type: 'object' }, description: 'Without a delivery: the newest attempts of the event.' },
        hint: { type: 'string' },
      },
      ['attempt', 'attempts', 'hint'],
    ),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async run(input: WaitInput, signal?: AbortSignal) {
      return sandbox.waits.run(() => waitFor(sandbox, input, signal));
    },
  };
}

async function waitFor(sandbox: SandboxLink, input: WaitInput, signal?: AbortSignal): Promise<Record<string, unknown>> {
  const storeId = input.store_id ?? 'demo-store';
  const since = input.since ? Date.parse(input.since) : undefined;
  const started = Date.now();
  const deadline = started + (input.timeout_seconds ?? 20) * 1000;
  const subscribed = await sandbox.admin('listWebhooks', storeId, { limit: 100 });
  const hooks = ((subscribed.body as JsonObject)?.content?.webhooks ?? []) as JsonObject[];
  const hears = hooks.some((h) => h.status === 'enabled' && (!Array.isArray(h.events) || h.events.length === 0 || h.events.includes(input.event) || h.events.includes('*')));
  if (subscribed.status === 200 && !hears) {
    throw new ToolError(`no enabled webhook of store ${storeId} subscribes to ${input.event}: create one first (sandbox_call createWebhook with a url that answers 2XX and events ["${input.event}"])`);
  }
  let last: JsonObject[] = [];
  for (;;) {
    // The Admin API's own list of attempts (the contract's listWebhookDeliveries), newest first.
    const answer = await sandbox.admin('listWebhookDeliveries', storeId, { event: input.event, ...(input.event_id ? { event_id: input.event_id } : {}), limit: 20 });
    if (answer.status !== 200) throw new ToolError(`the workbench answered ${answer.status} listing store ${storeId}'s delivery attempts: ${messageOf(answer.body)}`);
    last = (((answer.body as JsonObject)?.content?.deliveries ?? []) as JsonObject[]).filter(
      (a) => (since === undefined || Date.parse(String(a.scheduled_at)) >= since) && (input.include_test === true || a.is_test !== true),
    );
    const delivered = last.find((a) => a.status === 'succeeded');
    const waited = Date.now() - started;
    if (delivered) return { delivered: true, waited_ms: waited, attempt: redacted(delivered, sandbox.secrets) as JsonObject };
    // Past the time-out, or the caller went away (its transport closed): the attempts so far.
    if (Date.now() >= deadline || signal?.aborted) {
      const pending = last.some((a) => a.status === 'scheduled' || a.status === 'in_flight');
      return {
        delivered: false,
        waited_ms: waited,
        attempts: (bounded(redacted(last.slice(0, 5), sandbox.secrets), 8000).value as JsonObject[]) ?? [],
        hint:
          last.length === 0
            ? `no attempt of ${input.event} yet: was the event raised (workbench_call listEvents)? Is the webhook subscribed to it?`
            : pending
              ? 'attempts are still pending (a retry waits 5 s, 30 s, 300 s on the store\'s clock): wait longer, or advance the store\'s clock'
              : 'every attempt failed: see each attempt\'s response_status and error_class; the receiver must answer 2XX',
      };
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(0, deadline - Date.now()))));
  }
}

/** The sandbox tools over a link to the workbench. */
export async function sandboxTools(sandbox: SandboxLink): Promise<AgentTool[]> {
  const [{ contract, operations }, workbench] = await Promise.all([contractIndex(), loadDocument(workbenchDocument, 'workbench')]);
  return [sandboxCallTool(sandbox, operations, { storefront: contract.storefront, admin: contract.admin }), workbenchCallTool(sandbox, workbench), waitTool(sandbox)];
}

