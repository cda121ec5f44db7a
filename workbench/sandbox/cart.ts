// The cart calculator: a stored cart (which variants, how many, coupon, credit, addresses, fulfillment)
// priced against the world. The arithmetic reproduces the spec's GetPosCartOk example to the paisa:
//   line amount   = unit price before tax x quantity        subtotal = sum of line amounts
//   promotion     = the item's promotion on its line amount  item tax = (line - promotion - item coupon) x rate
//   handling      = the variant's handling charge x quantity, taxed at its rate
//   shipping      = delivery's standard rate (none for collect-in-store), taxed at 18%
//   grand total   = subtotal + all tax + shipping + handling - promotions - coupons
//   to be paid    = grand total - credit used;  loyalty earned = floor(grand total / 100)
import { judge, type CouponCart } from './coupons.js';
import { round2 } from './money.js';
import { priceOf, renderSimilar } from './render.js';
import type { AppliedCoupon, AppliedPromotion, Cart, CartItem, CartRecord, Coupon, Shipment, Subscription } from './types.js';
import type { VariantRef, World } from './world.js';

export const SHIPPING_TAX_RATE = 18;
const SHIPPING_PROVIDER = { id: 'spv_SHIPRKT', name: 'Shiprocket' };
const DEFAULT_COURIER = { id: 'cc_BLUEDART', name: 'Blue Dart' };

/** Standard delivery for a number of units: ₹59, ₹79 above ten units. */
export function standardShipping(units: number): number {
  return units > 10 ? 79 : 59;
}

export interface PricedLine {
  ref: VariantRef;
  item: CartItem;
  /** Amount before tax and discounts. */
  amount: number;
  categoryIds: readonly string[];
}

export interface PricedCart {
  cart: Cart;
  lines: PricedLine[];
  /** What coupons are judged against: grand total before any coupon, and the lines. */
  couponView: CouponCart;
  units: number;
}

interface Draft {
  ref: VariantRef;
  quantity: number;
  freeQuantity: number;
  isFree: boolean;
  plan: Subscription | null;
  unitExcl: number;
  unitIncl: number;
  listing: number;
  taxRate: number;
  amount: number;
  promotion: number;
  coupon: number;
  handling: number;
  handlingRate: number;
  price: ReturnType<typeof priceOf>;
}

/** The status an active cart reads as once its `expires_at` has passed on its store's clock (register SF-040). */
export const EXPIRED_STATUS = 'expired';

/** True when an active cart's `expires_at` has passed at `now` (an ordered cart is inactive, never expired). */
export function isExpired(record: Pick<CartRecord, 'active' | 'expires_at'>, now: number): boolean {
  return record.active && Date.parse(record.expires_at) <= now;
}

