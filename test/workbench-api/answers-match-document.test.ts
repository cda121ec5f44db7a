// The workbench API's document (spec/workbench/openapi.yaml) against what a real workbench answers: every
// operation of the document is called at least once with a request that succeeds and, where cheap, with
// requests that fail (an unknown record, a bad body, a foreign caller, a bad percent-encoding, another media
// type, malformed JSON, a body over the limit); each answer's status must be one the operation declares, its
// body must validate (Ajv 2020, formats) against that status's schema, and its required headers must be
// there. A served workbench (createWorkbench on a loopback port): the console's routes exist only there.
// The document is read as Redocly bundles it. The last test fails when an operation was never called.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapePointerSegment, getPointer } from 'storefront-contract/contract';
import { createWorkbench, type Workbench } from '../../workbench/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const STORE = 'demo-store';
/** A store of its own for the writes whose answers must not depend on the other tests' (clock, faults). */
const SIDE = 'wb-api-side';
const FOREIGN = { origin: 'http://evil.example' };
const BAD_ENCODING = '%E0%A4';

type Json = any;

interface Operation {
  operationId: string;
  method: string;
  path: string;
  /** JSON pointer of the operation in the bundled document. */
  pointer: string;
  op: Json;
}

interface Answer {
  status: number;
  json: Json;
  text: string;
}

interface CallInit {
  query?: Record<string, string>;
  /** A JSON body (sent as application/json). */
  body?: unknown;
  /** A body sent as is, with `contentType`. */
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** Path parameters inserted as given (not percent-encoded): a bad encoding on purpose. */
  rawParams?: boolean;
  /** The workbench to call (default the full one). */
  on?: Workbench;
}


