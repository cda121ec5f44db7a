// The customer-group rule (PriceBook), amounts (money) and coupon rules (coupons) on small hand-made worlds:
// each case names the group prices, the coupon and the cart it judges, so a changed rule shows as a changed
// answer here, without starting a workbench (test/sandbox/behaviour.test.ts checks the same over HTTP).
import { describe, expect, it } from 'vitest';
import { plan } from './price-fixtures.js';
import { evaluate, judge, type CouponCart } from '../../workbench/sandbox/coupons.js';
import { round2, rupees } from '../../workbench/sandbox/money.js';
import { PriceBook, type PriceInputs } from '../../workbench/sandbox/pricing.js';
import type { Coupon, CustomerGroup, GroupPrice, Pricing, Promotion } from '../../workbench/sandbox/types.js';

const pricing = (selling: number): Pricing => ({
  currency: 'INR',
  tax_type: 'GST',
  tax_rate: 18,
  price_including_tax: true,
  listing_price: selling + 100,
  selling_price: selling,
  selling_price_excluding_tax: round2(selling / 1.18),
  min_order_quantity: 1,
  max_order_quantity: 10,
  incremental_quantity: 1,
});
const promotion = (id: string, percent: number): Promotion => ({
  id,
  starts_at: '2025-01-01T00:00:00+05:30',
  expires_at: '2030-12-31T23:59:59+05:30',
  details: { promotion_type: 'discount', discount_type: 'percentage', discount_percent: percent, discount_fixed_amount: 0 },
});
const price = (product_id: string, variant_id: string | null, selling: number, extra: Partial<GroupPrice> = {}): GroupPrice => ({ product_id, variant_id, pricing: pricing(selling), ...extra });
const group = (id: string, prices: GroupPrice[], is_default = false): CustomerGroup => ({ id, name: id, is_default, prices });

const OWN_PROMO = promotion('prm_OWN', 15);
const GROUP_PROMO = promotion('prm_GROUP', 5);
const OWN_PLAN = plan('sub_OWN', 500);
const own = (selling = 1000): PriceInputs => ({ pricing: pricing(selling), promotion: OWN_PROMO, subscription: [OWN_PLAN] });

