// What a front-end developer relies on: a seeded, deterministic world; ids that resolve; lists that filter,
// sort and page over the real set; the customer-group rule; inventory on request; the POS debug OTP;
// customers that stick; strict tokens; and the spec's examples still one `Prefer` away.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssetUrls } from '../../workbench/sandbox/asset-urls.js';
import { loadTemplates } from '../../workbench/sandbox/templates.js';
import { shiftDates } from '../../workbench/sandbox/seed.js';
import type { Workbench } from '../../workbench/index.js';
import { anonymous, backOffice, call, http, KEY, q, startSandbox, storefront } from './helpers.js';

let wb: Workbench;
let auth: Record<string, string>;
let world: any;
let products: any[];
let groups: any[];

beforeAll(async () => {
  wb = await startSandbox();
  ({ auth } = await anonymous(wb));
  world = (await http(`${backOffice(wb)}/world`)).json.content;
  products = (await http(`${backOffice(wb)}/world/products`)).json;
  groups = (await http(`${backOffice(wb)}/world/customer-groups`)).json;
});
afterAll(async () => wb?.close());

const sum = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) * 100) / 100;

describe('the seeded world', () => {
  it('has the catalog, people and carts an app needs', async () => {
    expect(world.counts.products).toBeGreaterThanOrEqual(100);
    const categories = world.categories;
    expect(categories.length).toBeGreaterThanOrEqual(8);
    expect(categories.filter((c: any) => c.parent_category_id !== null).length).toBeGreaterThanOrEqual(5);
    expect(categories.every((c: any) => /^[a-z0-9-]+$/.test(c.slug))).toBe(true);
    const variants = (n: (k: number) => boolean) => products.filter((p) => n(p.variants.length));
    expect(variants((k) => k === 0).length).toBeGreaterThan(0);
    expect(products.filter((p) => !p.has_variant && p.variants.length === 1).length).toBeGreaterThan(0);
    expect(products.filter((p) => p.has_variant && p.variants.length === 1).length).toBeGreaterThan(0);
    expect(variants((k) => k > 1).length).toBeGreaterThan(10);
    expect(products.filter((p) => p.bundle_items.length > 0).length).toBeGreaterThanOrEqual(3);
    const all = products.flatMap((p) => p.variants);
    expect(all.every((v: any) => Array.isArray(v.inventory) && v.images.length > 0)).toBe(true);
    expect(all.filter((v: any) => v.promotion !== null).length).toBeGreaterThan(5);
    expect(all.filter((v: any) => v.subscription.length > 0).length).toBeGreaterThan(5);
    expect(groups.length).toBeGreaterThanOrEqual(3);
    expect(groups.filter((g) => g.is_default)).toHaveLength(1);
    expect(groups.every((g) => g.prices.length > 0)).toBe(true);
    expect(world.counts.countries).toBeGreaterThanOrEqual(10);
    expect(world.customers.filter((c: any) => c.cards > 0).length).toBeGreaterThan(5);
    expect(world.customers.filter((c: any) => c.cards === 0).length).toBeGreaterThan(0);
    expect(Object.keys(world.order_statuses).length).toBeGreaterThanOrEqual(5);
    expect(world.carts.length).toBeGreaterThanOrEqual(8);
  });

  it('holds the spec\'s example records, answered exactly as the spec shows them (images served by the sandbox)', async () => {
    // The examples' image URLs (an unresolvable .example host) are the sandbox's own images instead.
    const t = new AssetUrls(wb.url, 'demo-store').fromExamples(structuredClone(await loadTemplates()));
    const cart = await call(wb, 'getPosCart', 'GET', '/pos/carts/crt_8N2F6Q', { headers: auth });
    // The world is dated from today (whole days from the examples' day): the same records, moved in time.
    const days = Math.round((Date.parse(cart.json.content.cart.expires_at) - Date.parse(t.cart.expires_at)) / 86_400_000);
    expect(days).toBeGreaterThan(0);
    expect(cart.json.content.cart).toEqual(shiftDates(t.cart, days));
    expect(JSON.stringify(cart.json)).not.toContain('.example/');
    const variant = await call(wb, 'getVariant', 'GET', '/catalog/products/prd_7Q2K9X/variants/var_4M8T2C?inventory=true', { headers: auth });
    expect(variant.json.content.variant).toEqual(shiftDates(t.variant, days));
    const cards = await call(wb, 'listCustomerCards', 'GET', '/customers/cst_9XK2PL/cards', { headers: auth });
    expect(cards.json.content.cards).toEqual(shiftDates(t.cards, days));
    const orders = await call(wb, 'listOrders', 'GET', '/orders?user_id=cst_9XK2PL&sort_by=%7B%22order_date%22%3A%22desc%22%7D&limit=2', { headers: auth });
    expect(orders.json.content.orders.map((o: any) => o.order_number).sort()).not.toHaveLength(0);
    const example = (await http(`${storefront(wb)}/shipping/fulfillment-options`, 'POST', { headers: { ...auth, prefer: 'example=GetFulfillmentOptionsOk' }, body: { cart_id: 'crt_8N2F6Q', delivery_pincode: '560038' } })).json;
    const live = await call(wb, 'getFulfillmentOptions', 'POST', '/shipping/fulfillment-options', { headers: auth, body: { cart_id: 'crt_8N2F6Q', delivery_pincode: '560038' } });
    expect(live.json).toEqual(example);
  });

  it('carts are made of real catalog variants and their amounts add up', async () => {
    for (const { id } of world.carts) {
      const cart = (await call(wb, 'getPosCart', 'GET', `/pos/carts/${id}`, { headers: auth })).json.content.cart;
      for (const item of cart.cart_items) {
        const detail = await call(wb, 'getVariant', 'GET', `/catalog/products/${item.product_id}/variants/${item.variant_id}`, { headers: auth });
        expect(detail.json.content.variant.sku).toBe(item.sku);
      }
      const lines = cart.cart_items;
      expect(cart.cart_items_count).toBe(lines.length);
      expect(cart.subtotal).toBe(sum(lines.map((i: any) => i.selling_price_excluding_tax * i.quantity)));
      expect(cart.items_tax_amount).toBe(sum(lines.map((i: any) => i.tax_amount)));
      expect(cart.subtotal_including_tax).toBe(sum([cart.subtotal, cart.items_tax_amount]));
      expect(cart.total_tax).toBe(sum([cart.items_tax_amount, cart.shipping_tax_amount, cart.handling_charge_tax_amount]));
      expect(cart.promotion_discount_amount).toBe(sum(lines.map((i: any) => i.promotion_discount_amount)));
      expect(cart.grand_total).toBe(
        sum([cart.subtotal, cart.total_tax, cart.shipping_amount, cart.handling_charge_excluding_tax, -cart.promotion_discount_amount, -cart.coupon_discount_amount, -cart.shipping_discount_amount]),
      );
      expect(cart.to_be_paid).toBe(sum([cart.grand_total, -cart.credit_balance_used]));
      expect(cart.total_savings).toBe(sum([cart.promotion_savings, cart.coupon_savings, cart.other_savings]));
      expect(cart.is_coupon_applied).toBe(cart.applied_coupons.length > 0);
      expect(sum(cart.applied_coupons.map((c: any) => c.savings))).toBe(cart.coupon_discount_amount);
    }
  });

  it('coupons are applicable or not per cart, with the reason and a suggestion', async () => {
    const verdicts = new Map<string, Set<string>>();
    for (const { id } of world.carts) {
      const r = (await call(wb, 'evaluateCartCoupons', 'GET', `/pos/carts/${id}/evaluate-coupons`, { headers: auth })).json.content;
      verdicts.set(id, new Set(r.applicable_coupons.map((c: any) => c.id)));
      for (const c of r.inapplicable_coupons) expect(c.reason.length * c.suggestion.length).toBeGreaterThan(0);
    }
    const bulk = world.carts.find((c: any) => c.grand_total >= 5000).id;
    expect(verdicts.get(bulk)!.has('cpn_BULK5000')).toBe(true);
    expect(verdicts.get('crt_8N2F6Q')!.has('cpn_BULK5000')).toBe(false);
    const empty = world.carts.find((c: any) => c.items === 0).id;
    expect(verdicts.get(empty)!.size).toBe(0);
    const r = (await call(wb, 'evaluateCartCoupons', 'GET', '/pos/carts/crt_8N2F6Q/evaluate-coupons', { headers: auth })).json.content;
    expect(r.inapplicable_coupons.find((c: any) => c.id === 'cpn_BULK5000')).toMatchObject({ reason: 'Cart total is below the minimum of ₹5,000', suggestion: 'Add items worth ₹2,110.18 more to use this coupon' });
    expect(r.inapplicable_coupons.find((c: any) => c.id === 'cpn_FESTIVE2024').reason).toMatch(/expired/);
  });

  it('fulfillment options depend on the cart and the pincode', async () => {
    const options = async (cart: string, pincode: string) => (await call(wb, 'getFulfillmentOptions', 'POST', '/shipping/fulfillment-options', { headers: auth, body: { cart_id: cart, delivery_pincode: pincode } })).json.content;
    const near = await options('crt_8N2F6Q', '560038');
    const mumbai = await options('crt_8N2F6Q', '400050');
    const far = await options('crt_8N2F6Q', '302001');
    const nowhere = await options('crt_8N2F6Q', '999999');
    expect(near.summary).toMatchObject({ collect_available: true, recommended_fulfillment_type: 'collect-in-store' });
    expect(mumbai.collect.map((s: any) => s.id)).toEqual(['loc_MUM01']);
    expect(far.collect).toEqual([]);
    expect(far.deliver.shipping_methods.map((m: any) => m.id)).toEqual(['shm_STANDARD']);
    expect(nowhere.deliver.is_serviceable).toBe(false);
    const empty = world.carts.find((c: any) => c.items === 0).id;
    expect((await options(empty, '560038')).summary).toMatchObject({ collect_available: false, deliver_available: false, recommended_fulfillment_type: 'unavailable' });
    const bulk = world.carts.find((c: any) => c.grand_total >= 5000).id;
    const bulkStandard = (await options(bulk, '110001')).deliver.shipping_methods[0].shipping_amount;
    expect([near.deliver.shipping_methods[0].shipping_amount, bulkStandard]).toEqual(['59.00', '79.00']);
  });

  it('is the same on every start with the same seed, and another with another seed or store', async () => {
    const again = await startSandbox({ webhooks: false });
    const other = await startSandbox({ webhooks: false, sandbox: { seed: 2 } });
    try {
      // Image URLs carry each workbench's own address (its images are served there); the rest is the same.
      const sameOrigin = (w: Workbench, text: string) => text.split(w.url).join('http://sandbox');
      const page = async (w: Workbench, store = 'demo-store') => {
        const { auth: a } = await anonymous(w, store);
        return sameOrigin(w, (await http(`${storefront(w, store)}/catalog/products${q({ limit: 100, inventory: true })}`, 'GET', { headers: a })).text);
      };
      const first = await page(wb);
      expect(await page(again)).toBe(first);
      expect(sameOrigin(again, (await http(`${backOffice(again)}/world/products`)).text)).toBe(sameOrigin(wb, (await http(`${backOffice(wb)}/world/products`)).text));
      expect(await page(other)).not.toBe(first);
      expect(await page(wb, 'another-store')).not.toBe(first);
      // The examples' records are in every world, whatever the seed.
      const { auth: a } = await anonymous(other);
      expect((await http(`${storefront(other)}/pos/carts/crt_8N2F6Q`, 'GET', { headers: a })).status).toBe(200);
    } finally {
      await Promise.all([again.close(), other.close()]);
    }
  });
});