export function priceCart(world: World, record: CartRecord, now: number = Date.now()): PricedCart {
  const group = record.customer_group_id ?? undefined;
  const drafts: Draft[] = record.cart_items.map((stored) => {
    const ref = world.variantOf(stored.product_id, stored.variant_id);
    if (!ref) throw new Error(`cart ${record.id}: no variant ${stored.variant_id} of product ${stored.product_id}`);
    const price = priceOf(world, ref.product, ref.variant, group);
    const plan = stored.on_subscription ? price.subscription[0] ?? null : null;
    const taxRate = price.pricing.tax_rate;
    const unitIncl = stored.is_free_item ? 0 : plan ? plan.subscription_price : price.pricing.selling_price;
    const unitExcl = stored.is_free_item ? 0 : plan ? round2(plan.subscription_price / (1 + taxRate / 100)) : price.pricing.selling_price_excluding_tax;
    const amount = round2(unitExcl * stored.quantity);
    const promo = price.promotion;
    const promotion =
      promo === null || plan !== null || stored.is_free_item
        ? 0
        : promo.details.discount_type === 'percentage'
          ? round2((amount * promo.details.discount_percent) / 100)
          : Math.min(amount, round2(promo.details.discount_fixed_amount * stored.quantity));
    const handlingUnit = ref.variant.shipping.handling_charges_excluding_tax;
    return {
      ref,
      quantity: stored.quantity,
      freeQuantity: stored.free_quantity ?? 0,
      isFree: stored.is_free_item === true,
      plan,
      unitExcl,
      unitIncl,
      listing: price.pricing.listing_price,
      taxRate,
      amount,
      promotion,
      coupon: 0,
      handling: round2(handlingUnit * stored.quantity),
      handlingRate: handlingUnit > 0 ? ref.variant.shipping.tax_rate : 0,
      price,
    };
  });

  const delivery = record.fulfillment_preference.fulfillment_type !== 'collect-in-store' && drafts.length > 0;
  const units = drafts.reduce((n, d) => n + d.quantity, 0);
  const shipping = delivery ? standardShipping(units) : 0;
  const shippingTax = round2((shipping * SHIPPING_TAX_RATE) / 100);
  // The totals of the lines as they stand: before a coupon is applied every line's coupon share is 0.
  const totals = () => {
    const subtotal = round2(drafts.reduce((s, d) => s + d.amount, 0));
    const itemTax = round2(drafts.reduce((s, d) => s + itemTaxOf(d), 0));
    const handling = round2(drafts.reduce((s, d) => s + d.handling, 0));
    const handlingTax = round2(drafts.reduce((s, d) => s + round2((d.handling * d.handlingRate) / 100), 0));
    const promotion = round2(drafts.reduce((s, d) => s + d.promotion, 0));
    const lineCoupons = round2(drafts.reduce((s, d) => s + d.coupon, 0));
    const grand = round2(subtotal + itemTax + shippingTax + handlingTax + shipping + handling - promotion - lineCoupons);
    return { subtotal, itemTax, handling, handlingTax, promotion, lineCoupons, grand };
  };
  const lines = drafts.map((d) => ({ categoryIds: d.ref.product.category_ids, amountBeforeTax: round2(d.amount - d.promotion) }));
  const before = totals();
  const couponView: CouponCart = { grandTotal: before.grand, lines };

  // The applied coupon, when the cart still qualifies for it.
  let coupon: Coupon | undefined = record.coupon_code ? world.couponByCode.get(record.coupon_code) : undefined;
  let cartCoupon = 0;
  const appliedCoupons: AppliedCoupon[] = [];
  if (coupon) {
    // Stryker disable next-line ArrowFunction,LogicalOperator,OptionalChaining: category names appear only in the reason of an inapplicable verdict, which the calculator drops (evaluateCartCoupons shows it)
    const verdict = judge(coupon, couponView, now, (id) => world.categories.get(id)?.name ?? id);
    if (!verdict.applicable) coupon = undefined;
    else if (coupon.discount_type === 'percentage') {
      // Spread over the eligible lines in proportion to their amounts; the last takes the rounding.
      const base = verdict.eligible.reduce((s, i) => s + lines[i].amountBeforeTax, 0);
      let left = verdict.discount;
      verdict.eligible.forEach((i, n) => {
        const share = n === verdict.eligible.length - 1 ? left : round2((verdict.discount * lines[i].amountBeforeTax) / base);
        drafts[i].coupon = share;
        left = round2(left - share);
        appliedCoupons.push({
          coupon_id: coupon!.id,
          coupon_type: coupon!.coupon_type,
          savings: share,
          product_id: drafts[i].ref.product.id,
          variant_id: drafts[i].ref.variant.id,
          product_name: drafts[i].ref.product.name,
          variant_name: drafts[i].ref.variant.name,
        });
      });
    } else {
      cartCoupon = verdict.discount;
      appliedCoupons.push({ coupon_id: coupon.id, coupon_type: coupon.coupon_type, savings: cartCoupon, product_id: null, variant_id: null, product_name: null, variant_name: null });
    }
  }
  const t = totals();
  const couponTotal = round2(t.lineCoupons + cartCoupon);
  const grandTotal = round2(t.grand - cartCoupon);
  const credit = Math.min(record.credit_balance_used ?? 0, grandTotal);
  const otherSavings = round2(drafts.reduce((s, d) => s + Math.max(0, d.listing - d.unitIncl) * d.quantity, 0));

  const items: CartItem[] = drafts.map((d) => cartItem(world, d, group, itemTaxOf(d)));
  const promotions: AppliedPromotion[] = drafts.flatMap((d) => {
    const promotion = d.price.promotion;
    return d.promotion > 0 && promotion
      ? [
          {
            promotion_id: promotion.id,
            promotion_type: promotion.details.promotion_type,
            savings: d.promotion,
            product_id: d.ref.product.id,
            variant_id: d.ref.variant.id,
            product_name: d.ref.product.name,
            variant_name: d.ref.variant.name,
            applied_sequence: 0,
            scope: 'item',
          },
        ]
      : [];
  });
  // The sequence counts applied promotions only, in the order of their lines.
  promotions.forEach((p, i) => (p.applied_sequence = i + 1));

  const stored = record.shipments?.[0];
  const shipments: Shipment[] = delivery
    ? [
        {
          id: stored?.id ?? `shp_${record.id.replace(/^crt_/, '')}`,
          shipping_provider_id: stored?.shipping_provider_id ?? SHIPPING_PROVIDER.id,
          shipping_provider_name: stored?.shipping_provider_name ?? SHIPPING_PROVIDER.name,
          courier_company_id: stored ? stored.courier_company_id : DEFAULT_COURIER.id,
          courier_company_name: stored ? stored.courier_company_name : DEFAULT_COURIER.name,
          shipping_amount: shipping,
          shipping_tax_amount: shippingTax,
          shipping_amount_including_tax: round2(shipping + shippingTax),
          shipment_items_count: items.length,
          shipment_items: items.map((i) => ({
            product_id: i.product_id,
            product_name: i.product_name,
            product_image_url: i.product_image_url,
            variant_id: i.variant_id,
            variant_name: i.variant_name,
            sku: i.sku,
            quantity: i.quantity,
            free_quantity: i.free_quantity,
            is_free_item: i.is_free_item,
          })),
        },
      ]
    : [];

  // Past its expiry on the store's clock, an active cart reads as expired (register SF-040).
  const expired = isExpired(record, now);
  const cart: Cart = {
    id: record.id,
    active: expired ? false : record.active,
    customer_note: record.customer_note,
    status: expired ? EXPIRED_STATUS : record.status,
    status_error_message: expired ? `The cart expired at ${record.expires_at}; start a new cart.` : record.status_error_message,
    expires_at: record.expires_at,
    metadata: record.metadata,
    currency: record.currency,
    is_promotion_applied: t.promotion > 0,
    is_coupon_applied: appliedCoupons.length > 0,
    coupon_code: coupon ? record.coupon_code : null,
    coupon_discount_amount: couponTotal,
    coupon_discount_percent: t.subtotal > 0 ? round2((couponTotal / t.subtotal) * 100) : 0,
    promotion_discount_amount: t.promotion,
    promotion_discount_percent: t.subtotal > 0 ? round2((t.promotion / t.subtotal) * 100) : 0,
    subtotal: t.subtotal,
    items_tax_amount: t.itemTax,
    subtotal_including_tax: round2(t.subtotal + t.itemTax),
    total_tax: round2(t.itemTax + shippingTax + t.handlingTax),
    grand_total: grandTotal,
    credit_balance_used: credit,
    to_be_paid: round2(grandTotal - credit),
    shipping_estimated_cost: shipping,
    shipping_discount_amount: 0,
    shipping_amount: shipping,
    shipping_tax_rate: delivery ? SHIPPING_TAX_RATE : 0,
    shipping_tax_amount: shippingTax,
    shipping_amount_including_tax: round2(shipping + shippingTax),
    estimated_delivery_days: delivery ? 2 : 0,
    handling_charge_excluding_tax: t.handling,
    handling_charge_tax_amount: t.handlingTax,
    handling_charge_including_tax: round2(t.handling + t.handlingTax),
    loyalty_points_redeemed: record.loyalty_points_redeemed ?? 0,
    loyalty_points_earned: Math.floor(grandTotal / 100),
    promotion_savings: t.promotion,
    coupon_savings: couponTotal,
    other_savings: otherSavings,
    total_savings: round2(t.promotion + couponTotal + otherSavings),
    cart_items_count: items.length,
    cart_items: items,
    billing_address: record.billing_address,
    shipping_address: record.shipping_address,
    applied_promotions: promotions,
    applied_coupons: appliedCoupons,
    shipments,
    fulfillment_preference: record.fulfillment_preference,
  };
  const pricedLines: PricedLine[] = drafts.map((d, i) => ({ ref: d.ref, item: items[i], amount: d.amount, categoryIds: d.ref.product.category_ids }));
  return { cart, lines: pricedLines, couponView, units };
}