describe('the customer-group rule (PriceBook)', () => {
  it('issue 38: a group\'s explicit "no promotion" (promotion: null) wins over the item\'s own promotion', () => {
    const book = new PriceBook([group('cgrp_default', []), group('cgrp_wholesale', [price('prd_A', 'var_A', 850, { promotion: null })])]);
    const resolved = book.resolve('prd_A', 'var_A', own(), 'cgrp_wholesale');
    expect(resolved).toMatchObject({ source: 'group', groupId: 'cgrp_wholesale', promotion: null });
    expect(resolved.pricing.selling_price).toBe(850);
    // The same null from the default group, and from the highest-price branch, is kept too.
    const viaDefault = new PriceBook([group('cgrp_default', [price('prd_A', 'var_A', 850, { promotion: null })], true)]);
    expect(viaDefault.resolve('prd_A', 'var_A', own())).toMatchObject({ source: 'default-group', promotion: null });
    const viaHighest = new PriceBook([group('cgrp_staff', [price('prd_A', 'var_A', 1200, { promotion: null })])]);
    expect(viaHighest.resolve('prd_A', 'var_A', own())).toMatchObject({ source: 'highest', groupId: 'cgrp_staff', promotion: null });
  });

  it('a group price without a promotion or subscription field keeps the item\'s own; one with them replaces the item\'s', () => {
    const wsPlan = plan('sub_WS', 400);
    const book = new PriceBook([
      group('cgrp_silent', [price('prd_A', 'var_A', 900)]),
      group('cgrp_gold', [price('prd_A', 'var_A', 950, { promotion: GROUP_PROMO, subscription: [wsPlan] })]),
      group('cgrp_none', [price('prd_A', 'var_A', 960, { subscription: [] })]),
    ]);
    expect(book.resolve('prd_A', 'var_A', own(), 'cgrp_silent')).toMatchObject({ promotion: OWN_PROMO, subscription: [OWN_PLAN], pricing: { selling_price: 900 } });
    expect(book.resolve('prd_A', 'var_A', own(), 'cgrp_gold')).toMatchObject({ promotion: GROUP_PROMO, subscription: [wsPlan], pricing: { selling_price: 950 } });
    expect(book.resolve('prd_A', 'var_A', own(), 'cgrp_none')).toMatchObject({ promotion: OWN_PROMO, subscription: [], pricing: { selling_price: 960 } });
  });

  it('a group with data for the item gives its price; without, or unknown, or none: the default group\'s', () => {
    const book = new PriceBook([
      group('cgrp_gold', [price('prd_A', 'var_A', 900)]),
      group('cgrp_default', [price('prd_A', 'var_A', 950), price('prd_B', null, 450)], true),
    ]);
    expect(book.defaultGroupId).toBe('cgrp_default');
    expect(book.resolve('prd_A', 'var_A', own(), 'cgrp_gold')).toMatchObject({ source: 'group', groupId: 'cgrp_gold', pricing: { selling_price: 900 } });
    for (const g of ['cgrp_unknown', undefined]) {
      expect(book.resolve('prd_A', 'var_A', own(), g)).toMatchObject({ source: 'default-group', groupId: 'cgrp_default', pricing: { selling_price: 950 } });
    }
    // The gold group has no entry for prd_B: the default group's product-level price.
    expect(book.resolve('prd_B', null, own(), 'cgrp_gold')).toMatchObject({ source: 'default-group', groupId: 'cgrp_default', pricing: { selling_price: 450 } });
  });

  it('when the default group has none either: the highest selling price among the item\'s own and every group\'s', () => {
    const book = new PriceBook([
      group('cgrp_default', [price('prd_Z', 'var_Z', 1)], true),
      group('cgrp_low', [price('prd_A', 'var_A', 800)]),
      group('cgrp_high', [price('prd_A', 'var_A', 1300, { promotion: GROUP_PROMO })]),
      group('cgrp_mid', [price('prd_A', 'var_A', 1100)]),
    ]);
    expect(book.resolve('prd_A', 'var_A', own(), 'cgrp_other')).toMatchObject({ source: 'highest', groupId: 'cgrp_high', promotion: GROUP_PROMO, pricing: { selling_price: 1300 } });
    // The item's own price is the highest: it stays, with its own promotion and plans.
    const ownWins = book.resolve('prd_A', 'var_A', own(2000));
    expect(ownWins).toEqual({ ...own(2000), source: 'highest', groupId: null });
    // An equal price is not higher: the item's own stays.
    expect(book.resolve('prd_A', 'var_A', own(1300))).toMatchObject({ source: 'highest', groupId: null, promotion: OWN_PROMO });
    // No group has the item at all: its own price.
    expect(book.resolve('prd_Q', 'var_Q', own(10))).toEqual({ ...own(10), source: 'highest', groupId: null });
  });

  it('without a default group the rule goes straight to the highest price', () => {
    const book = new PriceBook([group('cgrp_low', [price('prd_A', 'var_A', 700)]), group('cgrp_high', [price('prd_A', 'var_A', 1200)])]);
    expect(book.defaultGroupId).toBeNull();
    expect(book.resolve('prd_A', 'var_A', own())).toMatchObject({ source: 'highest', groupId: 'cgrp_high', pricing: { selling_price: 1200 } });
    expect(book.resolve('prd_A', 'var_A', own(), 'cgrp_low')).toMatchObject({ source: 'group', groupId: 'cgrp_low', pricing: { selling_price: 700 } });
  });

  it('a price is the item\'s own: not another variant\'s, not the product-level one, not a product whose id runs on', () => {
    const book = new PriceBook([group('cgrp_default', [price('prd_A', 'var_B', 900), price('prd_A', null, 800), price('prd_Av', 'ar_A', 700)], true)]);
    expect(book.resolve('prd_A', 'var_A', own())).toMatchObject({ source: 'highest', groupId: null });
    expect(book.resolve('prd_A', 'null', own())).toMatchObject({ source: 'highest', groupId: null });
    expect(book.resolve('prd_A', null, own())).toMatchObject({ source: 'default-group', pricing: { selling_price: 800 } });
    expect(book.resolve('prd_A', 'var_B', own())).toMatchObject({ source: 'default-group', pricing: { selling_price: 900 } });
    expect(book.resolve('prd_Av', 'ar_A', own())).toMatchObject({ source: 'default-group', pricing: { selling_price: 700 } });
  });

  it('has() is true only for a group of the store', () => {
    const book = new PriceBook([group('cgrp_gold', [])]);
    expect([book.has('cgrp_gold'), book.has('cgrp_silver'), book.has(undefined)]).toEqual([true, false, false]);
    expect([...book.groups.keys()]).toEqual(['cgrp_gold']);
  });
});

