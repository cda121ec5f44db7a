// Webhook payloads built from the world's own records, for the events of the AsyncAPI catalog
// (generated/webhooks/catalog.ts): customer.created (CustomerDetail), order.created / order.updated /
// order.cancelled (Order), product.created / product.updated (ProductPayload = Product +
// marketplace_listing), inventory.updated (InventoryPayload) and cart.created / cart.updated (the REST Cart
// as the storefront answers it, from the calculator: back-office.ts). The simulator's trigger validates the
// whole envelope against the event's schema before anything is stored or sent.
import { renderProduct } from './render.js';
import type { CustomerDetail, CustomerRecord, InventoryLot, Order, OrderRecord, ProductRecord, VariantRecord } from './types.js';
import type { World } from './world.js';

export type { EventActor, EventSink, RaisedEvent, RaiseSpec } from './event-sink.js';

/** The back office of the sandbox acts as this admin user. */
export const SANDBOX_ADMIN = 'adm_sandbox';

/** The warehouse every seeded lot is held in. */
export const WAREHOUSE_ID = 'wh_blr_01';

export function customerDetail(c: CustomerRecord): CustomerDetail {
  return {
    id: c.id,
    first_name: c.first_name,
    last_name: c.last_name,
    country_code: c.country_code,
    phone: c.phone,
    email: c.email,
    is_phone_verified: c.is_phone_verified,
    is_email_verified: c.is_email_verified,
    business: { business_type: c.business.business_type, name: c.business.name, pan_number: c.business.pan_number, gstin: c.business.gstin },
  };
}

/** The contract's Order: the stored record without the sandbox's own fields. */
export function orderView(o: OrderRecord): Order {
  const { user_id: _user, cart_id: _cart, ...order } = o;
  return order;
}

export function productPayload(world: World, p: ProductRecord): Record<string, unknown> {
  return { ...renderProduct(world, p, { inventory: true }), marketplace_listing: [] };
}

export function inventoryPayload(world: World, p: ProductRecord, v: VariantRecord, previous: number, at: string): Record<string, unknown> {
  const stock = world.stock(v);
  return {
    product_id: p.id,
    variant_id: v.id,
    sku: v.sku,
    warehouse_id: WAREHOUSE_ID,
    stock_quantity: stock,
    previous_stock_quantity: previous,
    stock_available: stock > 0,
    backorder: v.backorder,
    inventory: (v.inventory ?? []).map((l: InventoryLot) => ({ ...l })),
    modified_at: at,
    marketplace_listing: [],
  };
}