function itemTaxOf(d: Draft): number {
  return round2(((d.amount - d.promotion - d.coupon) * d.taxRate) / 100);
}

function cartItem(world: World, d: Draft, group: string | undefined, taxAmount: number): CartItem {
  // Stryker disable next-line ObjectLiteral,BooleanLiteral: the line copies only the view's catalog fields (names, sku, type, stock, options, attributes, seller), none of which depends on the group or on inventory lots; its prices come from the draft
  const view = renderSimilar(world, d.ref.product, d.ref.variant, { group, inventory: false });
  return {
    product_id: view.product_id,
    variant_id: view.variant_id,
    sku: view.sku,
    slug: view.slug,
    product_name: view.product_name,
    variant_name: view.variant_name,
    product_image_url: d.ref.variant.images[0]?.url_thumbnail ?? '',
    product_type: view.product_type,
    stock_available: view.stock_available,
    backorder: view.backorder,
    on_subscription: d.plan !== null,
    on_promotion: d.promotion > 0,
    is_free_item: d.isFree,
    price_including_tax: d.price.pricing.price_including_tax,
    quantity: d.quantity,
    free_quantity: d.freeQuantity,
    promotion_discount_amount: d.promotion,
    coupon_discount_amount: d.coupon,
    listing_price: d.listing,
    selling_price: d.unitIncl,
    selling_price_excluding_tax: d.unitExcl,
    min_order_quantity: d.price.pricing.min_order_quantity,
    max_order_quantity: d.price.pricing.max_order_quantity,
    incremental_quantity: d.price.pricing.incremental_quantity,
    handling_charge_excluding_tax: d.handling,
    handling_charge_tax_rate: d.handlingRate,
    handling_charge_including_tax: round2(d.handling + (d.handling * d.handlingRate) / 100),
    tax_rate: d.taxRate,
    tax_amount: taxAmount,
    tax_type: d.price.pricing.tax_type,
    associated_options: view.associated_options,
    attributes: view.attributes,
    subscriptions: d.plan ? [d.plan] : [],
    seller_id: view.seller_id,
    seller_detail: view.seller_detail,
  };
}
