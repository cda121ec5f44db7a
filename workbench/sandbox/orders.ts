// Orders: placed from a priced cart (the cart's amounts and lines become the order's), and moved through
// statuses. The seed shows `draft` with payment `pending`; the sandbox's flow is
//   draft -> confirmed -> processing -> shipped -> delivered -> returned, and cancelled from the first three.
// Payment follows: pending until confirmed, then paid (payment_success_date set, nothing left to pay,
// loyalty earned); a cancelled paid order and a returned one are refunded (has_refund).
import type { PricedCart } from './cart.js';
import type { Cart, OrderItem, OrderRecord } from './types.js';

export const TRANSITIONS = new Map<string, readonly string[]>([
  ['draft', ['confirmed', 'cancelled']],
  ['confirmed', ['processing', 'cancelled']],
  ['processing', ['shipped', 'cancelled']],
  ['shipped', ['delivered']],
  ['delivered', ['returned']],
  ['cancelled', []],
  ['returned', []],
]);

const PAID = new Set(['confirmed', 'processing', 'shipped', 'delivered']);

export interface PlaceInput {
  orderNumber: string;
  userId: string;
  cartId: string | null;
  at: string;
  customerNote?: string | null;
}

export function orderFromCart(priced: PricedCart, input: PlaceInput): OrderRecord {
  const cart: Cart = priced.cart;
  const items: OrderItem[] = cart.cart_items.map((i) => {
    const plan = i.subscriptions[0];
    return {
      product_id: i.product_id,
      product_name: i.product_name,
      product_image_url: i.product_image_url,
      product_type: i.product_type,
      sku: i.sku,
      slug: i.slug,
      variant_id: i.variant_id,
      variant_name: i.variant_name,
      subscription_plan: i.on_subscription && plan ? plan.subscription_plan : null,
      subscription_frequency: i.on_subscription && plan ? plan.order_frequency : null,
      seller_id: i.seller_id,
      backorder: i.backorder,
      on_promotion: i.on_promotion,
      on_subscription: i.on_subscription,
      is_free_item: i.is_free_item,
      price_including_tax: i.price_including_tax,
      subscription_interval: i.on_subscription && plan ? plan.order_interval : null,
      quantity: i.quantity,
      free_quantity: i.free_quantity,
      selling_price: i.selling_price,
      listing_price: i.listing_price,
      selling_price_excluding_tax: i.selling_price_excluding_tax,
      promotion_discount_amount: i.promotion_discount_amount,
      coupon_discount_amount: i.coupon_discount_amount,
      tax_rate: i.tax_rate,
      tax_amount: i.tax_amount,
      handling_charge_excluding_tax: i.handling_charge_excluding_tax,
      handling_charge_tax_rate: i.handling_charge_tax_rate,
      handling_charge_including_tax: i.handling_charge_including_tax,
      tax_type: i.tax_type,
      associated_options: i.associated_options,
      attributes: i.attributes,
      seller_detail: i.seller_detail,
    };
  });
  return {
    order_number: input.orderNumber,
    order_date: input.at,
    payment_success_date: null,
    created_at: input.at,
    modified_at: input.at,
    status: 'draft',
    payment_status: 'pending',
    has_refund: false,
    on_subscription: items.some((i) => i.on_subscription),
    grand_total: cart.grand_total,
    loyalty_point_redeemed: cart.loyalty_points_redeemed,
    loyalty_point_earned: 0,
    credit_balance_used: cart.credit_balance_used,
    to_be_paid: cart.to_be_paid,
    order_items_count: items.length,
    customer_note: input.customerNote === undefined ? cart.customer_note : input.customerNote,
    currency: cart.currency,
    order_items: items,
    user_id: input.userId,
    cart_id: input.cartId,
  };
}

/** The order after a move to `status` at `at`; the caller checks the move with TRANSITIONS. */
export function withStatus(order: OrderRecord, status: string, at: string): OrderRecord {
  const paid = PAID.has(status) || ((status === 'cancelled' || status === 'returned') && order.payment_success_date !== null);
  const refunded = paid && (status === 'cancelled' || status === 'returned');
  return {
    ...order,
    status,
    modified_at: at,
    payment_status: refunded ? 'refunded' : paid ? 'paid' : status === 'cancelled' ? 'cancelled' : 'pending',
    payment_success_date: paid ? order.payment_success_date ?? at : null,
    has_refund: refunded,
    to_be_paid: paid || status === 'cancelled' ? 0 : Math.round((order.grand_total - order.credit_balance_used) * 100) / 100,
    loyalty_point_earned: PAID.has(status) ? Math.floor(order.grand_total / 100) : 0,
  };
}