/** The document as `redocly bundle` writes it (external files lifted into components, internal $refs kept). */
function bundledDocument(): Json {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'workbench-api-'));
  try {
    const out = path.join(dir, 'workbench.json');
    execFileSync(path.join(root, 'node_modules/.bin/redocly'), ['bundle', 'spec/workbench/openapi.yaml', '--ext', 'json', '--output', out], {
      cwd: root,
      stdio: 'pipe',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    return JSON.parse(readFileSync(out, 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const doc: Json = bundledDocument();
const operations = new Map<string, Operation>();
for (const [template, item] of Object.entries<Json>(doc.paths)) {
  for (const method of METHODS) {
    const op = item[method];
    if (op) operations.set(op.operationId, { operationId: op.operationId, method: method.toUpperCase(), path: template, pointer: `#/paths/${escapePointerSegment(template)}/${method}`, op });
  }
}
const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
ajvFormats.default(ajv);
ajv.addSchema(doc, 'workbench');

/** Calls by operationId, and those answered 2XX. */
const called = new Map<string, number>();
const succeeded = new Map<string, number>();

let wb: Workbench;
/** A workbench without the sandbox and the simulator: the console's 404s for the parts it lacks. */
let bare: Workbench;
let receiver: Server;
let receiverUrl: string;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  wb = await createWorkbench({ port: 0, host: '127.0.0.1', quiet: true, webhooks: { timeScale: 0.01 }, console: { stream: { maxStreams: 1 } } });
  bare = await createWorkbench({ port: 0, host: '127.0.0.1', quiet: true, webhooks: false, sandbox: false });
});
afterAll(async () => {
  await wb?.close();
  await bare?.close();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

function resolveRef(ref: string): Json {
  return getPointer(doc, ref.slice(1));
}

/** The declared response of a status (or its range), with the pointer of where it is defined. */
function declared(op: Operation, status: number): { response: Json; pointer: string } | undefined {
  const key = [String(status), `${String(status)[0]}XX`].find((k) => op.op.responses[k] !== undefined);
  if (key === undefined) return undefined;
  const response = op.op.responses[key];
  if (response.$ref) return { response: resolveRef(response.$ref), pointer: response.$ref };
  return { response, pointer: `${op.pointer}/responses/${key}` };
}

/** Reads the first chunk of a stream (or gives up after `ms`), then cancels it. */
async function firstChunk(response: Response, ms = 5_000): Promise<string> {
  const reader = response.body!.getReader();
  let timer: NodeJS.Timeout | undefined;
  try {
    const chunk = await Promise.race([reader.read(), new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no chunk within ${ms} ms`)), ms)))]);
    return chunk.done ? '' : new TextDecoder().decode(chunk.value);
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => {});
  }
}

/**
 * One request of an operation: its answer must have a status the operation declares, the declared headers
 * that are required, and a body valid against the schema of its media type. `expected`: the status this
 * request is meant to get (the test fails otherwise, so each failure path is the one exercised).
 */
async function call(operationId: string, params: Record<string, string>, expected: number, init: CallInit = {}): Promise<Answer> {
  const op = operations.get(operationId);
  if (!op) throw new Error(`${operationId}: no such operation in spec/workbench/openapi.yaml`);
  called.set(operationId, (called.get(operationId) ?? 0) + 1);
  const pathname = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (params[name] === undefined) throw new Error(`${operationId}: no value for path parameter ${name}`);
    return init.rawParams ? params[name] : encodeURIComponent(params[name]);
  });
  const url = new URL(`${(init.on ?? wb).url}/__simulator${pathname === '/' ? '' : pathname}`);
  for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, v);
  const headers: Record<string, string> = { ...init.headers };
  let body: string | undefined;
  if (init.raw !== undefined) {
    body = init.raw;
    if (init.contentType) headers['content-type'] = init.contentType;
  } else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] = 'application/json';
  }
  const controller = new AbortController();
  const response = await fetch(url, { method: op.method, headers, body, signal: controller.signal });
  const where = `${operationId} (${op.method} ${url.pathname}${url.search}) answered ${response.status}`;
  const found = declared(op, response.status);
  if (!found) {
    const text = await response.text().catch(() => '');
    throw new Error(`${where}, a status the operation does not declare (it declares ${Object.keys(op.op.responses).join(', ')}): ${text.slice(0, 300)}`);
  }
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0].trim();
  const content = found.response.content ?? {};
  if (!(mediaType in content)) {
    controller.abort();
    throw new Error(`${where} as ${mediaType || 'no content type'}, which the response does not declare (${Object.keys(content).join(', ') || 'no content'})`);
  }
  for (const [name, header] of Object.entries<Json>(found.response.headers ?? {})) {
    const h = header.$ref ? resolveRef(header.$ref) : header;
    if (h.required && !response.headers.has(name)) throw new Error(`${where} without its required header ${name}`);
  }
  const text = mediaType === 'text/event-stream' ? await firstChunk(response) : await response.text();
  let json: Json = text;
  if (mediaType.endsWith('json')) {
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error(`${where} with a body that is not JSON: ${text.slice(0, 200)}`);
    }
  }
  const validate = ajv.getSchema(`workbench${found.pointer}/content/${escapePointerSegment(mediaType)}/schema`);
  if (!validate) throw new Error(`${where}: no schema at ${found.pointer} for ${mediaType}`);
  if (!validate(json)) {
    throw new Error(`${where} with a body its schema refuses: ${ajv.errorsText(validate.errors, { separator: '; ', dataVar: 'body' })}\n${text.slice(0, 500)}`);
  }
  if (response.status !== expected) throw new Error(`${where}, not ${expected} as this request expects: ${text.slice(0, 300)}`);
  if (response.status < 300) succeeded.set(operationId, (succeeded.get(operationId) ?? 0) + 1);
  return { status: response.status, json, text };
}

const S = { store_id: STORE };
const SIDE_STORE = { store_id: SIDE };

describe('the workbench API answers as its document says', () => {
  it('GET / and the store reads', async () => {
    const list = await call('describeSimulator', {}, 200);
    expect(Object.keys(list.json.content.routes).length).toBeGreaterThan(30);
    const world = await call('getWorld', S, 200);
    expect(world.json.content.store_id).toBe(STORE);
    await call('getKeys', S, 200);
    const locations = await call('getWorldResource', { ...S, resource: 'locations' }, 200);
    expect(Array.isArray(locations.json)).toBe(true);
    await call('getWorldResource', { ...S, resource: 'planets' }, 404);
    await call('resetStore', SIDE_STORE, 200);
    await call('signInCustomer', { ...S, customer_id: 'cst_9XK2PL' }, 200);
    await call('signInCustomer', { ...S, customer_id: 'cst_nobody' }, 404);
  });

  it('carts, orders, products and stock', async () => {
    const cart = { ...S, cart_id: 'crt_wb_api' };
    await call('createCart', S, 201, { body: { id: 'crt_wb_api', customer_id: 'cst_9XK2PL', cart_items: [{ product_id: 'prd_5T9W3N', quantity: 1 }] } });
    await call('createCart', S, 400, { body: { id: 'crt wb api', colour: 'red' } });
    await call('createCart', S, 409, { body: { cart_items: [{ product_id: 'prd_5T9W3N', quantity: 1_000_000_000 }] } });
    await call('updateCart', cart, 200, { body: { customer_note: 'Leave at the door.' } });
    await call('updateCart', { ...S, cart_id: 'crt_nope' }, 404, { body: { customer_note: 'x' } });
    await call('updateCart', cart, 400, { body: {} });
    await call('addCartItem', cart, 200, { body: { product_id: 'prd_2C4R8J', quantity: 2 } });
    await call('addCartItem', cart, 400, { body: { product_id: 'prd_7Q2K9X', quantity: 0 } });
    await call('addCartItem', { ...S, cart_id: 'crt_nope' }, 404, { body: { product_id: 'prd_2C4R8J', quantity: 1 } });
    await call('updateCartItem', { ...cart, variant_id: 'var_2C4R8K' }, 200, { body: { quantity: 3 } });
    await call('updateCartItem', { ...cart, variant_id: 'var_2C4R8K' }, 400, { body: { quantity: -1 } });
    await call('removeCartItem', { ...cart, variant_id: 'var_2C4R8K' }, 200);
    await call('removeCartItem', { ...cart, variant_id: 'var_2C4R8K' }, 404);
    await call('updateCartItem', { ...cart, variant_id: 'var_2C4R8K' }, 404, { body: { quantity: 1 } });

    const placed = await call('placeOrder', S, 201, { body: { cart_id: 'crt_wb_api', customer_note: 'Gift wrap, please.' } });
    const order = { ...S, order_number: placed.json.content.order.order_number as string };
    await call('placeOrder', S, 400, { body: { cart: 'crt_wb_api' } });
    await call('placeOrder', S, 404, { body: { cart_id: 'crt_nope' } });
    await call('placeOrder', S, 409, { body: { cart_id: 'crt_wb_api' } });
    await call('moveOrder', order, 200, { body: { status: 'confirmed' } });
    await call('moveOrder', order, 400, { body: { status: 'lost' } });
    await call('moveOrder', { ...S, order_number: 'SO-1999-000000' }, 404, { body: { status: 'confirmed' } });
    await call('moveOrder', order, 409, { body: { status: 'delivered' } });
    // An ordered cart stays as it was ordered.
    await call('updateCart', cart, 409, { body: { customer_note: 'x' } });
    await call('addCartItem', cart, 409, { body: { product_id: 'prd_2C4R8J', quantity: 1 } });
    await call('updateCartItem', { ...cart, variant_id: 'var_5T9W3P' }, 409, { body: { quantity: 2 } });
    await call('removeCartItem', { ...cart, variant_id: 'var_5T9W3P' }, 409);
    await call('deleteCart', cart, 409);
    await call('createCart', S, 201, { body: { id: 'crt_wb_spare' } });
    await call('deleteCart', { ...S, cart_id: 'crt_wb_spare' }, 200);
    await call('deleteCart', { ...S, cart_id: 'crt_wb_spare' }, 404);

    const product = { ...S, product_id: 'prd_wb_api' };
    const created = await call('createProduct', S, 201, { body: { id: 'prd_wb_api', name: 'Rose Lip Tint', category_ids: ['cat_lips'], selling_price: 499, stock: 25, variants: [{ name: 'Rose' }, { name: 'Coral', selling_price: 519.5 }] } });
    const [rose] = created.json.content.product.variants.map((v: { id: string }) => v.id) as string[];
    await call('createProduct', S, 400, { body: { name: ' ', category_ids: ['cat_nope'], selling_price: 0 } });
    await call('updateProduct', product, 200, { body: { selling_price: 549, tags: ['new'] } });
    await call('updateProduct', product, 400, { body: { price: 1 } });
    await call('updateProduct', { ...S, product_id: 'prd_nope' }, 404, { body: { active: false } });
    // 2,000 units in a cart, then a price that would carry its total past the largest amount.
    await call('createCart', S, 201, { body: { id: 'crt_wb_big', cart_items: [{ product_id: 'prd_wb_api', variant_id: rose, quantity: 2000 }] } });
    await call('updateProduct', product, 409, { body: { selling_price: 1_000_000_000 } });

    await call('moveStock', S, 200, { body: { product_id: 'prd_wb_api', variant_id: rose, stock_quantity: 5 } });
    await call('moveStock', S, 200, { body: { product_id: 'prd_wb_api', all_variants: true, adjust: 10 } });
    await call('moveStock', S, 400, { body: { product_id: 'prd_wb_api', variant_id: rose, stock_quantity: 5, adjust: 1 } });
    await call('moveStock', S, 404, { body: { product_id: 'prd_nope', stock_quantity: 5 } });
    await call('moveStock', S, 409, { body: { product_id: 'prd_wb_api', variant_id: rose, adjust: -100 } });
  });

  it('the simulator: raising and listing events', async () => {
    const hook = await fetch(`${wb.url}/api/v1/${STORE}/admin/webhooks`, {
      method: 'POST',
      headers: { authorization: 'Bearer wb-api-test', 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiverUrl, events: ['order.created'] }),
    });
    expect(hook.status).toBe(201);
    const raised = await call('raiseEvent', S, 202, { body: { event: 'order.created', properties: { customer_note: 'raised by a test' } } });
    const delivery = raised.json.content.deliveries[0]?.delivery_id as string;
    expect(delivery).toMatch(/^dlv_/);
    await call('raiseEvent', S, 400, { body: { event: 'order.misplaced' } });
    await call('raiseEvent', S, 400, { body: { event: 'order.created', colour: 'red' } });
    const listed = await call('listEvents', S, 200, { query: { limit: '2' } });
    expect(listed.json.content.events.length).toBeGreaterThan(0);
    await call('listEvents', S, 200, { query: { delivery_id: delivery } });
    await call('listEvents', S, 200, { query: { since: '2000-01-01T00:00:00Z' } });
    await call('listEvents', S, 400, { query: { since: 'yesterday' } });
    await call('listEvents', S, 400, { query: { limit: '5000' } });
    await call('listEvents', S, 404, { query: { delivery_id: 'dlv_nope' } });
  });

  it('the clock', async () => {
    await call('getClock', S, 200);
    const set = await call('setClock', SIDE_STORE, 200, { body: { now: '2026-12-24T10:00:00Z', frozen: true } });
    expect(set.json.content.frozen).toBe(true);
    await call('setClock', SIDE_STORE, 200, { body: { advance: 'P1DT2H' } });
    await call('setClock', SIDE_STORE, 400, { body: { now: '2026-02-30T10:00:00Z' } });
    await call('setClock', SIDE_STORE, 400, { body: { now: '2026-12-24T10:00:00Z', advance: 'PT1M' } });
    await call('releaseClock', SIDE_STORE, 200);
  });

  it('fault rules', async () => {
    const added = await call('addFault', SIDE_STORE, 201, { body: { operation: 'listProducts', status: 400, rate: 0.3, seed: 's1' } });
    const rule = added.json.content.rule.id as string;
    await call('addFault', SIDE_STORE, 201, { body: { operation: '*', delay_ms: { min: 0, max: 5 }, times: 1, seed: 7 } });
    await call('addFault', SIDE_STORE, 400, { body: { operation: 'listProduct', delay_ms: -1 } });
    await call('listFaults', SIDE_STORE, 200);
    await call('deleteFault', { ...SIDE_STORE, fault_id: rule }, 200);
    await call('deleteFault', { ...SIDE_STORE, fault_id: rule }, 404);
    await call('deleteFaults', SIDE_STORE, 200);
    // A store holds at most 32 rules.
    for (let i = 0; i < 32; i++) await call('addFault', SIDE_STORE, 201, { body: { operation: '*', delay_ms: 1 } });
    await call('addFault', SIDE_STORE, 409, { body: { operation: '*', delay_ms: 1 } });
    const cleared = await call('deleteFaults', SIDE_STORE, 200);
    expect(cleared.json.content.removed).toBe(32);
  });

  it("the console's reads", async () => {
    await call('getConsole', {}, 200);
    const log = await call('listRequests', {}, 200);
    const first = log.json.requests[0]?.id as number;
    await call('getRequest', { id: String(first) }, 200);
    await call('getRequest', { id: '999999' }, 404);
    await call('getRequest', { id: 'latest' }, 404);
    await call('listEventForms', {}, 200);
    for (const resource of ['products', 'carts', 'orders', 'customers']) await call('browseStore', { ...S, resource }, 200, { query: { limit: '2' } });
    await call('browseStore', { ...S, resource: 'carts' }, 200, { query: { q: 'crt_wb_api', offset: '0' } });
    await call('browseStore', { ...S, resource: 'products' }, 400, { query: { limit: '51' } });
    await call('browseStore', { ...S, resource: 'planets' }, 404);
    await call('browseStore', { ...S, resource: 'carts' }, 404, { on: bare });
    await call('listSubscriptions', S, 200);
    await call('listSubscriptions', S, 404, { on: bare });
    // The delivery of the event raised above, once it was sent (its signature can be judged then).
    await expect.poll(async () => (await call('listAttempts', S, 200, { query: { limit: '5' } })).json.deliveries.some((d: { sent_at: string | null }) => d.sent_at !== null)).toBe(true);
    await call('listAttempts', S, 200, { query: { status: 'succeeded', page: '1' } });
    await call('listAttempts', S, 400, { query: { colour: 'red' } });
    await call('listAttempts', S, 400, { query: { status: 'lost' } });
    await call('listAttempts', S, 404, { on: bare });
    // The log as a stream: its first chunk; a second stream is one too many here (maxStreams 1).
    const streamed = await streamOnce();
    expect(streamed).toMatch(/^retry: 2000/);
  });

  it('every operation refuses a foreign caller (403) and a bad percent-encoding in a path parameter (400)', async () => {
    for (const op of operations.values()) {
      const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const params = Object.fromEntries(names.map((n) => [n, n === 'store_id' ? SIDE : 'x']));
      await call(op.operationId, params, 403, { headers: FOREIGN });
      if (names.length) await call(op.operationId, { ...params, [names[0]]: BAD_ENCODING }, 400, { rawParams: true });
    }
  });

  it('every operation with a body refuses another media type (415) and malformed JSON (400); a body over 1 MiB is 413', async () => {
    for (const op of operations.values()) {
      if (!op.op.requestBody) continue;
      const params = Object.fromEntries([...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => [m[1], m[1] === 'store_id' ? SIDE : 'x']));
      await call(op.operationId, params, 415, { raw: 'a=1', contentType: 'application/x-www-form-urlencoded' });
      await call(op.operationId, params, 400, { raw: '{"a": ', contentType: 'application/json' });
      await call(op.operationId, params, 400, { raw: '[1, 2]', contentType: 'application/json' });
    }
    const big = JSON.stringify({ customer_note: 'x'.repeat(1024 * 1024 + 10) });
    await call('createCart', SIDE_STORE, 413, { raw: big, contentType: 'application/json' });
    await call('deleteFaults', SIDE_STORE, 413, { raw: big, contentType: 'application/json' });
  });

  it('called every operation of the document, each with at least one success', () => {
    const never = [...operations.keys()].filter((id) => !called.get(id));
    expect(never, 'operations of spec/workbench/openapi.yaml this test never called').toEqual([]);
    const noSuccess = [...operations.keys()].filter((id) => !succeeded.get(id));
    expect(noSuccess, 'operations never answered 2XX here').toEqual([]);
    expect(operations.size).toBe(34);
  });
});

/** streamRequests: the first chunk of one stream, and (while it is open) the 409 of a second one. */
async function streamOnce(): Promise<string> {
  const op = operations.get('streamRequests')!;
  const controller = new AbortController();
  called.set(op.operationId, (called.get(op.operationId) ?? 0) + 1);
  const response = await fetch(`${wb.url}/__simulator${op.path}`, { signal: controller.signal });
  const reader = response.body!.getReader();
  let timer: NodeJS.Timeout | undefined;
  try {
    const found = declared(op, response.status);
    if (!found) throw new Error(`streamRequests answered ${response.status}, a status the operation does not declare`);
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0].trim();
    if (!(mediaType in (found.response.content ?? {}))) throw new Error(`streamRequests answered ${response.status} as ${mediaType}, which it does not declare`);
    if (!response.headers.has('x-simulator')) throw new Error('streamRequests answered without X-Simulator');
    const chunk = await Promise.race([reader.read(), new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('streamRequests: no chunk within 5 s')), 5_000)))]);
    const text = chunk.done ? '' : new TextDecoder().decode(chunk.value);
    const validate = ajv.getSchema(`workbench${found.pointer}/content/${escapePointerSegment(mediaType)}/schema`)!;
    if (!validate(text)) throw new Error(`streamRequests ${response.status}: ${ajv.errorsText(validate.errors)}`);
    expect(response.status).toBe(200);
    succeeded.set(op.operationId, (succeeded.get(op.operationId) ?? 0) + 1);
    await call('streamRequests', {}, 409);
    const state = await call('getConsole', {}, 200);
    expect(state.json.streams).toHaveLength(1);
    return text;
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => {});
    controller.abort();
  }
}
