// The sandbox tools over a workbench in process (createWorkbenchHandler: the engine called with a fetch
// Request, no port): sign-in handled and renewed, credentials kept out of every result, results bounded,
// refusals that name the way out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkbenchHandler, type WorkbenchHandler } from '../../workbench/index.js';
import { createAgentToolbox, type AgentToolbox } from '../../workbench/agents/index.js';
import { toolCalls } from './calls.js';
import { MAX_RESULT_BYTES } from '../../workbench/agents/tool.js';

let workbench: WorkbenchHandler;
let toolbox: AgentToolbox;
const requests: Array<{ url: string; authorization: string | null }> = [];

beforeAll(async () => {
  workbench = await createWorkbenchHandler({ sandbox: { tokenLifetimeSeconds: 60 } });
  toolbox = await createAgentToolbox({
    link: {
      fetch: (request) => {
        requests.push({ url: request.url, authorization: request.headers.get('authorization') });
        return workbench.handle(request);
      },
      origin: () => 'http://127.0.0.1:4010',
    },
  });
}, 60_000);
afterAll(() => workbench?.close());

const { ok, refused } = toolCalls(() => toolbox);

describe('sandbox_call', () => {
  it('signs in again, once, when the store\'s clock has passed the token\'s lifetime', async () => {
    const store = 'agent-expiry';
    expect((await ok('sandbox_call', { operation_id: 'listCountries', store_id: store })).status).toBe(200);
    const first = requests.at(-1)!.authorization;
    expect(first).toMatch(/^Bearer /);
    // 59 s: the same token still opens the store; 2 s more (61 s past issue): refused, and the tool signs in again.
    await ok('workbench_call', { operation_id: 'setClock', store_id: store, body: { advance: 'PT59S' } });
    expect((await ok('sandbox_call', { operation_id: 'listCountries', store_id: store })).status).toBe(200);
    expect(requests.at(-1)!.authorization).toBe(first);
    await ok('workbench_call', { operation_id: 'setClock', store_id: store, body: { advance: 'PT2S' } });
    const before = requests.length;
    expect((await ok('sandbox_call', { operation_id: 'listCountries', store_id: store })).status).toBe(200);
    const sent = requests.slice(before).filter((r) => r.url.endsWith('/common/countries'));
    expect(sent.map((r) => r.authorization === first)).toEqual([true, false]);
  });

  it('signs in once for parallel first calls to a store: one key read, one sign-in', async () => {
    const before = requests.length;
    const answers = await Promise.all(Array.from({ length: 10 }, () => ok('sandbox_call', { operation_id: 'listCountries', store_id: 'agent-parallel' })));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const sent = requests.slice(before).map((r) => new URL(r.url).pathname);
    expect(sent.filter((p) => p.endsWith('/keys'))).toHaveLength(1);
    expect(sent.filter((p) => p.endsWith('/auth/anonymous'))).toHaveLength(1);
    expect(new Set(answers.map((a) => a.signed_in)).size).toBe(1);
  });

  it('keeps a token per caller: switching between a customer and the anonymous shopper signs in no more', async () => {
    const store = 'agent-switch';
    await ok('sandbox_call', { operation_id: 'listCountries', store_id: store });
    await ok('sandbox_call', { operation_id: 'listCountries', store_id: store, as_customer: 'cst_9XK2PL' });
    const before = requests.length;
    const anonymous = await ok('sandbox_call', { operation_id: 'listCountries', store_id: store });
    const customer = await ok('sandbox_call', { operation_id: 'listCountries', store_id: store, as_customer: 'cst_9XK2PL' });
    const signIns = requests.slice(before).filter((r) => /\/auth\/anonymous$|\/sign-in$/.test(new URL(r.url).pathname));
    expect(signIns).toEqual([]);
    expect(anonymous.signed_in).not.toBe(customer.signed_in);
  });

  it('signs in as a customer when asked, and says who it called as', async () => {
    const answer = await ok('sandbox_call', { operation_id: 'listOrders', store_id: 'agent-customer', as_customer: 'cst_9XK2PL', query: { user_id: 'cst_9XK2PL' } });
    expect(answer.status).toBe(200);
    expect(answer.signed_in).toMatch(/^customer cst_9XK2PL's access token( \(user \w+\))?$/);
  });

  it('keeps every credential out of the result: the key, the tokens, in the body and the URL', async () => {
    const answer = await ok('sandbox_call', { operation_id: 'createAnonymousUser', store_id: 'agent-secrets' });
    expect(answer.body.content).toMatchObject({ access_token: '[redacted]', refresh_token: '[redacted]' });
    const keys = await ok('workbench_call', { operation_id: 'getKeys', store_id: 'agent-secrets' });
    expect(keys.body.content.api_key).toBe('[redacted]');
    const text = JSON.stringify([answer, keys]);
    for (const r of requests) if (r.authorization) expect(text).not.toContain(r.authorization.slice(7));
  });

  it('refuses a credential header: the tool signs in itself', async () => {
    expect(await refused('sandbox_call', { operation_id: 'listProducts', headers: { Authorization: 'Bearer x' } })).toMatch(/header "Authorization" is set by the tool/);
    expect(await refused('sandbox_call', { operation_id: 'listProducts', headers: { 'X-API-KEY': 'x' } })).toMatch(/set by the tool/);
  });

  it('names a missing path parameter and the way to give it', async () => {
    expect(await refused('sandbox_call', { operation_id: 'getPosCart' })).toBe('sandbox_call: getPosCart needs the path parameter "id": give it in "path": { "id": ... }');
  });

  it('percent-encodes path parameters, so an id cannot reach another path', async () => {
    const answer = await ok('sandbox_call', { operation_id: 'getPosCart', path: { id: '../../catalog/products' } });
    expect(answer.url).toContain('/pos/carts/..%2F..%2Fcatalog%2Fproducts');
    expect(answer.status).toBe(404);
  });

  it('cuts a large answer to the bound, and says so', async () => {
    const answer = await ok('sandbox_call', { operation_id: 'listProducts', store_id: 'agent-big', query: { limit: 100 } });
    expect(answer.status).toBe(200);
    expect(answer.truncated).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(answer))).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    const small = await ok('sandbox_call', { operation_id: 'listProducts', store_id: 'agent-big', query: { limit: 1 } });
    expect(small.truncated).toBe(false);
  });

  it('passes the contract\'s refusals through as answers (status and envelope), not as tool errors', async () => {
    const answer = await ok('sandbox_call', { operation_id: 'listProducts', query: { page: 0 } });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ success: false, content: { error: { code: 'invalid_parameter' } } });
  });
});

