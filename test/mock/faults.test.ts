// Fault and latency injection, one mode a test: a fixed and a drawn delay, a documented status with the
// contract's envelope (valid against the spec's response for it), an undocumented one refused unless
// allowed, a dropped connection, a seeded rate, a count limit, `Prefer: delay=` (with the sandbox's live
// answer and with Prism's controls) and its cap, --fault parsing errors (one line, exit 2), isolation per
// store and per operation, and the log's marks. Delays are tens of milliseconds; an elapsed time is
// checked only as "waited at least the delay", never as a speed.
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { validateResponse } from '../../src/validators/index.js';
import type { Workbench } from '../../workbench/index.js';
import { parseFaultFlag, MAX_RULES_PER_STORE } from '../../workbench/mock/faults.js';
import { Random } from '../../workbench/sandbox/random.js';
import { mockArgs } from '../helpers/mock-cli.js';
import { run } from '../helpers/run.js';
import { anonymous, http, KEY, startSandbox, storefront, waitFor, type Reply } from '../sandbox/helpers.js';
import { hangGuard } from '../helpers/hang-guard.js';
import { outcome } from '../helpers/adapter.js';

let wb: Workbench;
let auth: Record<string, string>;
const log: string[] = [];
const faults = (store = 'demo-store') => `${wb.url}/__simulator/stores/${store}/faults`;

beforeAll(async () => {
  wb = await startSandbox({
    logSink: (text) => log.push(text),
    quiet: false,
    // Start rules as `--fault` gives them: every store starts with its own copy.
    faults: [{ ...parseFaultFlag('listOrders:status=400,times=1'), source: 'listOrders:status=400,times=1' }],
  });
  ({ auth } = await anonymous(wb));
});
afterAll(async () => wb?.close());

async function addRule(rule: Record<string, unknown>, store = 'demo-store'): Promise<string> {
  const r = await http(faults(store), 'POST', { body: rule });
  expect(r.status, r.text).toBe(201);
  expect(r.headers['x-simulator']).toBe('outside-contract');
  return r.json.content.rule.id;
}

async function clearRules(store = 'demo-store'): Promise<void> {
  expect((await http(faults(store), 'DELETE')).status).toBe(200);
}

/** A storefront GET, timed. */
async function get(path: string, headers: Record<string, string> = auth, store = 'demo-store'): Promise<Reply & { ms: number }> {
  const started = performance.now();
  const r = await http(`${storefront(wb, store)}${path}`, 'GET', { headers });
  return { ...r, ms: performance.now() - started };
}

/** Waits for a log line matching `pattern` (the logger writes once the answer is finished, batched per turn). */
async function logLine(pattern: RegExp): Promise<string> {
  return waitFor(() => log.join('').split('\n').find((line) => pattern.test(line)), `a log line ${pattern}`, 5_000);
}

