// One request sequence of a front end, run against any fetch: the HTTP sandbox (a real port), the MSW
// handlers in Node, the browser build in Node, and the browser build in Chromium (this file is bundled
// into the test page). The transcript is what the app sees: status, the headers that carry meaning, and
// the body. Values the sandbox makes up per run (tokens, the ids of the user and the customer it
// creates) are collected where they are issued and replaced by `<random N>` everywhere; nothing else is
// touched, so two engines agree only if they answer alike byte for byte (JSON-parsed).
// Browser-safe: fetch and JSON only.

export interface Exchange {
  step: string;
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface FetchLike {
  (url: string, init?: RequestInit): Promise<{ status: number; headers: { get(name: string): string | null }; text(): Promise<string> }>;
}

export const STORE = 'demo-store';
export const OTHER_STORE = 'other-store';
/** Headers whose value is part of the answer (auth challenges, CORS, the outside-contract mark). */
const KEPT_HEADERS = ['content-type', 'www-authenticate', 'allow', 'retry-after', 'access-control-allow-origin', 'x-simulator'];

/** The instant both engines' store clocks are frozen at, so every time in the answers is the same. */
export interface SequenceOptions {
  frozenAt: string;
}

export async function runSequence(fetch: FetchLike, baseUrl: string, options: SequenceOptions): Promise<Exchange[]> {
  const transcript: Exchange[] = [];
  const issued: string[] = [];
  const api = (store: string) => `${baseUrl}/api/v1/${store}/storefront`;

  const send = async (step: string, url: string, init: RequestInit = {}, issues?: (body: any) => unknown[]): Promise<any> => {
    const res = await fetch(url, init);
    // Image URLs are absolute on the engine's own address (the sandbox serves its images there): the one
    // part of a body that names where it runs.
    const text = (await res.text()).split(`${new URL(baseUrl).origin}/__sandbox-assets/`).join('<engine>/__sandbox-assets/');
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = res.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    let body: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) body = JSON.parse(text);
    if (issues && res.status < 300) for (const value of issues(body)) if (typeof value === 'string' && !issued.includes(value)) issued.push(value);
    transcript.push({ step, status: res.status, headers, body });
    return body;
  };
  const json = (method: string, value: unknown, headers: Record<string, string> = {}): RequestInit => ({ method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(value) });

  // Set-up, not compared: both stores' clocks frozen at the same instant (the answers show offsets from the
  // wall clock), and each store's own API key, from the back office as an app's test set-up reads it.
  const keys: Record<string, string> = {};
  for (const store of [STORE, OTHER_STORE]) {
    const res = await fetch(`${baseUrl}/__simulator/stores/${store}/clock`, json('POST', { now: options.frozenAt, frozen: true }));
    if (res.status !== 200) throw new Error(`freezing the clock of ${store} answered ${res.status}: ${await res.text()}`);
    const key = await fetch(`${baseUrl}/__simulator/stores/${store}/keys`);
    keys[store] = (JSON.parse(await key.text()) as { content: { api_key: string } }).content.api_key;
  }

  const signIn = await send('anonymous sign-in', `${api(STORE)}/auth/anonymous`, { method: 'POST', headers: { 'x-api-key': keys[STORE] } }, (b) => [
    b.content.access_token,
    b.content.refresh_token,
    b.content.user.id,
  ]);
  const auth = { authorization: `Bearer ${signIn.content.access_token}` };
  await send('sign-in without the API key', `${api(STORE)}/auth/anonymous`, { method: 'POST' });

