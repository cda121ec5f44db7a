// The sandbox's own images: every image URL the world's records carry (product, variant, video
// thumbnail, flag) answers a well-formed SVG of the size its name says, to any origin (an <img> of a
// front-end on another site), with caching and safety headers; unknown names are the envelope's 404; a
// name from the back office is escaped; and a journal written on another port is moved to this one.
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Workbench } from '../../workbench/index.js';
import { rebaseAssetUrls } from '../../workbench/sandbox/asset-urls.js';
import { anonymous, backOffice, call, http, q, startSandbox, tempDir, type Reply } from './helpers.js';

let wb: Workbench;
let auth: Record<string, string>;

beforeAll(async () => {
  wb = await startSandbox({ webhooks: false });
  ({ auth } = await anonymous(wb));
});
afterAll(async () => wb?.close());

const CROSS_SITE_IMG = { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'image', 'sec-fetch-mode': 'no-cors' };

/** Every image URL inside a JSON value, with the title the record gives it (Image.title, a video's title, a country's name). */
function imageUrls(value: unknown, out = new Map<string, string>()): Map<string, string> {
  if (Array.isArray(value)) for (const item of value) imageUrls(item, out);
  else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const title = String(record.title ?? record.country_name ?? '');
    for (const key of ['url_tiny', 'url_thumbnail', 'url_standard', 'url_zoom', 'image_thumbnail_url', 'flag_icon_url', 'product_image_url']) {
      if (typeof record[key] === 'string') out.set(record[key] as string, title);
    }
    for (const v of Object.values(record)) if (v && typeof v === 'object') imageUrls(v, out);
  }
  return out;
}

/** Checks an answer is the SVG of that size, well-formed, titled; returns its text. */
function expectSvg(r: Reply, url: string): string {
  expect(r.status, url).toBe(200);
  expect(r.headers['content-type'], url).toMatch(/^image\/svg\+xml\b/);
  expect(r.headers['x-content-type-options']).toBe('nosniff');
  expect(r.headers['cache-control']).toBe('no-cache');
  expect(r.headers.etag).toMatch(/^"[\w-]+"$/);
  expect(r.headers['access-control-allow-origin']).toBe('*');
  expect(r.headers['cross-origin-resource-policy']).toBe('cross-origin');
  expect(XMLValidator.validate(r.text), url).toBe(true);
  const size = /-(64|240|800|1600)\.svg$/.exec(url)![1];
  expect(r.text).toMatch(new RegExp(`^<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" `));
  expect(r.text).not.toMatch(/<script|href=|on\w+=/i);
  return r.text;
}