describe('rules of the back office', () => {
  it('a fixed delay: the answer is the usual one, after at least that long, marked', async () => {
    await clearRules();
    const id = await addRule({ operation: 'listCountries', delay_ms: 120 });
    const plain = await get('/common/countries', { ...auth, prefer: 'delay=0' });
    const r = await get('/common/countries');
    expect(r.status).toBe(200);
    expect(validateResponse('storefront', 'listCountries', 200, r.json)).toEqual({ valid: true });
    expect(r.ms).toBeGreaterThanOrEqual(120);
    expect(r.headers['x-sandbox-fault']).toBe(id);
    expect(r.headers['x-sandbox-delay-ms']).toBe('120');
    // Prefer: delay=0 replaced the rule's delay for that request; the body is the same.
    expect(plain.headers['x-sandbox-delay-ms']).toBeUndefined();
    expect(r.text).toBe(plain.text);
  });

  it('a random delay in a range: each drawn within it (seeded: the same draws in another store)', async () => {
    await clearRules();
    await clearRules('shop-two');
    const rule = { operation: 'listCountries', delay_ms: { min: 20, max: 60 }, seed: 'range-1' };
    await addRule(rule);
    await addRule(rule, 'shop-two');
    const { auth: two } = await anonymous(wb, 'shop-two');
    const drawn: number[] = [];
    const again: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await get('/common/countries');
      const delay = Number(r.headers['x-sandbox-delay-ms']);
      expect(delay).toBeGreaterThanOrEqual(20);
      expect(delay).toBeLessThanOrEqual(60);
      expect(r.ms).toBeGreaterThanOrEqual(delay);
      drawn.push(delay);
      again.push(Number((await get('/common/countries', two, 'shop-two')).headers['x-sandbox-delay-ms']));
    }
    expect(new Set(drawn).size).toBeGreaterThan(1);
    expect(again).toEqual(drawn);
  });

  it('a documented status: the contract\'s envelope, valid against the spec\'s response for it, with its headers', async () => {
    await clearRules();
    const notFound = await addRule({ operation: 'getVariant', status: 404 });
    await addRule({ operation: 'listProducts', status: 401 });
    const r = await get('/catalog/products/prd_7Q2K9X/variants/var_4M8T2C');
    expect(r.status).toBe(404);
    expect(validateResponse('storefront', 'getVariant', 404, r.json)).toEqual({ valid: true });
    expect(r.json.content.error.code).toBe('not_found');
    expect(r.json.message).toContain(notFound);
    expect(r.headers['x-sandbox-fault']).toBe(notFound);
    const unauthorized = await get('/catalog/products');
    expect(unauthorized.status).toBe(401);
    expect(validateResponse('storefront', 'listProducts', 401, unauthorized.json)).toEqual({ valid: true });
    expect(unauthorized.headers['www-authenticate']).toBe('Bearer');
    // The Admin API too.
    await addRule({ operation: 'listWebhooks', status: 400 });
    const admin = await http(`${wb.url}/api/v1/demo-store/admin/webhooks`, 'GET', { headers: { authorization: 'Bearer admin' } });
    expect(admin.status).toBe(400);
    expect(validateResponse('admin', 'listWebhooks', 400, admin.json)).toEqual({ valid: true });
  });

  it('an undocumented status is refused, naming the documented ones, unless the rule allows it', async () => {
    await clearRules();
    const refused = await http(faults(), 'POST', { body: { operation: 'listProducts', status: 503 } });
    expect(refused.status).toBe(400);
    expect(refused.json.content.error).toMatchObject({ code: 'invalid_body', details: [{ location: 'body', name: 'status' }] });
    expect(refused.json.message).toContain('listProducts documents 200, 400, 401');
    expect((await http(faults(), 'POST', { body: { operation: '*', status: 404 } })).json.message).toMatch(/operations do not document it/);
    const id = await addRule({ operation: 'listProducts', status: 503, allow_undocumented: true });
    const r = await get('/catalog/products');
    expect(r.status).toBe(503);
    expect(r.json).toMatchObject({ success: false, content: { error: { code: 'service_unavailable', details: [] } } });
    expect(r.headers['x-sandbox-fault']).toBe(id);
    // A status the contract has no code for gets one that says what it is.
    await clearRules();
    await addRule({ operation: 'listProducts', status: 429, allow_undocumented: true });
    expect((await get('/catalog/products')).json).toMatchObject({ success: false, content: { error: { code: 'injected_fault' } } });
  });

  it('a dropped connection: the client sees a socket error, no answer', async () => {
    await clearRules();
    const id = await addRule({ operation: 'listCountries', drop: true, delay_ms: 10 });
    expect(await outcome(`${storefront(wb)}/common/countries`, { headers: auth })).toBe('dropped');
    await logLine(new RegExp(`^GET /api/v1/demo-store/storefront/common/countries - [\\d.]+ms \\[fault ${id}: delay 10 ms, connection dropped\\]$`));
  });

  it('a rate with a seed: the expected requests of N fail, the same ones in another store', async () => {
    await clearRules();
    await clearRules('shop-two');
    const rule = { operation: 'listCountries', status: 401, rate: 0.3, seed: 42 };
    await addRule(rule);
    await addRule(rule, 'shop-two');
    const { auth: two } = await anonymous(wb, 'shop-two');
    const N = 60;
    const failed: number[] = [];
    const failedTwo: number[] = [];
    for (let i = 0; i < N; i++) {
      if ((await get('/common/countries')).status === 401) failed.push(i);
      if ((await get('/common/countries', two, 'shop-two')).status === 401) failedTwo.push(i);
    }
    // The rule's PRNG (sandbox/random.ts, seeded by the rule's seed) draws once per matching request.
    const random = new Random('fault-rule', '42');
    const expected = Array.from({ length: N }, (_, i) => i).filter(() => random.next() < 0.3);
    expect(failed).toEqual(expected);
    expect(failedTwo).toEqual(expected);
    expect(failed.length).toBeGreaterThan(N * 0.3 - 12);
    expect(failed.length).toBeLessThan(N * 0.3 + 12);
    const listed = (await http(faults())).json.content.rules[0];
    expect(listed.applied).toBe(expected.length);
  });

  it('times: the rule applies that many times, then stays listed, spent', async () => {
    await clearRules();
    await addRule({ operation: 'listCountries', status: 401, times: 2 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await get('/common/countries')).status);
    expect(statuses).toEqual([401, 401, 200, 200]);
    expect((await http(faults())).json.content.rules[0]).toMatchObject({ times: 2, applied: 2 });
  });

  it('per operation: a rule of one operation leaves the others alone; rules are tried in order', async () => {
    await clearRules();
    await addRule({ operation: 'getPosCart', status: 404 });
    await addRule({ operation: '*', status: 401 });
    expect((await get('/pos/carts/crt_8N2F6Q')).status).toBe(404);
    expect((await get('/common/countries')).status).toBe(401);
    await clearRules();
    await addRule({ operation: 'getPosCart', status: 404 });
    expect((await get('/common/countries')).status).toBe(200);
    expect((await get('/catalog/products/prd_7Q2K9X/variants/var_4M8T2C')).status).toBe(200);
  });

  it('per store: a store\'s rules are its own; every store starts with the --fault rules, each its own copy', async () => {
    await clearRules();
    await addRule({ operation: 'listCountries', status: 401 });
    const { auth: three } = await anonymous(wb, 'shop-three');
    expect((await get('/common/countries', three, 'shop-three')).status).toBe(200);
    // The --fault rule (listOrders 400, once) is in each store, spent separately.
    const orders = '/orders?user_id=cst_9XK2PL';
    expect((await get(orders, three, 'shop-three')).status).toBe(400);
    expect((await get(orders, three, 'shop-three')).status).toBe(200);
    const { auth: four } = await anonymous(wb, 'shop-four');
    const listed = (await http(faults('shop-four'))).json.content.rules;
    expect(listed).toEqual([expect.objectContaining({ id: 'flt_1', operation: 'listOrders', status: 400, times: 1, applied: 0, source: 'flag' })]);
    expect((await http(`${faults('shop-four')}/flt_1`, 'DELETE')).status).toBe(200);
    expect((await get(orders, four, 'shop-four')).status).toBe(200);
    expect((await http(`${faults('shop-four')}/flt_1`, 'DELETE')).status).toBe(404);
  });

  it('what the contract refuses keeps its answer; routes outside the contract are never faulted', async () => {
    await clearRules();
    await addRule({ operation: '*', drop: true });
    // A bad parameter, a missing token, an unknown path: the contract's own answers, not the rule's.
    const badPage = await get('/catalog/products?page=0');
    expect([badPage.status, badPage.json.content.error.code, badPage.headers['x-sandbox-fault']]).toEqual([400, 'invalid_parameter', undefined]);
    const noToken = await get('/catalog/products', {});
    expect([noToken.status, noToken.headers['x-sandbox-fault']]).toEqual([401, undefined]);
    expect((await http(`${storefront(wb)}/nothing/here`, 'GET', { headers: auth })).status).toBe(404);
    // Routes outside the contract: the back office, the images.
    expect((await http(`${wb.url}/__simulator/stores/demo-store/world`)).status).toBe(200);
    expect((await http(`${wb.url}/__sandbox-assets/stores/demo-store/images/matte-lipstick-ruby-red-64.svg`)).status).toBe(200);
    // A request the operation answers is dropped.
    expect(await outcome(`${storefront(wb)}/common/countries`, { headers: auth })).toBe('dropped');
    await clearRules();
  });

  it('bad rules are 400 naming the field; at most MAX_RULES_PER_STORE a store (409)', async () => {
    await clearRules();
    // Types and bounds are refused by the workbench API's document (spec/workbench/openapi.yaml) before the
    // handler runs; what a schema cannot say (an operation of the contract, min <= max, drop and status) by the handler.
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ operation: 'listProduct', delay_ms: 5 }, 'did you mean listProducts?'],
      [{ operation: 'listProducts' }, 'a rule needs a delay, a status or drop'],
      [{ operation: 'listProducts', delay_ms: 60_001 }, "'delay_ms' must be <= 60000"],
      [{ operation: 'listProducts', delay_ms: { min: 9, max: 3 } }, 'min <= max'],
      [{ operation: 'listProducts', status: 200 }, "'status' must be >= 400"],
      [{ operation: 'listProducts', drop: true, status: 400 }, 'exclude each other'],
      [{ operation: 'listProducts', delay_ms: 5, rate: 2 }, "'rate' must be <= 1"],
      [{ operation: 'listProducts', delay_ms: 5, times: 0 }, "'times' must be >= 1"],
      [{ operation: 'listProducts', delay_ms: 5, colour: 'red' }, "'colour' is not an allowed property"],
    ];
    for (const [body, message] of cases) {
      const r = await http(faults(), 'POST', { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.message, JSON.stringify(body)).toContain(message);
    }
    for (let i = 0; i < MAX_RULES_PER_STORE; i++) await addRule({ operation: 'listCountries', delay_ms: 0, rate: 0 });
    const full = await http(faults(), 'POST', { body: { operation: 'listCountries', delay_ms: 1 } });
    expect(full.status).toBe(409);
    expect((await http(faults(), 'DELETE')).json.content.removed).toBe(MAX_RULES_PER_STORE);
  });

  it('the log marks every injected answer', async () => {
    await clearRules();
    const id = await addRule({ operation: 'getPosCart', status: 404, delay_ms: 15 });
    await get('/pos/carts/crt_8N2F6Q');
    await get('/common/countries', { ...auth, prefer: 'delay=12' });
    await get('/common/countries');
    await logLine(new RegExp(`^GET /api/v1/demo-store/storefront/pos/carts/crt_8N2F6Q 404 [\\d.]+ms \\[fault ${id}: delay 15 ms, status 404\\]$`));
    await logLine(/^GET \/api\/v1\/demo-store\/storefront\/common\/countries 200 [\d.]+ms \[fault prefer: delay 12 ms\]$/);
    await logLine(/^GET \/api\/v1\/demo-store\/storefront\/common\/countries 200 [\d.]+ms$/);
  });
});