  const sort = encodeURIComponent('{"selling_price":"asc"}');
  const list = await send('filtered and sorted list', `${api(STORE)}/catalog/products?category_slug=lips&sort_by=${sort}&limit=5`, { headers: auth });
  await send('second page, wholesale group', `${api(STORE)}/catalog/products?category_slug=lips&sort_by=${sort}&limit=5&page=2`, { headers: { ...auth, 'x-customer-group-id': 'cgrp_wholesale' } });
  await send('a sort field the list does not have', `${api(STORE)}/catalog/products?sort_by=${encodeURIComponent('{"colour":"asc"}')}`, { headers: auth });
  const product = list.content.products.find((p: any) => p.variants.length > 1) ?? list.content.products[0];
  await send('variant with inventory', `${api(STORE)}/catalog/products/${product.id}/variants/${product.variants.at(-1).id}?inventory=true`, { headers: auth });
  await send('similar products', `${api(STORE)}/pos/catalog/products/similar?product_id=prd_7Q2K9X&limit=3`, { headers: auth });
  await send('cart', `${api(STORE)}/pos/carts/crt_8N2F6Q`, { headers: auth });
  await send('unknown cart', `${api(STORE)}/pos/carts/crt_NOPE00`, { headers: auth });
  await send('coupons of the cart', `${api(STORE)}/pos/carts/crt_8N2F6Q/evaluate-coupons`, { headers: auth });
  await send('fulfillment options', `${api(STORE)}/shipping/fulfillment-options`, json('POST', { cart_id: 'crt_8N2F6Q', delivery_pincode: '560038' }, auth));
  await send('orders of a customer, delivered, newest first', `${api(STORE)}/orders?user_id=cst_9XK2PL&status=delivered&sort_by=${encodeURIComponent('{"order_date":"desc"}')}`, { headers: auth });
  await send('countries', `${api(STORE)}/common/countries`, { headers: auth });
  await send('HEAD of a list', `${api(STORE)}/common/countries`, { method: 'HEAD', headers: auth });
  await send('a method the path does not take', `${api(STORE)}/common/countries`, { method: 'DELETE', headers: auth });
  await send('a path the API does not have', `${api(STORE)}/catalog/nothing-here`, { headers: auth });

  const created = await send(
    'create customer',
    `${api(STORE)}/customers`,
    json(
      'POST',
      {
        business: { business_type: 'retailer', name: 'Kumar Stores', pan_number: 'AAAPK1234C', gstin: '27AAAPK1234C1Z5' },
        address: { first_name: 'Asha', last_name: 'Kumar', country_code: '+91', phone: '9876543210', email: 'asha@example.com', address_line1: '12 MG Road', city: 'Mumbai', state: 'Maharashtra', country: 'India', pincode: '400001' },
      },
      auth,
    ),
    (b) => [b.content.customer_detail.id, ...(b.content.customer_detail.addresses ?? []).map((a: any) => a.id)],
  );
  await send("the new customer's cards", `${api(STORE)}/customers/${created.content?.customer_detail?.id ?? 'missing'}/cards`, { headers: auth });
  await send('create customer, body not JSON', `${api(STORE)}/customers`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"business": ' });
  await send('create customer, body too large', `${api(STORE)}/customers`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: `{"pad":"${'x'.repeat(1024 * 1024)}"}` });

  const other = await send('sign-in on another store', `${api(OTHER_STORE)}/auth/anonymous`, { method: 'POST', headers: { 'x-api-key': keys[OTHER_STORE] } }, (b) => [
    b.content.access_token,
    b.content.refresh_token,
    b.content.user.id,
  ]);
  await send("another store's token", `${api(STORE)}/catalog/products?limit=1`, { headers: { authorization: `Bearer ${other.content.access_token}` } });
  await send('a token never issued', `${api(STORE)}/catalog/products?limit=1`, { headers: { authorization: 'Bearer mock_never_issued_by_this_sandbox_000000' } });
  // Paths and headers a server refuses or routes before any handler (the MSW adapter once answered the
  // first with its own 500 and a stack, and let the last through: test/msw/adapter-edges.test.ts).
  await send('bad percent-encoding in an id', `${api(STORE)}/pos/carts/%E0%A4%A`, { headers: auth });
  await send('a trailing slash', `${api(STORE)}/common/countries/`, { headers: auth });
  await send('an empty segment', `${api(STORE)}/pos/carts//evaluate-coupons`, { headers: auth });
  await send('headers over 16 KB', `${api(STORE)}/common/countries`, { headers: { ...auth, 'x-padding': 'a'.repeat(17 * 1024) } });
  await send('back office: the world', `${baseUrl}/__simulator/stores/${STORE}/world`);

  return normalise(transcript, issued);
}

/** Each value made up per run, replaced by `<random N>` (N: the order it was issued in) wherever it appears. */
export function normalise(transcript: Exchange[], issued: readonly string[]): Exchange[] {
  let text = JSON.stringify(transcript);
  issued.forEach((value, i) => {
    text = text.split(value).join(`<random ${i + 1}>`);
  });
  return JSON.parse(text) as Exchange[];
}