describe('amounts (money)', () => {
  it('round2 rounds to the paisa, half away from zero, through binary noise', () => {
    const cases: Array<[number, number]> = [
      [1.005, 1.01],
      [-1.005, -1.01],
      [2.675, 2.68],
      [1.004, 1],
      [-1.004, -1],
      [0.125, 0.13],
      [10, 10],
      [0, 0],
      [1234.5678, 1234.57],
      [-2.675, -2.68],
    ];
    for (const [n, want] of cases) expect(round2(n), String(n)).toBe(want);
  });

  it('rupees writes Indian digit grouping, at most two decimals, none when whole', () => {
    const cases: Array<[number, string]> = [
      [5000, '₹5,000'],
      [2110.18, '₹2,110.18'],
      [100000, '₹1,00,000'],
      [12.5, '₹12.5'],
      [0.005, '₹0.01'],
      [99.999, '₹100'],
    ];
    for (const [n, want] of cases) expect(rupees(n), String(n)).toBe(want);
  });
});

const NOW = Date.parse('2025-11-14T09:41:07Z');
const coupon = (c: Partial<Coupon> & Pick<Coupon, 'id'>): Coupon => ({
  name: c.id,
  coupon_type: 'discount',
  coupon_code: [c.id.toUpperCase()],
  discount_type: 'fixed',
  discount_percent: 0,
  discount_fixed_amount: 0,
  max_discount: null,
  min_cart_total: null,
  category_ids: [],
  expires_at: null,
  scope_label: null,
  ...c,
});
const names: Record<string, string> = { cat_lips: 'Lips', cat_eyes: 'Eyes' };
const categoryName = (id: string) => names[id] ?? id;
const cart = (grandTotal: number, ...lines: Array<[string[], number]>): CouponCart => ({ grandTotal, lines: lines.map(([categoryIds, amountBeforeTax]) => ({ categoryIds, amountBeforeTax })) });
const LIPS_AND_FACE = cart(3000, [['cat_makeup', 'cat_lips'], 1000], [['cat_face'], 1500]);