describe('Prefer: delay=', () => {
  it('delays the sandbox\'s live answer (the sandbox does not step aside), and Prism\'s with code=', async () => {
    await clearRules();
    const live = await get('/orders?user_id=cst_9XK2PL&limit=1');
    const delayed = await get('/orders?user_id=cst_9XK2PL&limit=1', { ...auth, prefer: 'delay=60' });
    expect(delayed.status).toBe(200);
    expect(delayed.ms).toBeGreaterThanOrEqual(60);
    expect(delayed.text).toBe(live.text);
    expect(delayed.headers['x-sandbox-fault']).toBe('prefer');
    const example = await get('/pos/carts/crt_8N2F6Q', { ...auth, prefer: 'code=404, delay=40' });
    expect(example.status).toBe(404);
    expect(example.ms).toBeGreaterThanOrEqual(40);
    expect(validateResponse('storefront', 'getPosCart', 404, example.json)).toEqual({ valid: true });
    const query = await get('/common/countries?__delay=30');
    expect(query.headers['x-sandbox-delay-ms']).toBe('30');
  });

  it('a delay past the cap, or not a number, is a 400 naming Prefer', async () => {
    for (const value of ['60001', '1e3', '-5', 'soon']) {
      const r = await get('/common/countries', { ...auth, prefer: `delay=${value}` });
      expect(r.status, value).toBe(400);
      expect(r.json.content.error).toMatchObject({ code: 'invalid_parameter', details: [{ location: 'header', name: 'Prefer' }] });
    }
    expect((await get('/common/countries', { ...auth, prefer: 'delay=60001' })).json.message).toContain('at most 60000');
  });

  it('a request waiting out its delay does not hold the server\'s close', async () => {
    const other = await startSandbox({ webhooks: false });
    const token = (await http(`${storefront(other)}/auth/anonymous`, 'POST', { headers: KEY })).json.content.access_token;
    // A rule on the operation, whose delay the request's `Prefer: delay=` replaces, so the back office says
    // when the request is being held (its `applied` count is taken as the delay starts): close() then meets
    // a request in its delay, whatever the machine's load, instead of one that may not have arrived yet.
    const rules = `${other.url}/__simulator/stores/demo-store/faults`;
    const added = await http(rules, 'POST', { body: { operation: 'listCountries', delay_ms: 0 } });
    expect(added.status, added.text).toBe(201);
    const pending = outcome(`${storefront(other)}/common/countries`, { headers: { authorization: `Bearer ${token}`, prefer: 'delay=60000' } });
    await expect.poll(async () => (await http(rules)).json.content.rules[0].applied).toBe(1);
    await other.close();
    expect(await pending).toBe('dropped');
  }, hangGuard(20_000));
});

