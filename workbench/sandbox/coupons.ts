// Coupon rules, shared by evaluateCartCoupons (which coupons a cart qualifies for, and why not) and by the
// cart calculator (the discount of the coupon a cart has applied). A percentage coupon takes its percent
// of the eligible items' amount before tax (after promotions), capped by `max_discount`; a fixed coupon
// takes its amount off the cart. `min_cart_total` is judged against the cart's grand total.
import { round2, rupees } from './money.js';
import type { ApplicableCoupon, Coupon, InapplicableCoupon } from './types.js';

/** What a coupon needs to know about a cart. */
export interface CouponCart {
  /** Grand total before any coupon. */
  grandTotal: number;
  lines: Array<{ categoryIds: readonly string[]; amountBeforeTax: number }>;
}

export type Verdict = { applicable: true; discount: number; eligible: number[] } | { applicable: false; reason: string; suggestion: string };

export function judge(coupon: Coupon, cart: CouponCart, now: number, categoryName: (id: string) => string): Verdict {
  if (coupon.expires_at !== null && Date.parse(coupon.expires_at) < now) {
    return { applicable: false, reason: `The coupon expired on ${coupon.expires_at.slice(0, 10)}`, suggestion: 'Use one of the applicable coupons instead' };
  }
  if (cart.lines.length === 0) return { applicable: false, reason: 'The cart is empty', suggestion: 'Add items to use this coupon' };
  const eligible = cart.lines.flatMap((line, i) => (coupon.category_ids.length === 0 || coupon.category_ids.some((c) => line.categoryIds.includes(c)) ? [i] : []));
  if (eligible.length === 0) {
    const names = coupon.category_ids.map(categoryName).join(' or ');
    return { applicable: false, reason: `No item of the cart is in ${names}`, suggestion: `Add ${coupon.scope_label ?? names} to use this coupon` };
  }
  if (coupon.min_cart_total !== null && cart.grandTotal < coupon.min_cart_total) {
    return {
      applicable: false,
      reason: `Cart total is below the minimum of ${rupees(coupon.min_cart_total)}`,
      suggestion: `Add items worth ${rupees(coupon.min_cart_total - cart.grandTotal)} more to use this coupon`,
    };
  }
  const base = eligible.reduce((sum, i) => sum + cart.lines[i].amountBeforeTax, 0);
  let discount = coupon.discount_type === 'percentage' ? round2((base * coupon.discount_percent) / 100) : Math.min(coupon.discount_fixed_amount, cart.grandTotal);
  if (coupon.max_discount !== null) discount = Math.min(discount, coupon.max_discount);
  return { applicable: true, discount: round2(discount), eligible };
}

export function evaluate(coupons: readonly Coupon[], cart: CouponCart, now: number, categoryName: (id: string) => string) {
  const applicable: ApplicableCoupon[] = [];
  const inapplicable: InapplicableCoupon[] = [];
  for (const coupon of coupons) {
    const verdict = judge(coupon, cart, now, categoryName);
    if (verdict.applicable) {
      applicable.push({
        id: coupon.id,
        name: coupon.name,
        coupon_type: coupon.coupon_type,
        coupon_code: coupon.coupon_code,
        estimated_discount: verdict.discount,
        savings_message: `You save ${rupees(verdict.discount)} on ${coupon.scope_label ?? 'this order'}`,
      });
    } else {
      inapplicable.push({ id: coupon.id, name: coupon.name, reason: verdict.reason, suggestion: verdict.suggestion, coupon_type: coupon.coupon_type, coupon_code: coupon.coupon_code });
    }
  }
  // Best saving first; ties keep the store's order.
  applicable.sort((a, b) => b.estimated_discount - a.estimated_discount);
  return { applicable_coupons: applicable, inapplicable_coupons: inapplicable };
}
