// issue 39 item 1: the workbench is one fetch-standard function, handle(request: Request): Promise<Response>,
// called here with no socket and no MSW: the storefront sandbox and the back office answer Responses; a
// fault that drops the connection is fetch's network error (Response.error()); a streamed body over the
// limit is a 413 once the limit is passed, without reading the rest; a delay stops when the caller goes.
// The node:http and MSW adapters are shown by every HTTP test and by test/msw/parity.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkbenchHandler, sandboxApiKey, type WorkbenchHandler } from '../../workbench/index.js';

const ORIGIN = 'http://engine.test';
const STORE = `${ORIGIN}/api/v1/demo-store/storefront`;

describe('issue 39 item 1: the engine answers a fetch Request with a fetch Response', () => {
  let wb: WorkbenchHandler;
  let token: string;
  const key = { 'x-api-key': sandboxApiKey('demo-store') };
  beforeAll(async () => {
    wb = await createWorkbenchHandler({ webhooks: false });
    const signedIn = await wb.handle(new Request(`${STORE}/auth/anonymous`, { method: 'POST', headers: key }));
    token = ((await signedIn.json()) as { content: { access_token: string } }).content.access_token;
  });
  afterAll(() => wb.close());

  it('item 1: a storefront operation and a back-office route, no socket', async () => {
    const countries = await wb.handle(new Request(`${STORE}/common/countries`, { headers: { authorization: `Bearer ${token}` } }));
    expect(countries).toBeInstanceOf(Response);
    expect(countries.status).toBe(200);
    expect(countries.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await countries.text();
    expect(Number(countries.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(JSON.parse(text).content.countries.length).toBeGreaterThan(0);
    const store = await wb.handle(new Request(`${ORIGIN}/__simulator/stores/demo-store/faults`));
    expect(store.status).toBe(200);
    expect(store.headers.get('x-simulator')).toBe('outside-contract');
  });

  it('item 1: a fault that drops the connection is Response.error(); a delay stops when the caller aborts', async () => {
    const add = (rule: Record<string, unknown>) =>
      wb.handle(new Request(`${ORIGIN}/__simulator/stores/demo-store/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rule) }));
    expect((await add({ operation: 'listCountries', drop: true, times: 1 })).status).toBe(201);
    const dropped = await wb.handle(new Request(`${STORE}/common/countries`, { headers: { authorization: `Bearer ${token}` } }));
    expect(dropped.type).toBe('error');
    expect((await wb.handle(new Request(`${STORE}/common/countries`, { headers: { authorization: `Bearer ${token}` } }))).status).toBe(200);
    const leaving = new AbortController();
    const delayed = wb.handle(new Request(`${STORE}/common/countries`, { headers: { authorization: `Bearer ${token}`, prefer: 'delay=60000' }, signal: leaving.signal }));
    leaving.abort();
    expect((await delayed).type).toBe('error');
  });

  it('item 1: a streamed body over the limit is a 413 as soon as the limit is passed, the rest never read', async () => {
    let pulled = 0;
    const chunk = new Uint8Array(64 * 1024).fill(32);
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(chunk);
      },
    });
    const answer = await wb.handle(
      new Request(`${STORE}/auth/anonymous`, { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: endless, duplex: 'half' } as RequestInit),
    );
    expect(answer.status).toBe(413);
    expect(((await answer.json()) as { content: { error: { code: string } } }).content.error.code).toBe('payload_too_large');
    // 1 MiB in 64 KiB chunks: the 17th passes it; the stream's own read-ahead may ask for one or two more.
    expect(pulled).toBeGreaterThanOrEqual(17);
    expect(pulled).toBeLessThanOrEqual(20);
  });
});
