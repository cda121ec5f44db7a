// The cart calculator (workbench/sandbox/cart.ts) on a small seeded world: the spec's GetPosCartOk to the
// paisa, then carts built here line by line (promotions, coupons spread over lines, subscriptions, free
// items, shipping bands, collection in store, credit, expiry), each total worked out by hand in the test.
// No workbench is started: the world is the sandbox's own seed (the examples' records) plus a few items.
import { beforeAll, describe, expect, it } from 'vitest';
import { AssetUrls } from '../../workbench/sandbox/asset-urls.js';
import { isExpired, priceCart, standardShipping } from '../../workbench/sandbox/cart.js';
import { generateWorld, SEED_EPOCH, UNPRICED } from '../../workbench/sandbox/seed.js';
import { loadTemplates, type Templates } from '../../workbench/sandbox/templates.js';
import type { CartRecord, Coupon, Promotion, Subscription, VariantRecord } from '../../workbench/sandbox/types.js';
import { World } from '../../workbench/sandbox/world.js';
import { plan } from './price-fixtures.js';

const STORE = 'demo-store';
const assets = new AssetUrls('http://sandbox.test', STORE);
const NOW = SEED_EPOCH;
let t: Templates;
let world: World;

const promo = (id: string, kind: 'percentage' | 'fixed', value: number): Promotion => ({
  id,
  starts_at: '2025-01-01T00:00:00+05:30',
  expires_at: '2030-12-31T23:59:59+05:30',
  details: { promotion_type: 'discount', discount_type: kind, discount_percent: kind === 'percentage' ? value : 0, discount_fixed_amount: kind === 'fixed' ? value : 0 },
});
const PLAN = plan('sub_T_MONTHLY', 300);

interface ItemSpec {
  excl: number;
  taxRate?: number;
  listing?: number;
  promotion?: Promotion | null;
  subscription?: Subscription[];
  handling?: number;
  category?: string;
}

/** A product of one variant, made from the example lipstick's variant with the given price. */
function addItem(id: string, spec: ItemSpec): { product_id: string; variant_id: string } {
  const lipstick = world.products.get('prd_7Q2K9X')!;
  const taxRate = spec.taxRate ?? 18;
  const selling = Math.round(spec.excl * (100 + taxRate)) / 100;
  const variant: VariantRecord = {
    ...structuredClone(lipstick.variants[0]),
    id: `var_${id}`,
    sku: `T-${id}`,
    name: `Item ${id}`,
    is_default: true,
    pricing: { ...lipstick.variants[0].pricing, tax_rate: taxRate, listing_price: spec.listing ?? selling, selling_price: selling, selling_price_excluding_tax: spec.excl },
    promotion: spec.promotion ?? null,
    subscription: spec.subscription ?? [],
    shipping: { handling_charges_excluding_tax: spec.handling ?? 0, handling_charges_including_tax: Math.round((spec.handling ?? 0) * 118) / 100, tax_rate: 18, tax_type: 'GST' },
  };
  const category = spec.category ?? 'cat_face';
  world.putProduct({ ...structuredClone(lipstick), id: `prd_${id}`, name: `Product ${id}`, category_ids: [category], variants: [{ ...variant, category_ids: [category] }] });
  return { product_id: `prd_${id}`, variant_id: `var_${id}` };
}

type Line = { product_id: string; variant_id: string; quantity: number; on_subscription?: boolean; is_free_item?: boolean; free_quantity?: number };
const line = (item: { product_id: string; variant_id: string }, quantity: number, extra: Partial<Line> = {}): Line => ({ ...item, quantity, ...extra });

/** A stored cart as the sandbox keeps one: what the shopper decided; the calculator derives the rest. */
function record(id: string, lines: Line[], extra: Partial<CartRecord> = {}): CartRecord {
  return {
    ...structuredClone(t.cart),
    ...UNPRICED,
    id,
    expires_at: '2025-11-21T18:30:00Z',
    coupon_code: null,
    credit_balance_used: 0,
    shipments: [],
    cart_items: lines.map((l) => ({ free_quantity: 0, is_free_item: false, on_subscription: false, ...l })) as CartRecord['cart_items'],
    ...extra,
  };
}