describe('coupon rules (coupons)', () => {
  it('a percentage coupon takes its percent of the eligible lines only, rounded to the paisa', () => {
    const lips = coupon({ id: 'lips20', discount_type: 'percentage', discount_percent: 20, category_ids: ['cat_lips'] });
    expect(judge(lips, LIPS_AND_FACE, NOW, categoryName)).toEqual({ applicable: true, discount: 200, eligible: [0] });
    const all = coupon({ id: 'all7', discount_type: 'percentage', discount_percent: 7.5 });
    expect(judge(all, cart(400, [['cat_face'], 100.3], [['cat_eyes'], 33.33]), NOW, categoryName)).toEqual({ applicable: true, discount: 10.02, eligible: [0, 1] });
  });

  it('max_discount caps a percentage coupon (above the cap: the cap; below: the percent)', () => {
    const capped = coupon({ id: 'cap', discount_type: 'percentage', discount_percent: 20, max_discount: 150 });
    expect(judge(capped, LIPS_AND_FACE, NOW, categoryName)).toMatchObject({ applicable: true, discount: 150 });
    expect(judge(capped, cart(600, [['cat_face'], 500]), NOW, categoryName)).toMatchObject({ applicable: true, discount: 100 });
  });

  it('a fixed coupon takes its amount off the cart, never more than the grand total', () => {
    const welcome = coupon({ id: 'welcome100', discount_fixed_amount: 100 });
    expect(judge(welcome, LIPS_AND_FACE, NOW, categoryName)).toEqual({ applicable: true, discount: 100, eligible: [0, 1] });
    expect(judge(welcome, cart(80.5, [['cat_face'], 60]), NOW, categoryName)).toMatchObject({ applicable: true, discount: 80.5 });
    expect(judge(coupon({ id: 'capped', discount_fixed_amount: 300, max_discount: 250 }), LIPS_AND_FACE, NOW, categoryName)).toMatchObject({ discount: 250 });
  });

  it('an expired coupon says when it expired; one expiring now or later, or never, still applies', () => {
    const at = (expires_at: string | null) => judge(coupon({ id: 'c', discount_fixed_amount: 10, expires_at }), LIPS_AND_FACE, NOW, categoryName);
    expect(at('2025-11-14T09:41:06Z')).toEqual({ applicable: false, reason: 'The coupon expired on 2025-11-14', suggestion: 'Use one of the applicable coupons instead' });
    expect(at('2025-11-14T09:41:07Z')).toMatchObject({ applicable: true });
    expect(at('2026-01-01T00:00:00Z')).toMatchObject({ applicable: true });
    expect(at(null)).toMatchObject({ applicable: true });
  });

  it('an empty cart qualifies for nothing', () => {
    expect(judge(coupon({ id: 'c', discount_fixed_amount: 10 }), cart(0), NOW, categoryName)).toEqual({ applicable: false, reason: 'The cart is empty', suggestion: 'Add items to use this coupon' });
  });

  it('a category coupon with no item of its categories names them, and its scope label when it has one', () => {
    const eyesOrLips = coupon({ id: 'c', discount_fixed_amount: 10, category_ids: ['cat_eyes', 'cat_lips'] });
    const faceOnly = cart(500, [['cat_face'], 400]);
    expect(judge(eyesOrLips, faceOnly, NOW, categoryName)).toEqual({ applicable: false, reason: 'No item of the cart is in Eyes or Lips', suggestion: 'Add Eyes or Lips to use this coupon' });
    expect(judge({ ...eyesOrLips, scope_label: 'kajal or lipstick' }, faceOnly, NOW, categoryName)).toEqual({
      applicable: false,
      reason: 'No item of the cart is in Eyes or Lips',
      suggestion: 'Add kajal or lipstick to use this coupon',
    });
    // Any one of its categories is enough.
    expect(judge(eyesOrLips, cart(500, [['cat_face'], 400], [['cat_eyes'], 50]), NOW, categoryName)).toEqual({ applicable: true, discount: 10, eligible: [1] });
  });

  it('min_cart_total is judged against the grand total: below it says how much more; at it, it applies', () => {
    const bulk = coupon({ id: 'bulk', discount_fixed_amount: 500, min_cart_total: 5000 });
    expect(judge(bulk, cart(2889.82, [['cat_face'], 2400]), NOW, categoryName)).toEqual({
      applicable: false,
      reason: 'Cart total is below the minimum of ₹5,000',
      suggestion: 'Add items worth ₹2,110.18 more to use this coupon',
    });
    expect(judge(bulk, cart(5000, [['cat_face'], 4200]), NOW, categoryName)).toMatchObject({ applicable: true, discount: 500 });
  });

  it('evaluate lists the applicable coupons best saving first (ties in the store\'s order) with their messages, and why the others do not apply', () => {
    const coupons = [
      coupon({ id: 'small', name: 'Small', discount_fixed_amount: 50, scope_label: 'face care' }),
      coupon({ id: 'big', name: 'Big', discount_type: 'percentage', discount_percent: 10 }),
      coupon({ id: 'also50', name: 'Also 50', discount_fixed_amount: 50 }),
      coupon({ id: 'old', name: 'Old', discount_fixed_amount: 999, expires_at: '2020-01-01T00:00:00Z', coupon_type: 'cashback' }),
    ];
    const r = evaluate(coupons, LIPS_AND_FACE, NOW, categoryName);
    expect(r.applicable_coupons).toEqual([
      { id: 'big', name: 'Big', coupon_type: 'discount', coupon_code: ['BIG'], estimated_discount: 250, savings_message: 'You save ₹250 on this order' },
      { id: 'small', name: 'Small', coupon_type: 'discount', coupon_code: ['SMALL'], estimated_discount: 50, savings_message: 'You save ₹50 on face care' },
      { id: 'also50', name: 'Also 50', coupon_type: 'discount', coupon_code: ['ALSO50'], estimated_discount: 50, savings_message: 'You save ₹50 on this order' },
    ]);
    expect(r.inapplicable_coupons).toEqual([
      { id: 'old', name: 'Old', reason: 'The coupon expired on 2020-01-01', suggestion: 'Use one of the applicable coupons instead', coupon_type: 'cashback', coupon_code: ['OLD'] },
    ]);
    expect(evaluate([], LIPS_AND_FACE, NOW, categoryName)).toEqual({ applicable_coupons: [], inapplicable_coupons: [] });
  });
});