describe('the sandbox serves the images its records name', () => {
  it('every image URL of a product page answers a well-formed SVG of its size, to a page on another site', async () => {
    const page = await call(wb, 'listProducts', 'GET', `/catalog/products${q({ limit: 20 })}`, { headers: auth });
    const withVideo = (await http(`${backOffice(wb)}/world/products`)).json.find((p: any) => p.variants.some((v: any) => v.videos.length > 0));
    const video = await call(wb, 'getVariant', 'GET', `/catalog/products/${withVideo.id}/variants/${withVideo.variants.find((v: any) => v.videos.length).id}`, { headers: auth });
    const countries = await call(wb, 'listCountries', 'GET', '/common/countries', { headers: auth });
    const cart = await call(wb, 'getPosCart', 'GET', '/pos/carts/crt_8N2F6Q', { headers: auth });
    const urls = imageUrls([page.json, video.json, countries.json, cart.json]);
    expect(urls.size).toBeGreaterThan(80);
    for (const [url, title] of urls) {
      expect(url.startsWith(`${wb.url}/__sandbox-assets/stores/demo-store/images/`), url).toBe(true);
      const svg = expectSvg(await http(url, 'GET', { headers: CROSS_SITE_IMG }), url);
      if (title) expect(svg, url).toContain(`<title>${title.replace(/&/g, '&amp;')}</title>`);
    }
    expect([...urls.keys()].some((u) => /-video-800\.svg$/.test(u))).toBe(true);
    expect([...urls.keys()].some((u) => /\/flag-in-64\.svg$/.test(u))).toBe(true);
  });

  it('the smallest size shows initials, the others the name; the colour follows the id', async () => {
    const small = (await http(`${wb.url}/__sandbox-assets/stores/demo-store/images/matte-lipstick-ruby-red-64.svg`)).text;
    const large = (await http(`${wb.url}/__sandbox-assets/stores/demo-store/images/matte-lipstick-ruby-red-1600.svg`)).text;
    const other = (await http(`${wb.url}/__sandbox-assets/stores/demo-store/images/matte-lipstick-nude-rose-240.svg`)).text;
    expect(small).toContain('>ML</text>');
    expect(small).not.toContain('Ruby</text>');
    expect(large).toContain('>Matte Lipstick Ruby</text>');
    const hue = (svg: string) => /fill="hsl\((\d+) /.exec(svg)![1];
    expect(hue(small)).toBe(hue(large));
    expect(hue(other)).not.toBe(hue(large));
  });

  it('ETag and If-None-Match give a 304; HEAD has the headers without the body', async () => {
    const url = `${wb.url}/__sandbox-assets/stores/demo-store/images/matte-lipstick-ruby-red-240.svg`;
    const first = await http(url);
    const again = await http(url, 'GET', { headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.etag).toBe(first.headers.etag);
    expect((await http(url, 'GET', { headers: { 'if-none-match': `W/${String(first.headers.etag)}, "other"` } })).status).toBe(304);
    expect((await http(url, 'GET', { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
    const head = await http(url, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers['content-length']).toBe(first.headers['content-length']);
  });

  it('unknown names, sizes and methods get the envelope; the guard of /__simulator does not apply, and it still does there', async () => {
    const base = `${wb.url}/__sandbox-assets/stores/demo-store/images`;
    for (const name of ['no-such-product-240.svg', 'matte-lipstick-ruby-red-300.svg', 'matte-lipstick-ruby-red-240.png', 'matte-lipstick-ruby-red']) {
      const r = await http(`${base}/${name}`, 'GET', { headers: CROSS_SITE_IMG });
      expect(r.status, name).toBe(404);
      expect(r.json).toMatchObject({ success: false, content: { error: { code: 'not_found', details: [{ location: 'path', name: 'name' }] } } });
    }
    expect((await http(`${wb.url}/__sandbox-assets/nothing`)).status).toBe(404);
    const post = await http(`${base}/matte-lipstick-ruby-red-240.svg`, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    // The same browser headers on a control route are refused: the images are outside that guard on purpose.
    expect((await http(`${backOffice(wb)}/world`, 'GET', { headers: CROSS_SITE_IMG })).status).toBe(403);
    expect((await http(`${base}/matte-lipstick-ruby-red-240.svg`, 'GET', { headers: { ...CROSS_SITE_IMG, origin: 'https://shop.example' } })).status).toBe(200);
  });

  it('a product named in the back office gets its images, its name escaped', async () => {
    const name = '<script>alert(1)</script> & "Co" \u0001 \ud800 ]]> Tiffin';
    const created = await http(`${backOffice(wb)}/products`, 'POST', { body: { name, category_ids: ['cat_lips'], selling_price: 100, slug: 'hostile' } });
    expect(created.status).toBe(201);
    const url = created.json.content.product.images[0].url_thumbnail;
    expect(url).toBe(`${wb.url}/__sandbox-assets/stores/demo-store/images/hostile-240.svg`);
    const first = await http(url);
    const svg = expectSvg(first, url);
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;');
    expect(svg).not.toMatch(/[\u0001\ud800]/);
    // A rename shows at the same URL, with a new ETag (a cached copy is revalidated: no-cache).
    const renamed = await http(`${backOffice(wb)}/products/${created.json.content.product.id}`, 'PATCH', { body: { name: 'Tiffin Box' } });
    expect(renamed.status).toBe(200);
    const after = await http(url, 'GET', { headers: { 'if-none-match': String(first.headers.etag) } });
    expect(after.status).toBe(200);
    expect(after.text).toContain('<title>Tiffin Box</title>');
  });

  it('another store serves its own images, not another store\'s names', async () => {
    const { auth: a } = await anonymous(wb, 'shop-two');
    const page = await call(wb, 'listProducts', 'GET', `/catalog/products${q({ limit: 1 })}`, { headers: a, store: 'shop-two' });
    const url: string = page.json.content.products[0].images[0].url_standard;
    expect(url.startsWith(`${wb.url}/__sandbox-assets/stores/shop-two/images/`)).toBe(true);
    expectSvg(await http(url), url);
    expect((await http(`${wb.url}/__sandbox-assets/stores/shop-two/images/hostile-240.svg`)).status).toBe(404);
  });
});

describe('image URLs follow the workbench to another port', () => {
  it('rebaseAssetUrls moves served images only', () => {
    const value = { a: 'http://127.0.0.1:1234/__sandbox-assets/stores/s/images/x-64.svg', b: ['https://cdn.example/x.webp', 'http://127.0.0.1:9/__sandbox-assets/x'], c: 3 };
    expect(rebaseAssetUrls(value, 'http://127.0.0.1:9')).toEqual({ a: 'http://127.0.0.1:9/__sandbox-assets/stores/s/images/x-64.svg', b: ['https://cdn.example/x.webp', 'http://127.0.0.1:9/__sandbox-assets/x'], c: 3 });
  });

  it('a product journaled with --data-dir on one port has its images on the next port after a restart', async () => {
    const { dir, remove } = await tempDir('sandbox-images-');
    try {
      let first: Workbench | undefined = await startSandbox({ webhooks: false, sandbox: { dataDir: dir } });
      const created = await http(`${backOffice(first)}/products`, 'POST', { body: { name: 'Journaled Jar', category_ids: ['cat_lips'], selling_price: 100 } });
      const id = created.json.content.product.id;
      const firstUrl = first.url;
      await first.close();
      first = undefined;
      const second = await startSandbox({ webhooks: false, sandbox: { dataDir: dir } });
      try {
        expect(second.url).not.toBe(firstUrl);
        const products = (await http(`${backOffice(second)}/world/products`)).json;
        const url: string = products.find((p: any) => p.id === id).images[0].url_zoom;
        expect(url).toBe(`${second.url}/__sandbox-assets/stores/demo-store/images/journaled-jar-1600.svg`);
        expect(expectSvg(await http(url), url)).toContain('<title>Journaled Jar</title>');
        expect(JSON.stringify(products)).not.toContain(firstUrl);
      } finally {
        await second.close();
      }
    } finally {
      await remove();
    }
  });
});

describe('issue 37 item 29: an image of a store with no world costs a lookup, not a world', () => {
  let small: Workbench;
  beforeAll(async () => {
    small = await startSandbox({ webhooks: false, sandbox: { maxWorlds: 2 } });
  });
  afterAll(async () => small?.close());
  const image = (store: string, name = 'matte-lipstick-ruby-red-240.svg') => `${small.url}/__sandbox-assets/stores/${encodeURIComponent(store)}/images/${name}`;

  it('item 29: images of 40 unknown store ids (as any page can name) build no world: a 404 naming the store; the store\'s images work once it is used, also after its world was evicted', async () => {
    const sandbox = small.sandbox!.sandbox;
    const held = sandbox.heldWorlds;
    const flood = await Promise.all(Array.from({ length: 40 }, (_, i) => http(image(`flood-${i}`), 'GET', { headers: CROSS_SITE_IMG })));
    for (const r of flood) {
      expect(r.status).toBe(404);
      expect(r.json).toMatchObject({ success: false, content: { error: { code: 'not_found', details: [{ location: 'path', name: 'store_id' }] } } });
      expect(r.headers['access-control-allow-origin']).toBe('*');
    }
    expect(flood[0].json.message).toMatch(/^Store flood-0 has no world on this workbench yet/);
    expect(sandbox.heldWorlds).toBe(held);

    // A storefront showing its store's images: the API call that names them builds the world, then they load.
    const { auth: shop } = await anonymous(small, 'flood-0');
    const page = await call(small, 'listProducts', 'GET', `/catalog/products${q({ limit: 1 })}`, { headers: shop, store: 'flood-0' });
    const url: string = page.json.content.products[0].images[0].url_standard;
    expectSvg(await http(url, 'GET', { headers: CROSS_SITE_IMG }), url);
    // Evicted by two other stores (--max-worlds 2), its images still load (the world is rebuilt, as for any call).
    await http(`${backOffice(small, 'other-1')}/world`);
    await http(`${backOffice(small, 'other-2')}/world`);
    expect(sandbox.heldWorlds).toBe(2);
    expectSvg(await http(url), url);
    // The other ids of the flood are still unknown, and still cost no world.
    expect((await http(image('flood-1'))).status).toBe(404);
    expect(sandbox.heldWorlds).toBe(2);
  });
});