function addCoupon(coupon: Coupon): void {
  world.coupons.push(coupon);
  for (const code of coupon.coupon_code) world.couponByCode.set(code, coupon);
}

let A: { product_id: string; variant_id: string };
let B: typeof A;
let C: typeof A;
let D: typeof A;
let S: typeof A;

beforeAll(async () => {
  t = await loadTemplates();
  world = new World(STORE, generateWorld({ seed: 1, storeId: STORE, catalogSize: 12, assets }, { carts: [], orders: [] }), assets);
  A = addItem('A', { excl: 100, listing: 150, category: 'cat_lips' });
  B = addItem('B', { excl: 200, taxRate: 5, promotion: promo('prm_T10', 'percentage', 10) });
  C = addItem('C', { excl: 50, listing: 70, promotion: promo('prm_TFLAT20', 'fixed', 20), category: 'cat_lips' });
  D = addItem('D', { excl: 50, promotion: promo('prm_TFLAT80', 'fixed', 80), handling: 10 });
  S = addItem('S', { excl: 300, promotion: promo('prm_TSUB', 'percentage', 10), subscription: [PLAN] });
});

describe('the cart calculator', () => {
  it('reproduces the spec\'s GetPosCartOk to the paisa', () => {
    const example = assets.fromExamples(structuredClone(t.cart));
    const stored = record('crt_8N2F6Q', [line({ product_id: 'prd_7Q2K9X', variant_id: 'var_4M8T2C' }, 2), line({ product_id: 'prd_3H6V1B', variant_id: 'var_3H6V1C' }, 1)], {
      credit_balance_used: 100,
      shipments: [{ ...example.shipments[0], shipment_items: [] }],
      expires_at: example.expires_at,
    });
    const priced = priceCart(world, stored, NOW);
    expect(priced.cart).toEqual(example);
    expect(priced.units).toBe(3);
    expect(priced.couponView).toEqual({
      grandTotal: 2889.82,
      lines: [
        { categoryIds: world.products.get('prd_7Q2K9X')!.category_ids, amountBeforeTax: 1000 },
        { categoryIds: world.products.get('prd_3H6V1B')!.category_ids, amountBeforeTax: 1350 },
      ],
    });
    expect(priced.lines.map((l) => [l.ref.variant.id, l.amount, l.item.sku, l.categoryIds])).toEqual([
      ['var_4M8T2C', 1000, 'KN-LIP-MAT-RR', world.products.get('prd_7Q2K9X')!.category_ids],
      ['var_3H6V1C', 1500, 'KN-GIFT-FG', world.products.get('prd_3H6V1B')!.category_ids],
    ]);
  });

  it('promotions: a percentage of the line, a fixed amount per unit never above the line; applied in sequence over the lines that have one', () => {
    // A: 100 + 18 tax, no promotion. C x2: 100, 40 off (20 a unit), tax 18% of 60. B: 200, 10% = 20 off, tax 5% of 180.
    const { cart } = priceCart(world, record('crt_T_PROMO', [line(A, 1), line(C, 2), line(B, 1)]), NOW);
    expect(cart).toMatchObject({
      subtotal: 400,
      items_tax_amount: 37.8,
      subtotal_including_tax: 437.8,
      promotion_discount_amount: 60,
      promotion_discount_percent: 15,
      is_promotion_applied: true,
      shipping_amount: 59,
      shipping_tax_amount: 10.62,
      total_tax: 48.42,
      grand_total: 447.42,
      to_be_paid: 447.42,
      loyalty_points_earned: 4,
      promotion_savings: 60,
      // (150 - 118) x 1 + (70 - 59) x 2: the listing price above the selling price.
      other_savings: 54,
      total_savings: 114,
      coupon_discount_amount: 0,
      coupon_discount_percent: 0,
      is_coupon_applied: false,
    });
    expect(cart.cart_items.map((i) => [i.variant_id, i.promotion_discount_amount, i.on_promotion, i.tax_amount, i.selling_price, i.selling_price_excluding_tax, i.listing_price])).toEqual([
      ['var_A', 0, false, 18, 118, 100, 150],
      ['var_C', 40, true, 10.8, 59, 50, 70],
      ['var_B', 20, true, 9, 210, 200, 210],
    ]);
    expect(cart.applied_promotions).toEqual([
      { promotion_id: 'prm_TFLAT20', promotion_type: 'discount', savings: 40, product_id: 'prd_C', variant_id: 'var_C', product_name: 'Product C', variant_name: 'Item C', applied_sequence: 1, scope: 'item' },
      { promotion_id: 'prm_T10', promotion_type: 'discount', savings: 20, product_id: 'prd_B', variant_id: 'var_B', product_name: 'Product B', variant_name: 'Item B', applied_sequence: 2, scope: 'item' },
    ]);
    // D: 80 off a unit of 50 is capped at the line, 50; its handling charge (10 a unit, taxed 18%) is added.
    const capped = priceCart(world, record('crt_T_CAP', [line(D, 2)]), NOW).cart;
    expect(capped.cart_items[0]).toMatchObject({ promotion_discount_amount: 100, tax_amount: 0, handling_charge_excluding_tax: 20, handling_charge_tax_rate: 18, handling_charge_including_tax: 23.6 });
    expect(capped).toMatchObject({ subtotal: 100, promotion_discount_amount: 100, handling_charge_excluding_tax: 20, handling_charge_tax_amount: 3.6, handling_charge_including_tax: 23.6, total_tax: 14.22, grand_total: 93.22 });
  });

  it('a plan bought on subscription is priced at the plan with tax taken out, and without the item\'s promotion; a free item costs nothing', () => {
    const { cart } = priceCart(world, record('crt_T_SUB', [line(S, 2, { on_subscription: true }), line(S, 1), line(B, 3, { is_free_item: true })]), NOW);
    expect(cart.cart_items.map((i) => [i.on_subscription, i.subscriptions.map((s) => s.id), i.selling_price, i.selling_price_excluding_tax, i.promotion_discount_amount, i.on_promotion, i.is_free_item, i.tax_amount])).toEqual([
      // 300 / 1.18 = 254.24 a unit, 508.48 for two, 18% tax.
      [true, ['sub_T_MONTHLY'], 300, 254.24, 0, false, false, 91.53],
      // The same item bought once: its price, its 10% promotion.
      [false, [], 354, 300, 30, true, false, 48.6],
      [false, [], 0, 0, 0, false, true, 0],
    ]);
    expect(cart).toMatchObject({ subtotal: 808.48, promotion_discount_amount: 30, items_tax_amount: 140.13, shipping_amount: 59 });
    // Only the line that took its promotion lists it: the plan's line and the free item have the promotion but saved nothing by it.
    expect(cart.applied_promotions.map((p) => [p.variant_id, p.promotion_id, p.savings, p.applied_sequence])).toEqual([['var_S', 'prm_TSUB', 30, 1]]);
    // Other savings: the listing price above what is paid, per unit: (354 - 300) x 2 on the plan, all 210 x 3 of the free item.
    expect(cart.other_savings).toBe(738);
  });

  it('shipping: ₹59 up to ten units, ₹79 above, taxed at 18%; none and no shipment when collected in store or when the cart is empty', () => {
    expect([standardShipping(1), standardShipping(10), standardShipping(11)]).toEqual([59, 59, 79]);
    const ten = priceCart(world, record('crt_T_TEN', [line(A, 10)]), NOW);
    const eleven = priceCart(world, record('crt_T_ELEVEN', [line(A, 6), line(B, 5)]), NOW);
    expect([ten.units, ten.cart.shipping_amount, eleven.units, eleven.cart.shipping_amount, eleven.cart.shipping_tax_amount, eleven.cart.shipping_amount_including_tax]).toEqual([10, 59, 11, 79, 14.22, 93.22]);
    expect(eleven.cart).toMatchObject({ shipping_estimated_cost: 79, shipping_tax_rate: 18, estimated_delivery_days: 2, shipping_discount_amount: 0 });
    expect(eleven.cart.shipments).toEqual([
      {
        id: 'shp_T_ELEVEN',
        shipping_provider_id: 'spv_SHIPRKT',
        shipping_provider_name: 'Shiprocket',
        courier_company_id: 'cc_BLUEDART',
        courier_company_name: 'Blue Dart',
        shipping_amount: 79,
        shipping_tax_amount: 14.22,
        shipping_amount_including_tax: 93.22,
        shipment_items_count: 2,
        shipment_items: eleven.cart.cart_items.map((i) => ({
          product_id: i.product_id,
          product_name: i.product_name,
          product_image_url: i.product_image_url,
          variant_id: i.variant_id,
          variant_name: i.variant_name,
          sku: i.sku,
          quantity: i.quantity,
          free_quantity: 0,
          is_free_item: false,
        })),
      },
    ]);
    expect(eleven.cart.shipments[0].shipment_items.map((i) => [i.variant_id, i.quantity, i.sku])).toEqual([
      ['var_A', 6, 'T-A'],
      ['var_B', 5, 'T-B'],
    ]);
    const collect = { fulfillment_type: 'collect-in-store', pickup_location_id: 'loc_BLR_IND', preference_type: 'user', pickup_location_name: 'Kesari Naturals, Indiranagar' } as CartRecord['fulfillment_preference'];
    const collected = priceCart(world, record('crt_T_COLLECT', [line(A, 1)], { fulfillment_preference: collect }), NOW).cart;
    expect(collected).toMatchObject({ shipping_amount: 0, shipping_estimated_cost: 0, shipping_tax_rate: 0, shipping_tax_amount: 0, shipping_amount_including_tax: 0, estimated_delivery_days: 0, shipments: [], grand_total: 118, fulfillment_preference: collect });
    const empty = priceCart(world, record('crt_T_EMPTY', []), NOW);
    expect(empty.units).toBe(0);
    expect(empty.cart).toMatchObject({ cart_items: [], cart_items_count: 0, shipments: [], shipping_amount: 0, shipping_tax_rate: 0, estimated_delivery_days: 0, grand_total: 0, promotion_discount_percent: 0, coupon_discount_percent: 0, is_promotion_applied: false, loyalty_points_earned: 0 });
  });

  it('a shipment the cart already has keeps its id, provider and courier (a courier not yet chosen stays null); without one, the cart\'s id names it', () => {
    const stored = { id: 'shp_KEPT', shipping_provider_id: 'spv_DELHIVERY', shipping_provider_name: 'Delhivery', courier_company_id: null, courier_company_name: null } as unknown as CartRecord['shipments'][number];
    const { cart } = priceCart(world, record('crt_T_SHIP', [line(A, 1)], { shipments: [stored] }), NOW);
    expect(cart.shipments[0]).toMatchObject({ id: 'shp_KEPT', shipping_provider_id: 'spv_DELHIVERY', shipping_provider_name: 'Delhivery', courier_company_id: null, courier_company_name: null, shipping_amount: 59 });
    // Only a leading crt_ is dropped; a stored cart with no shipments field at all gets the default shipment.
    const named = priceCart(world, record('basket_crt_9', [line(A, 1)]), NOW).cart.shipments[0];
    expect([named.id, named.courier_company_id]).toEqual(['shp_basket_crt_9', 'cc_BLUEDART']);
    const bare = priceCart(world, record('crt_T_BARE', [line(A, 1)], { shipments: undefined as unknown as CartRecord['shipments'] }), NOW).cart.shipments;
    expect(bare.map((s) => [s.id, s.shipping_provider_id, s.courier_company_name])).toEqual([['shp_T_BARE', 'spv_SHIPRKT', 'Blue Dart']]);
  });

  it('a line keeps its free quantity (0 when it has none) and shows its variant\'s first thumbnail, or no image when the variant has none', () => {
    const bare = addItem('NOIMG', { excl: 10 });
    world.variants.get(bare.variant_id)!.variant.images = [];
    const noFree = { ...line(A, 1) } as Line;
    const { cart } = priceCart(world, record('crt_T_LINES', [line(A, 2, { free_quantity: 1 }), line(bare, 1)]), NOW);
    const withoutField = record('crt_T_NOFREE', [noFree]);
    delete (withoutField.cart_items[0] as Partial<Line>).free_quantity;
    expect(priceCart(world, withoutField, NOW).cart.cart_items[0].free_quantity).toBe(0);
    expect(cart.cart_items.map((i) => [i.variant_id, i.free_quantity, i.product_image_url])).toEqual([
      ['var_A', 1, world.variants.get('var_A')!.variant.images[0].url_thumbnail],
      ['var_NOIMG', 0, ''],
    ]);
    expect(cart.shipments[0].shipment_items.map((i) => [i.free_quantity, i.product_image_url])).toEqual([
      [1, world.variants.get('var_A')!.variant.images[0].url_thumbnail],
      [0, ''],
    ]);
    expect(world.variants.get('var_A')!.variant.images[0].url_thumbnail).toMatch(/^http:\/\/sandbox\.test\//);
  });

  it('a percentage coupon is spread over the eligible lines in proportion, the last line taking the rounding, and lowers their tax', () => {
    addCoupon({ id: 'cpn_T_THIRD', name: 'A third off ten', coupon_type: 'discount', coupon_code: ['TTHIRD'], discount_type: 'percentage', discount_percent: 10 / 3, discount_fixed_amount: 0, max_discount: null, min_cart_total: null, category_ids: ['cat_lips'], expires_at: null, scope_label: 'lips' });
    // Eligible (lips): A 100, C x2 100 - 40 = 60, A again 100: 260 x 3.333% = 8.67 -> 3.33, 2, 3.34. B (face) is not eligible.
    const { cart, couponView } = priceCart(world, record('crt_T_SPREAD', [line(A, 1), line(B, 1), line(C, 2), line(A, 1)], { coupon_code: 'TTHIRD' }), NOW);
    expect(couponView.lines.map((l) => l.amountBeforeTax)).toEqual([100, 180, 60, 100]);
    expect(cart.applied_coupons.map((c) => [c.variant_id, c.savings, c.coupon_id, c.product_id, c.product_name, c.variant_name, c.coupon_type])).toEqual([
      ['var_A', 3.33, 'cpn_T_THIRD', 'prd_A', 'Product A', 'Item A', 'discount'],
      ['var_C', 2, 'cpn_T_THIRD', 'prd_C', 'Product C', 'Item C', 'discount'],
      ['var_A', 3.34, 'cpn_T_THIRD', 'prd_A', 'Product A', 'Item A', 'discount'],
    ]);
    expect(cart.cart_items.map((i) => [i.coupon_discount_amount, i.tax_amount])).toEqual([
      [3.33, 17.4],
      [0, 9],
      [2, 10.44],
      [3.34, 17.4],
    ]);
    // subtotal 500; tax 17.4 + 9 + 10.44 + 17.4 = 54.24; promotions 60; coupons 8.67; shipping 59 + 10.62.
    expect(cart).toMatchObject({
      coupon_code: 'TTHIRD',
      is_coupon_applied: true,
      coupon_discount_amount: 8.67,
      coupon_discount_percent: 1.73,
      coupon_savings: 8.67,
      subtotal: 500,
      items_tax_amount: 54.24,
      grand_total: 555.19,
    });
  });

  it('a fixed coupon comes off the cart as one entry; a coupon the cart no longer qualifies for, or an unknown code, is dropped', () => {
    const base = priceCart(world, record('crt_T_NOCPN', [line(A, 2)]), NOW).cart;
    const welcome = priceCart(world, record('crt_T_WELCOME', [line(A, 2)], { coupon_code: 'HELLO100', credit_balance_used: 50 }), NOW).cart;
    expect(base.grand_total).toBe(305.62);
    expect(welcome).toMatchObject({ coupon_code: 'HELLO100', is_coupon_applied: true, coupon_discount_amount: 100, coupon_discount_percent: 50, items_tax_amount: base.items_tax_amount, grand_total: 205.62, credit_balance_used: 50, to_be_paid: 155.62, loyalty_points_earned: 2, other_savings: 64, total_savings: 164 });
    expect(welcome.applied_coupons).toEqual([{ coupon_id: 'cpn_WELCOME100', coupon_type: 'discount', savings: 100, product_id: null, variant_id: null, product_name: null, variant_name: null }]);
    expect(welcome.cart_items[0].coupon_discount_amount).toBe(0);
    for (const code of ['BULK500', 'NO-SUCH-CODE']) {
      const dropped = priceCart(world, record('crt_T_DROP', [line(A, 2)], { coupon_code: code }), NOW).cart;
      expect(dropped).toMatchObject({ coupon_code: null, is_coupon_applied: false, coupon_discount_amount: 0, applied_coupons: [], grand_total: base.grand_total });
    }
  });

  it('credit used is at most the grand total; loyalty points are the whole hundreds of the grand total', () => {
    const { cart } = priceCart(world, record('crt_T_CREDIT', [line(A, 3)], { credit_balance_used: 10_000 }), NOW);
    // 300 + 54 tax + 59 + 10.62 shipping.
    expect(cart).toMatchObject({ grand_total: 423.62, credit_balance_used: 423.62, to_be_paid: 0, loyalty_points_earned: 4 });
    const none = priceCart(world, record('crt_T_NOCREDIT', [line(A, 3)], { credit_balance_used: undefined as unknown as number, loyalty_points_redeemed: undefined as unknown as number }), NOW).cart;
    expect(none).toMatchObject({ credit_balance_used: 0, to_be_paid: 423.62, loyalty_points_redeemed: 0 });
  });

  it('prices a cart for its customer group', () => {
    const lipstick = { product_id: 'prd_7Q2K9X', variant_id: 'var_4M8T2C' };
    const retail = priceCart(world, record('crt_T_RETAIL', [line(lipstick, 1)]), NOW).cart.cart_items[0];
    const wholesale = priceCart(world, record('crt_T_WS', [line(lipstick, 1)], { customer_group_id: 'cgrp_wholesale' }), NOW).cart.cart_items[0];
    expect([retail.selling_price, retail.selling_price_excluding_tax]).toEqual([590, 500]);
    expect([wholesale.selling_price, wholesale.selling_price_excluding_tax]).toEqual([501.5, 425]);
  });

  it('an active cart reads as expired from its expires_at on (not before); an ordered cart never does', () => {
    const at = (expires_at: string, active = true) => priceCart(world, record('crt_T_EXP', [line(A, 1)], { expires_at, active, status: 'ready-for-payment', status_error_message: null }), NOW).cart;
    const past = at(new Date(NOW).toISOString());
    expect(past).toMatchObject({ active: false, status: 'expired', status_error_message: `The cart expired at ${new Date(NOW).toISOString()}; start a new cart.` });
    expect(at(new Date(NOW + 1).toISOString())).toMatchObject({ active: true, status: 'ready-for-payment', status_error_message: null });
    expect(at(new Date(NOW - 1).toISOString(), false)).toMatchObject({ active: false, status: 'ready-for-payment', status_error_message: null });
    expect([isExpired({ active: true, expires_at: new Date(NOW).toISOString() }, NOW), isExpired({ active: true, expires_at: new Date(NOW).toISOString() }, NOW - 1)]).toEqual([true, false]);
  });

  it('a line naming a variant the catalog does not have (or another product\'s) is an error naming the cart and the line', () => {
    expect(() => priceCart(world, record('crt_T_BAD', [line({ product_id: 'prd_A', variant_id: 'var_nope' }, 1)]), NOW)).toThrow('cart crt_T_BAD: no variant var_nope of product prd_A');
    expect(() => priceCart(world, record('crt_T_BAD', [line({ product_id: 'prd_A', variant_id: 'var_B' }, 1)]), NOW)).toThrow('cart crt_T_BAD: no variant var_B of product prd_A');
  });
});