describe('--fault', () => {
  it('a rule that cannot be taken is one line naming the flag, exit 2', async () => {
    const cases: Array<[string, RegExp]> = [
      ['listProduct:status=404', /^storefront-contract mock: --fault "listProduct:status=404": operation "listProduct" names no operation of the contract; did you mean listProducts\?; see storefront-contract mock --help$/],
      ['listProducts:status=503', /^storefront-contract mock: --fault "listProducts:status=503": status 503 is not a status the contract documents here: listProducts documents 200, 400, 401; .*allow_undocumented/],
      ['listProducts:statsu=503', /^storefront-contract mock: --fault "listProducts:statsu=503": unknown key "statsu"; the keys are delay, status/],
      ['listProducts', /^storefront-contract mock: --fault "listProducts": give <operationId>:<key>=<value>/],
    ];
    const results = await Promise.all(cases.map(([rule]) => run(process.execPath, mockArgs(['--port', '0', '--quiet', '--fault', rule]), { cwd: repoRoot })));
    results.forEach((result, i) => {
      const lines = result.stderr.trim().split('\n').filter((l) => !l.startsWith('npm warn'));
      expect(result.code, cases[i][0]).toBe(2);
      expect(lines, cases[i][0]).toHaveLength(1);
      expect(lines[0]).toMatch(cases[i][1]);
      expect(result.stdout).toBe('');
    });
  }, hangGuard(60_000));

  it('parses every key', () => {
    expect(parseFaultFlag('*:delay=100..900,status=503,allow_undocumented,rate=0.25,times=3,seed=s1,store=shop')).toEqual({
      input: { operation: '*', delay_ms: { min: 100, max: 900 }, status: 503, allow_undocumented: true, rate: 0.25, times: 3, seed: 's1' },
      store: 'shop',
    });
    expect(parseFaultFlag('getVariant:drop,delay=5,seed=7')).toEqual({ input: { operation: 'getVariant', drop: true, delay_ms: 5, seed: 7 }, store: undefined });
    expect(() => parseFaultFlag('getVariant:delay=5,delay=6')).toThrow('delay is given twice');
  });
});