describe('lists filter, sort and page over the real set', () => {
  it('filters by category_id and category_slug (either matches), nothing for unknown ones', async () => {
    const lips = world.categories.find((c: any) => c.id === 'cat_lips');
    const eyes = world.categories.find((c: any) => c.id === 'cat_eyes');
    const r = (await call(wb, 'listProducts', 'GET', `/catalog/products${q({ category_id: 'cat_lips', category_slug: 'eyes', limit: 100 })}`, { headers: auth })).json.content;
    expect(r.pagination.total_records).toBe(lips.product_count + eyes.product_count);
    expect(r.products.every((p: any) => p.category_ids.includes('cat_lips') || p.category_ids.includes('cat_eyes'))).toBe(true);
    const parent = (await call(wb, 'listProducts', 'GET', `/catalog/products${q({ category_slug: 'makeup', limit: 1 })}`, { headers: auth })).json.content;
    expect(parent.pagination.total_records).toBeGreaterThan(lips.product_count + eyes.product_count);
    const none = (await call(wb, 'listProducts', 'GET', `/catalog/products${q({ category_id: 'cat_nope' })}`, { headers: auth })).json.content;
    expect(none).toEqual({ products: [], pagination: { total_records: 0, total_pages: 0, limit: 20, next_page: null, previous_page: null } });
  });

  it('sorts by several keys in order, the later ones breaking ties', async () => {
    const r = (await call(wb, 'listProducts', 'GET', `/catalog/products${q({ limit: 100, sort_by: '{"reviews_count":"desc","name":"asc"}' })}`, { headers: auth })).json.content.products;
    for (let i = 1; i < r.length; i++) {
      const [a, b] = [r[i - 1], r[i]];
      expect(a.reviews_count > b.reviews_count || (a.reviews_count === b.reviews_count && a.name.localeCompare(b.name, 'en', { numeric: true, sensitivity: 'base' }) <= 0)).toBe(true);
    }
    const prices = (await call(wb, 'listProducts', 'GET', `/catalog/products${q({ limit: 100, sort_by: '{"selling_price":"asc"}' })}`, { headers: auth })).json.content.products.map((p: any) => p.pricing.selling_price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const orders = (await call(wb, 'listOrders', 'GET', `/orders${q({ user_id: 'cst_9XK2PL', sort_by: '{"grand_total":"asc"}' })}`, { headers: auth })).json.content.orders.map((o: any) => o.grand_total);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
  });

  it('pages: limit echoed, totals over the whole set, null before the first and after the last', async () => {
    const total = world.counts.products;
    const first = (await call(wb, 'listProducts', 'GET', `/catalog/products${q({ limit: 10 })}`, { headers: auth })).json.content.pagination;
    expect(first).toEqual({ total_records: total, total_pages: Math.ceil(total / 10), limit: 10, next_page: 2, previous_page: null });
    const last = (await call(wb, 'listProducts', 'GET', `/catalog/products${q({ limit: 10, page: first.total_pages })}`, { headers: auth })).json.content;
    expect(last.pagination).toMatchObject({ next_page: null, previous_page: first.total_pages - 1 });
    expect(last.products).toHaveLength(total - 10 * (first.total_pages - 1));
    const fractional = (await call(wb, 'listProducts', 'GET', `/catalog/products${q({ limit: 10, page: 2.5 })}`, { headers: auth })).json.content.pagination;
    expect(fractional).toMatchObject({ next_page: 3, previous_page: 1 });
  });

  it('a page past the end is empty, its previous page the last one, however large the page asked (register SF-041)', async () => {
    const pages = Math.ceil(world.counts.products / 10);
    for (const page of [pages + 1, 2 ** 53, '1e20', '99999999999999999999']) {
      const past = await call(wb, 'listProducts', 'GET', `/catalog/products${q({ limit: 10, page })}`, { headers: auth });
      expect(past.json.content.products, String(page)).toEqual([]);
      expect(past.json.content.pagination, String(page)).toMatchObject({ total_pages: pages, next_page: null, previous_page: pages });
    }
    const none = (await call(wb, 'listProducts', 'GET', `/catalog/products${q({ category_id: 'cat_nope', page: 3 })}`, { headers: auth })).json.content;
    expect(none.pagination).toMatchObject({ total_pages: 0, next_page: null, previous_page: null });
  });

  it('a limit above the maximum page size (x-max-page-size, register SF-031) gets 100 rows and says so', async () => {
    const big = (await call(wb, 'listProducts', 'GET', `/catalog/products${q({ limit: 500 })}`, { headers: auth })).json.content;
    expect(big.products).toHaveLength(100);
    expect(big.pagination).toEqual({ total_records: world.counts.products, total_pages: Math.ceil(world.counts.products / 100), limit: 100, next_page: 2, previous_page: null });
    const orders = (await call(wb, 'listOrders', 'GET', `/orders${q({ user_id: 'cst_9XK2PL', limit: 1000 })}`, { headers: auth })).json.content.pagination;
    expect(orders.limit).toBe(100);
    const similar = (await call(wb, 'listSimilarProducts', 'GET', `/pos/catalog/products/similar${q({ limit: 101 })}`, { headers: auth })).json.content;
    expect([similar.products.length, similar.pagination.limit]).toEqual([100, 100]);
  });

  it('filters orders by status and similar products by product_id', async () => {
    const user = world.users_with_orders.find((u: any) => u.orders >= 3).user_id;
    const all = (await call(wb, 'listOrders', 'GET', `/orders${q({ user_id: user, limit: 50 })}`, { headers: auth })).json.content.orders;
    const status = all[0].status;
    const some = (await call(wb, 'listOrders', 'GET', `/orders${q({ user_id: user, status, limit: 50 })}`, { headers: auth })).json.content.orders;
    expect(some.length).toBe(all.filter((o: any) => o.status === status).length);
    expect(some.every((o: any) => o.status === status)).toBe(true);
    const similar = (await call(wb, 'listSimilarProducts', 'GET', `/pos/catalog/products/similar${q({ product_id: 'prd_7Q2K9X', limit: 100 })}`, { headers: auth })).json.content.products;
    expect(similar.length).toBeGreaterThan(0);
    expect(similar.some((p: any) => p.product_id === 'prd_7Q2K9X')).toBe(false);
    expect(similar[0].category_ids).toContain('cat_lips');
    expect(similar.every((p: any) => p.category_ids.includes('cat_makeup'))).toBe(true);
  });
});

describe('the customer-group rule (seed 4.1)', () => {
  const priceOf = async (p: string, v: string, group?: string) =>
    (await call(wb, 'getVariant', 'GET', `/catalog/products/${p}/variants/${v}`, { headers: { ...auth, ...(group ? { 'x-customer-group-id': group } : {}) } })).json.content.variant.pricing.selling_price;
  const entry = (groupId: string, variantId: string) => groups.find((g) => g.id === groupId).prices.find((p: any) => p.variant_id === variantId);
  const variantsOf = () => products.flatMap((p) => p.variants.map((v: any) => ({ p: p.id, v: v.id, base: v.pricing.selling_price })));

  it('a group with data for the item gets that group\'s price', async () => {
    const hit = variantsOf().find((x) => entry('cgrp_wholesale', x.v) && entry('cgrp_wholesale', x.v).pricing.selling_price !== x.base)!;
    expect(await priceOf(hit.p, hit.v, 'cgrp_wholesale')).toBe(entry('cgrp_wholesale', hit.v).pricing.selling_price);
    expect(await priceOf('prd_7Q2K9X', 'var_4M8T2C', 'cgrp_wholesale')).toBe(501.5);
  });

  it('a group without data for the item (or an unknown group, or none) gets the default group\'s', async () => {
    const hit = variantsOf().find((x) => entry('cgrp_default', x.v) && !entry('cgrp_gold', x.v))!;
    const want = entry('cgrp_default', hit.v).pricing.selling_price;
    expect(want).not.toBe(hit.base);
    expect(await priceOf(hit.p, hit.v, 'cgrp_gold')).toBe(want);
    expect(await priceOf(hit.p, hit.v, 'cgrp_unknown')).toBe(want);
    expect(await priceOf(hit.p, hit.v)).toBe(want);
  });

  it('when the default group has none either, the highest applicable price', async () => {
    const hit = variantsOf().find((x) => !entry('cgrp_default', x.v) && !entry('cgrp_gold', x.v) && entry('cgrp_staff', x.v))!;
    const candidates = [hit.base, ...groups.map((g) => entry(g.id, hit.v)?.pricing.selling_price).filter((n) => n !== undefined)];
    expect(await priceOf(hit.p, hit.v, 'cgrp_gold')).toBe(Math.max(...candidates));
    expect(await priceOf(hit.p, hit.v, 'cgrp_staff')).toBe(entry('cgrp_staff', hit.v).pricing.selling_price);
  });

  it('applies to the list and the similar products too, with the group\'s promotions', async () => {
    const header = (group?: string) => ({ ...auth, ...(group ? { 'x-customer-group-id': group } : {}) });
    const lipsList = async (group?: string) =>
      (await call(wb, 'listProducts', 'GET', `/catalog/products${q({ category_id: 'cat_lips', limit: 100 })}`, { headers: header(group) })).json.content.products;
    const [wholesale, gold, none] = [await lipsList('cgrp_wholesale'), await lipsList('cgrp_gold'), await lipsList()];
    const lipstick = (list: any[]) => list.find((p: any) => p.id === 'prd_7Q2K9X');
    expect(lipstick(wholesale).pricing.selling_price).toBe(501.5);
    expect(lipstick(none).pricing.selling_price).toBe(590);
    // Wholesale prices every lipstick it lists with no promotion; the item's own promotion does not show through.
    const wsEntries = groups.find((g) => g.id === 'cgrp_wholesale').prices;
    const wsVariants = wholesale.flatMap((p: any) => p.variants).filter((v: any) => wsEntries.some((e: any) => e.variant_id === v.id));
    expect(wsVariants.length).toBeGreaterThan(2);
    for (const v of wsVariants) expect([v.id, v.promotion, v.on_promotion]).toEqual([v.id, null, false]);
    // Gold's own promotion (prm_GOLD5) shows on the variants gold prices with it, and only for gold.
    const goldEntries = groups.find((g) => g.id === 'cgrp_gold').prices.filter((e: any) => e.promotion);
    const goldVariants = gold.flatMap((p: any) => p.variants).filter((v: any) => goldEntries.some((e: any) => e.variant_id === v.id));
    expect(goldVariants.length).toBeGreaterThan(0);
    for (const v of goldVariants) {
      const want = goldEntries.find((e: any) => e.variant_id === v.id).promotion;
      expect([v.id, v.promotion, v.on_promotion]).toEqual([v.id, want, true]);
      const plain = none.flatMap((p: any) => p.variants).find((x: any) => x.id === v.id);
      expect(plain.promotion?.id ?? null).not.toBe(want.id);
    }
    // A product shows its default variant's promotion (the first variant's when none is marked).
    for (const p of gold) expect([p.id, p.promotion]).toEqual([p.id, (p.variants.find((v: any) => v.is_default) ?? p.variants[0])?.promotion ?? p.promotion]);
    expect(gold.filter((p: any) => p.promotion?.id === 'prm_GOLD5' && p.on_promotion).length).toBeGreaterThan(0);
    // The similar products follow the same rule.
    const otherLip = products.find((p) => p.category_ids.includes('cat_lips') && p.id !== 'prd_7Q2K9X').id;
    const similar = async (group: string) =>
      (await call(wb, 'listSimilarProducts', 'GET', `/pos/catalog/products/similar${q({ product_id: otherLip, limit: 200 })}`, { headers: header(group) })).json.content.products;
    const wsSimilar = (await similar('cgrp_wholesale')).find((p: any) => p.product_id === 'prd_7Q2K9X');
    expect([wsSimilar.pricing.selling_price, wsSimilar.promotion, wsSimilar.on_promotion]).toEqual([501.5, null, false]);
    const goldSimilar = (await similar('cgrp_gold')).filter((p: any) => goldEntries.some((e: any) => e.variant_id === p.variant_id));
    expect(goldSimilar.length).toBeGreaterThan(0);
    for (const p of goldSimilar) expect([p.variant_id, p.promotion?.id, p.on_promotion]).toEqual([p.variant_id, 'prm_GOLD5', true]);
  });

  it('issue 38: a wholesale customer\'s product list shows no promotion on any variant wholesale prices with "no promotion", its own promotion included', async () => {
    const wsEntries = new Map(groups.find((g) => g.id === 'cgrp_wholesale').prices.map((e: any) => [`${e.product_id}/${e.variant_id}`, e]));
    expect([...wsEntries.values()].every((e: any) => e.promotion === null)).toBe(true);
    const listed: any[] = [];
    for (let page = 1; ; page++) {
      const r = (await call(wb, 'listProducts', 'GET', `/catalog/products${q({ limit: 100, page })}`, { headers: { ...auth, 'x-customer-group-id': 'cgrp_wholesale' } })).json.content;
      listed.push(...r.products);
      if (r.pagination.next_page === null) break;
    }
    const concerned = listed.flatMap((p: any) => p.variants.filter((v: any) => wsEntries.has(`${p.id}/${v.id}`)));
    const own = new Map(products.flatMap((p) => p.variants.map((v: any) => [v.id, v.promotion ?? null])));
    // Every wholesale variant is listed, and some of them carry a promotion of their own that must not show.
    expect(concerned.length).toBe([...wsEntries.values()].filter((e: any) => e.variant_id !== null).length);
    expect(concerned.filter((v: any) => own.get(v.id) !== null).length).toBeGreaterThanOrEqual(5);
    expect(concerned.filter((v: any) => v.promotion !== null || v.on_promotion).map((v: any) => v.id)).toEqual([]);
  });
});

describe('operation details', () => {
  it('inventory lots only when inventory=true', async () => {
    const get = async (query: string) => (await call(wb, 'listProducts', 'GET', `/catalog/products${query}`, { headers: auth })).json.content.products[0];
    for (const query of ['?limit=1', '?limit=1&inventory=false']) {
      const p = await get(query);
      expect('inventory' in p).toBe(false);
      expect(p.variants.some((v: any) => 'inventory' in v)).toBe(false);
    }
    const p = await get('?limit=1&inventory=true');
    expect(p.inventory.length).toBeGreaterThan(0);
    expect(p.variants.every((v: any) => Array.isArray(v.inventory))).toBe(true);
  });

  it('the POS login returns the OTP only with debug_mode=true', async () => {
    const body = { location_id: 'loc_BLR_IND', phone: '9876543210', country_code: '+91' };
    const plain = (await call(wb, 'startPosPhoneLogin', 'POST', '/pos/auth/login/phone', { headers: KEY, body })).json.content;
    expect(plain.otp).toBeUndefined();
    const debug = (await call(wb, 'startPosPhoneLogin', 'POST', '/pos/auth/login/phone?debug_mode=true', { headers: KEY, body })).json.content;
    expect(debug.otp).toMatch(/^\d{6}$/);
    expect(debug.otp_token).not.toBe(plain.otp_token);
  });

  it('POST /customers persists: the customer\'s cards are an empty list, not a 404', async () => {
    const body = { business: { business_type: 'salon', name: 'Noor Salon', pan_number: 'AAKFN1234M', gstin: '29AAKFN1234M1Z3' }, address: { first_name: 'Noor', last_name: 'Khan', country_code: '+91', phone: '9811111111', email: 'noor@example.in', city: 'Bengaluru', pincode: '560001' } };
    const created = (await call(wb, 'createCustomer', 'POST', '/customers', { headers: auth, body })).json.content.customer_detail;
    expect(created).toMatchObject({ first_name: 'Noor', business: body.business, is_phone_verified: false });
    const cards = await call(wb, 'listCustomerCards', 'GET', `/customers/${created.id}/cards`, { headers: auth });
    expect(cards.json.content.cards).toEqual([]);
    const after = (await http(`${backOffice(wb)}/world`)).json.content;
    expect(after.customers.some((c: any) => c.id === created.id)).toBe(true);
    const missing = await call(wb, 'createCustomer', 'POST', '/customers', { headers: auth, body: { business: { name: 'X' }, address: { first_name: 'Y' } } });
    expect(missing.status).toBe(400);
    expect(missing.json.content.error.details.map((d: any) => d.name)).toEqual(expect.arrayContaining(['address.last_name', 'address.phone', 'business.gstin']));
  });

  it('anonymous users each get their own identity and tokens', async () => {
    const [a, b] = await Promise.all([anonymous(wb), anonymous(wb)]);
    expect(a.userId).not.toBe(b.userId);
    expect(a.token).not.toBe(b.token);
    expect(a.userId).toMatch(/^usr_/);
  });

  it('a Prefer control bypasses the sandbox: Prism serves the spec\'s example', async () => {
    const t = await loadTemplates();
    const example = await http(`${storefront(wb)}/catalog/products`, 'GET', { headers: { ...auth, prefer: 'example=ListProductsOk' } });
    expect(example.json.content.products).toEqual(t.products);
    const gone = await http(`${storefront(wb)}/pos/carts/crt_8N2F6Q`, 'GET', { headers: { ...auth, prefer: 'code=404' } });
    expect(gone.status).toBe(404);
    const dynamic = await http(`${storefront(wb)}/common/countries`, 'GET', { headers: { ...auth, prefer: 'dynamic=true' } });
    expect(dynamic.status).toBe(200);
    // The pipeline still checks the request first.
    expect((await http(`${storefront(wb)}/catalog/products?page=0`, 'GET', { headers: { ...auth, prefer: 'example=ListProductsOk' } })).status).toBe(400);
    expect((await http(`${storefront(wb)}/catalog/products`, 'GET', { headers: { prefer: 'example=ListProductsOk' } })).status).toBe(401);
  });
});

describe('authentication', () => {
  it('strict by default: only tokens this sandbox issued, and only on their store', async () => {
    const never = await call(wb, 'listCountries', 'GET', '/common/countries', { headers: { authorization: 'Bearer sbx_at_forged' } });
    expect(never.status).toBe(401);
    expect(never.json.content.error).toMatchObject({ code: 'unauthorized', details: [{ location: 'header', name: 'Authorization' }] });
    // Not even the token of the spec's CreateAnonymousUserOk example.
    const exampleToken = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c3JfNkQxRTBSIiwic3RvcmUiOiJkZW1vLXN0b3JlIiwiYW5vbiI6dHJ1ZX0.q3Vv0c3lJ0Q6m8x6x2H9bqj1b0c8yq7mQz3nY5dWm2E';
    expect((await call(wb, 'listCountries', 'GET', '/common/countries', { headers: { authorization: `Bearer ${exampleToken}` } })).status).toBe(401);
    const elsewhere = await anonymous(wb, 'other-store');
    const cross = await call(wb, 'listCountries', 'GET', '/common/countries', { headers: elsewhere.auth });
    expect(cross.status).toBe(401);
    expect(cross.json.message).toMatch(/issued for store "other-store"/);
    expect((await call(wb, 'listCountries', 'GET', '/common/countries', { headers: elsewhere.auth, store: 'other-store' })).status).toBe(200);
  });

  it('--lenient-auth accepts any well-formed bearer; --api-key restricts the store API key', async () => {
    const lenient = await startSandbox({ webhooks: false, sandbox: { lenientAuth: true }, apiKeys: ['sk_only_this'] });
    try {
      expect((await call(lenient, 'listCountries', 'GET', '/common/countries', { headers: { authorization: 'Bearer anything-well-formed' } })).status).toBe(200);
      expect((await call(lenient, 'listCountries', 'GET', '/common/countries', { headers: { authorization: 'Bearer' } })).status).toBe(401);
      expect((await call(lenient, 'createAnonymousUser', 'POST', '/auth/anonymous', { headers: { 'x-api-key': 'sk_other' } })).status).toBe(401);
      expect((await call(lenient, 'createAnonymousUser', 'POST', '/auth/anonymous', { headers: { 'x-api-key': 'sk_only_this' } })).status).toBe(200);
    } finally {
      await lenient.close();
    }
    // Without --api-key each store opens with its own sandbox key only (store-keys.test.ts has the rest).
    expect((await call(wb, 'createAnonymousUser', 'POST', '/auth/anonymous', { headers: { 'x-api-key': 'whatever-key-1' } })).status).toBe(401);
    expect((await call(wb, 'createAnonymousUser', 'POST', '/auth/anonymous', { headers: KEY })).status).toBe(200);
  });
});