describe('workbench_call', () => {
  it('describes an operation instead of calling it', async () => {
    const described = await ok('workbench_call', { operation_id: 'placeOrder', describe: true });
    expect(described.card).toMatchObject({ method: 'POST', path: '/__simulator/stores/{store_id}/orders', source: "outside the contract (the workbench's own API)" });
    expect(Object.keys(described.card.body.fields)).toEqual(expect.arrayContaining(['cart_id', 'user_id']));
  });

  it('does not offer the request log\'s event stream, which is for pages', async () => {
    const tools = toolbox.tools.find((t) => t.name === 'workbench_call')!;
    const ids = (tools.inputSchema.properties.operation_id as { enum: string[] }).enum;
    expect(ids).toContain('listRequests');
    expect(ids).not.toContain('streamRequests');
  });
});

describe('sandbox_wait_for_delivery', () => {
  it('refuses at once when no webhook of the store hears the event', async () => {
    expect(await refused('sandbox_wait_for_delivery', { store_id: 'agent-nohook', event: 'order.created', timeout_seconds: 30 })).toMatch(/no enabled webhook of store agent-nohook subscribes to order\.created: create one first \(sandbox_call createWebhook/);
  });

  it('answers the failed attempts and why, when the receiver never takes it', async () => {
    const store = 'agent-deadhook';
    // A port nothing listens on: every attempt fails with a network error.
    await ok('sandbox_call', { operation_id: 'createWebhook', store_id: store, body: { url: 'http://127.0.0.1:9/hook', events: ['customer.created'] } });
    await ok('workbench_call', { operation_id: 'raiseEvent', store_id: store, body: { event: 'customer.created' } });
    const waited = await ok('sandbox_wait_for_delivery', { store_id: store, event: 'customer.created', timeout_seconds: 3 });
    expect(waited.delivered).toBe(false);
    expect(waited.attempts.length).toBeGreaterThan(0);
    expect(waited.hint).toMatch(/pending|every attempt failed/);
  });
});

describe('certify (the CLI adds it; here through the same factory)', () => {
  it('finds what a fault breaks, with the failed operation and a curl for the request, and no credential', async () => {
    const { createWorkbench } = await import('../../workbench/index.js');
    const { checkingTools } = await import('../../conformance/agents/certify-tool.js');
    const served = await createWorkbench({ port: 0, quiet: true, console: false, mcp: { extraTools: [checkingTools] } });
    try {
      const tools = await served.agents!();
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = await tools.call(name, args);
        expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
        return result.structuredContent as any;
      };
      // Every listCountries of the store answered 418, a status the contract does not document for it.
      const fault = await call('workbench_call', { operation_id: 'addFault', store_id: 'agent-broken', body: { operation: 'listCountries', status: 418, allow_undocumented: true } });
      expect(fault.status).toBe(201);
      const broken = await call('certify', { store_id: 'agent-broken', max_findings: 1 });
      expect(broken.verdict).toBe('not-certified');
      expect(broken.failed_operations).toEqual(['listCountries']);
      expect(broken.findings).toHaveLength(1);
      expect(broken.findings[0]).toMatchObject({ operation_id: 'listCountries', status: 418, severity: 'error' });
      expect(broken.findings[0].curl).toBe(`curl -sS -X GET '${served.url}/api/v1/agent-broken/storefront/common/countries' -H "authorization: Bearer $TOKEN"`);
      expect(broken.more_findings).toBeGreaterThanOrEqual(0);
      const key = (await (await fetch(`${served.url}/__simulator/stores/agent-broken/keys`)).json()).content.api_key;
      expect(JSON.stringify(broken)).not.toContain(key);
      // An operation opened by the store's key: its curl sends the key from the environment (double quotes: the shell expands it).
      await call('workbench_call', { operation_id: 'addFault', store_id: 'agent-broken', body: { operation: 'createAnonymousUser', status: 418, allow_undocumented: true } });
      const many = await call('certify', { store_id: 'agent-broken', max_findings: 20 });
      const signIn = many.findings.find((f: { operation_id: string }) => f.operation_id === 'createAnonymousUser');
      expect(signIn.curl).toBe(`curl -sS -X POST '${served.url}/api/v1/agent-broken/storefront/auth/anonymous' -H "x-api-key: $STOREFRONT_API_KEY"`);
      // Within its budget by whole findings, each still an object with a whole curl (the toolbox checked the schema).
      expect(Buffer.byteLength(JSON.stringify(many))).toBeLessThanOrEqual(12_000);
      expect(many.findings.length + many.more_findings).toBeGreaterThan(20);
      // The same store without the faults certifies.
      await call('workbench_call', { operation_id: 'deleteFaults', store_id: 'agent-broken' });
      expect((await call('certify', { store_id: 'agent-broken' })).verdict).toBe('certified');
    } finally {
      await served.close();
    }
  }, 120_000);

  it('refuses another server without its key in the environment, naming the variable', async () => {
    const { checkingTools } = await import('../../conformance/agents/certify-tool.js');
    const { SandboxLink, agentToolbox } = await import('../../workbench/agents/index.js');
    const saved = process.env.STOREFRONT_CERTIFY_API_KEY;
    delete process.env.STOREFRONT_CERTIFY_API_KEY;
    try {
      const box = agentToolbox(await checkingTools(new SandboxLink({ fetch: () => Promise.reject(new Error('not called')), origin: () => 'http://127.0.0.1:1' })));
      const result = await box.call('certify', { base_url: 'http://127.0.0.1:9' });
      expect((result.content as Array<{ text: string }>)[0].text).toMatch(/set STOREFRONT_CERTIFY_API_KEY in the MCP server's environment/);
      // With a key in the environment: sent to a server on this machine, or to an origin the user listed, never elsewhere.
      process.env.STOREFRONT_CERTIFY_API_KEY = 'sk_test_from_the_environment';
      const elsewhere = await box.call('certify', { base_url: 'https://shop.example' });
      expect((elsewhere.content as Array<{ text: string }>)[0].text).toBe(
        "certify: certifying https://shop.example would send STOREFRONT_CERTIFY_API_KEY there: list that origin in STOREFRONT_CERTIFY_ORIGINS (comma-separated) in the MCP server's environment; servers on this machine (localhost, 127.0.0.1, [::1]) need nothing",
      );
      process.env.STOREFRONT_CERTIFY_ORIGINS = 'https://other.example, http://127.0.0.2:9';
      const listed = await box.call('certify', { base_url: 'http://127.0.0.2:9' });
      // Listed: certification runs (and finds nothing listening there).
      expect(listed.isError, JSON.stringify(listed.content)).toBeFalsy();
      expect(listed.structuredContent).toMatchObject({ verdict: 'not-certified', target: 'http://127.0.0.2:9' });
      delete process.env.STOREFRONT_CERTIFY_ORIGINS;
      // With a key in the environment, the URL itself is judged: only http(s), no credentials in it.
      process.env.STOREFRONT_CERTIFY_API_KEY = 'sk_test_from_the_environment';
      for (const [base_url, why] of [
        ['file:///etc/passwd', /base_url: must match pattern/],
        ['ftp://x', /base_url: must match pattern/],
        ['http://a b', /base_url: must match pattern/],
        ['http://user:pw@127.0.0.1:9', /must not carry credentials/],
      ] as const) {
        const refused = await box.call('certify', { base_url });
        expect(refused.isError, base_url).toBe(true);
        expect((refused.content as Array<{ text: string }>)[0].text, base_url).toMatch(why);
      }
    } finally {
      if (saved !== undefined) process.env.STOREFRONT_CERTIFY_API_KEY = saved;
      else delete process.env.STOREFRONT_CERTIFY_API_KEY;
    }
  });
});

describe('hostile input (the probe\'s findings)', () => {
  it.each([
    ['a dot segment in a path parameter', 'sandbox_call', { operation_id: 'evaluateCartCoupons', path: { id: '..' } }, /path parameter "id" may not be "\.\.": it would name another path/],
    ['a single dot', 'workbench_call', { operation_id: 'deleteFault', store_id: 'agent-hostile', path: { fault_id: '.' } }, /may not be "\."/],
    ['the store in "path" of the workbench API', 'workbench_call', { operation_id: 'resetStore', path: { store_id: 'other' } }, /give the store as "store_id", not in "path"/],
    ['a line break in a header value', 'sandbox_call', { operation_id: 'listProducts', headers: { 'x-customer-group-id': 'a\r\nx-api-key: evil' } }, /headers\/x-customer-group-id: must match pattern/],
    ['a header the transport sets', 'sandbox_call', { operation_id: 'listProducts', headers: { Host: 'evil.example' } }, /header "Host" is the transport's/],
    ['a header name that is no name', 'sandbox_call', { operation_id: 'listProducts', headers: { 'a b': 'x' } }, /headers: property name must be valid|must match pattern/],
    ['a value past 2,000 characters', 'sandbox_call', { operation_id: 'getPosCart', path: { id: 'a'.repeat(2001) } }, /path\/id: .*(must NOT have more than 2000 characters|must match)/],
    ['51 query parameters', 'sandbox_call', { operation_id: 'listProducts', query: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`p${i}`, 1])) }, /query: must NOT have more than 50 properties/],
  ])('refuses %s, in one line', async (_name, tool, args, message) => {
    const text = await refused(tool, args);
    expect(text).toMatch(message);
    expect(text.split('\n')).toHaveLength(1);
  });

  it('keeps a 2,000-character value, and the url it answers within 2,000 characters', async () => {
    const answer = await ok('sandbox_call', { operation_id: 'getPosCart', store_id: 'agent-hostile', path: { id: 'a'.repeat(2000) } });
    expect(answer.status).toBe(404);
    expect(answer.url.length).toBeLessThanOrEqual(2000 + 20);
    expect(answer.url).toMatch(/…\(\d+ chars\)$/);
  });

  it('answers an input nested too deep as the tool\'s error, not a protocol failure', async () => {
    let body: unknown = 1;
    for (let i = 0; i < 20_000; i++) body = { a: body };
    expect(await refused('sandbox_call', { operation_id: 'createCustomer', body })).toMatch(/nested too deep|nests at most/);
  });

  it('runs at most 16 delivery waits at once; the 17th is refused, saying so', async () => {
    const store = 'agent-busy';
    await ok('sandbox_call', { operation_id: 'createWebhook', store_id: store, body: { url: 'http://127.0.0.1:9/hook', events: ['order.created'] } });
    const calls = Array.from({ length: 17 }, () => toolbox.call('sandbox_wait_for_delivery', { store_id: store, event: 'order.created', timeout_seconds: 1 }));
    const results = await Promise.all(calls);
    const refusals = results.filter((r) => r.isError).map((r) => (r.content as Array<{ text: string }>)[0].text);
    expect(refusals).toEqual(['sandbox_wait_for_delivery: 16 delivery waits are running already: wait for one to end, then call again']);
    // Once they ended, a wait runs again.
    expect((await toolbox.call('sandbox_wait_for_delivery', { store_id: store, event: 'order.created', timeout_seconds: 0 })).isError).toBeFalsy();
  });
});
