// The sandbox's back office under /__simulator/stores/{store_id}/...: NOT part of the contract. It does
// what the real service's staff and systems would (place an order for a cart, move an order through its
// statuses, create or change a product, move stock) and raises the contract's events for it through the
// simulator; it also shows the seeded world and resets it. The routes are one declared table (ROUTES)
// that the pipeline matches, reads bodies for and answers through the error writer; every answer carries
// `X-Simulator: outside-contract`. Prices and stock are taken within the bounds of bounds.ts, and a write
// whose arithmetic would carry an amount past the largest is refused with 409 before it is journaled.
import { successEnvelope, type ErrorItem } from 'storefront-contract/contract';
import { fail } from '../http/errors.js';
import { describeRoutes } from '../http/control-routes.js';
import type { ControlRequest, ControlRoute, Reply } from '../http/extension.js';
import { MAX_AMOUNT, MAX_STOCK, adjustProblem, largestNumber, overflowingCarts, stockProblem } from './bounds.js';
import { priceCart } from './cart.js';
import { newProduct, patchProduct, withStock } from './catalog-admin.js';
import { SANDBOX_ADMIN, inventoryPayload, orderView, productPayload, type RaisedEvent } from './events.js';
import { orderFromCart, TRANSITIONS, withStatus } from './orders.js';
import { renderCategory, renderProduct } from './render.js';
import type { Sandbox } from './sandbox.js';
import { RESOURCES, type ProductRecord, type ResourceName } from './types.js';
import type { World } from './world.js';
import type { Put } from './journal.js';

const done = (status: number, message: string, content: unknown): Reply => ({ status, body: successEnvelope(message, content) });
const invalid = (problems: ErrorItem[]) =>
  fail(400, 'invalid_body', `Invalid body: ${problems.slice(0, 3).map((p) => `'${p.name}' ${p.message}`).join('; ')}${problems.length > 3 ? ` (and ${problems.length - 3} more)` : ''}.`, problems);

const STORE = '/__simulator/stores/{store_id}';

type SandboxRoute = Omit<ControlRoute, 'handle'> & { handle(sandbox: Sandbox, request: ControlRequest): Reply };

/**
 * The back office's routes: one entry each. The pipeline (workbench/http/control-routes.ts) matches them,
 * answers 404 and 405, reads `json-object` bodies and writes the answer; a handler only does the work.
 */
const ROUTES: SandboxRoute[] = [
  {
    method: 'GET',
    path: `${STORE}/world`,
    summary: 'the seeded world: counts and the ids to use (carts, users, customers, groups, categories, coupons, stores)',
    handle: (sandbox, { params }) => done(200, `Sandbox world of store ${params.store_id} (seed ${sandbox.seed}; outside the contract)`, summary(sandbox, params.store_id)),
  },
  {
    method: 'GET',
    path: `${STORE}/keys`,
    summary: "the store's API key for X-Api-Key: a sandbox test key, its own per store, derived from the seed (the same on every run)",
    handle: (sandbox, { params }) => done(200, `API key of store ${params.store_id} (a sandbox test key; outside the contract)`, keysOf(sandbox, params.store_id)),
  },
  {
    method: 'GET',
    path: `${STORE}/world/{resource}`,
    summary: `one resource in fixture-file form (${RESOURCES.join(', ')}); save it as <resource>.json under --data`,
    handle: (sandbox, { params }) => {
      const resource = RESOURCES.find((r) => r === params.resource);
      if (!resource) return fail(404, 'not_found', `No resource ${params.resource}; the resources are ${RESOURCES.join(', ')}.`, [{ location: 'path', name: 'resource', message: 'unknown resource' }]);
      return { status: 200, body: exportResource(sandbox, sandbox.world(params.store_id), resource) };
    },
  },
  {
    method: 'POST',
    path: `${STORE}/reset`,
    summary: 'back to the seeded world (issued tokens stay valid)',
    handle: (sandbox, { params }) => {
      sandbox.reset(params.store_id);
      return done(200, `Store ${params.store_id} is back to its seeded world (seed ${sandbox.seed}).`, summary(sandbox, params.store_id));
    },
  },
  {
    method: 'POST',
    path: `${STORE}/customers/{customer_id}/sign-in`,
    summary: 'a storefront token bound to a customer (what a completed login gives; --ownership strict reads only its cards, orders and carts): -> {user, access_token, refresh_token}',
    handle: (sandbox, { params }) => {
      const customer = sandbox.world(params.store_id).customers.get(params.customer_id);
      if (!customer) return fail(404, 'not_found', `Customer ${params.customer_id} not found.`, [{ location: 'path', name: 'customer_id', message: 'no customer with this id' }]);
      const { identity, accessToken, refreshToken } = sandbox.identities.issue(params.store_id, sandbox.nowIso(), customer);
      sandbox.addIdentity(identity);
      return done(200, `Signed in as customer ${customer.id} (outside the contract).`, { user: identity.user, customer_id: customer.id, access_token: accessToken, refresh_token: refreshToken });
    },
  },
  {
    method: 'POST',
    path: `${STORE}/orders`,
    summary: 'place an order for a cart: {"cart_id": "...", "user_id": "optional", "customer_note": "optional"} -> order.created, inventory.updated',
    body: 'json-object',
    handle: (sandbox, { params, body }) => placeOrder(sandbox, params.store_id, body!),
  },
  {
    method: 'POST',
    path: `${STORE}/orders/{order_number}/status`,
    summary: 'move an order: {"status": "confirmed|processing|shipped|delivered|returned|cancelled"} -> order.updated or order.cancelled',
    body: 'json-object',
    handle: (sandbox, { params, body }) => moveOrder(sandbox, params.store_id, params.order_number, body!),
  },
  {
    method: 'POST',
    path: `${STORE}/products`,
    summary: 'create a product: {"name", "category_ids", "selling_price", ...} -> product.created',
    body: 'json-object',
    handle: (sandbox, { params, body }) => {
      const storeId = params.store_id;
      const world = sandbox.world(storeId);
      const { product, problems } = newProduct(world, body!, sandbox.now());
      if (!product) return invalid(problems);
      sandbox.commit(storeId, [{ kind: 'product', record: product }]);
      const events = raised(sandbox.raise(storeId, 'product.created', productPayload(world, product), { userId: SANDBOX_ADMIN, adminUserId: SANDBOX_ADMIN }));
      return done(201, `Product ${product.id} created.`, { product: renderProduct(world, product, { inventory: true }), events });
    },
  },
  {
    method: 'PATCH',
    path: `${STORE}/products/{product_id}`,
    summary: 'change a product: {"name"|"short_description"|"active"|"tags"|"category_ids"|"selling_price"|"listing_price"|"backorder"} -> product.updated',
    body: 'json-object',
    handle: (sandbox, { params, body }) => {
      const storeId = params.store_id;
      const world = sandbox.world(storeId);
      const product = world.products.get(params.product_id);
      if (!product) return fail(404, 'not_found', `Product ${params.product_id} not found in store ${storeId}.`, [{ location: 'path', name: 'product_id', message: 'no product with this id' }]);
      const { product: next, problems } = patchProduct(world, product, body!);
      if (!next) return invalid(problems);
      const overflow = next.pricing === product.pricing && next.variants.every((v, i) => v.pricing === product.variants[i]?.pricing) ? [] : overflowingCarts(world, next, sandbox.now());
      if (overflow.length) {
        return fail(409, 'conflict', `This price would take the amounts of ${overflow.length} cart(s) past ${MAX_AMOUNT}, the largest amount the sandbox carries; nothing changed.`, overflow);
      }
      sandbox.commit(storeId, [{ kind: 'product', record: next }]);
      const events = raised(sandbox.raise(storeId, 'product.updated', productPayload(world, next), { userId: SANDBOX_ADMIN, adminUserId: SANDBOX_ADMIN }));
      return done(200, `Product ${next.id} updated.`, { product: renderProduct(world, next, { inventory: true }), events });
    },
  },
  {
    method: 'POST',
    path: `${STORE}/inventory`,
    summary: 'move stock: {"product_id", "variant_id"?, "stock_quantity" | "adjust"} -> inventory.updated',
    body: 'json-object',
    handle: (sandbox, { params, body }) => moveStock(sandbox, params.store_id, body!),
  },
];

/** The back office of one sandbox, for its workbench extension. */
export function backOfficeRoutes(sandbox: Sandbox): ControlRoute[] {
  return ROUTES.map((route) => ({ ...route, handle: (request: ControlRequest) => route.handle(sandbox, request) }));
}

/** The sandbox's routes, for GET /__simulator and the docs (the table's summaries). */
export const BACK_OFFICE_ROUTES: Record<string, string> = describeRoutes(ROUTES);

function raised(...events: Array<RaisedEvent | undefined>): RaisedEvent[] {
  return events.filter((e): e is RaisedEvent => e !== undefined);
}

function nextOrderNumber(world: World, at: number): string {
  let max = 0;
  for (const n of world.orders.keys()) {
    const digits = /(\d+)$/.exec(n);
    if (digits) max = Math.max(max, Number(digits[1]));
  }
  return `SO-${new Date(at).getUTCFullYear()}-${String(max + 1).padStart(6, '0')}`;
}

function placeOrder(sandbox: Sandbox, storeId: string, body: Record<string, unknown>): Reply {
  const extra = Object.keys(body).filter((k) => !['cart_id', 'user_id', 'customer_note'].includes(k));
  if (extra.length) return invalid(extra.map((name) => ({ location: 'body', name, message: 'is not a field here (fields: cart_id, user_id, customer_note)' })));
  if (typeof body.cart_id !== 'string' || !body.cart_id) return invalid([{ location: 'body', name: 'cart_id', message: 'is required (the cart to order)' }]);
  if (body.user_id !== undefined && (typeof body.user_id !== 'string' || !body.user_id)) return invalid([{ location: 'body', name: 'user_id', message: 'must be a non-empty string' }]);
  if (body.customer_note !== undefined && body.customer_note !== null && typeof body.customer_note !== 'string') return invalid([{ location: 'body', name: 'customer_note', message: 'must be a string or null' }]);
  const world = sandbox.world(storeId);
  const cart = world.carts.get(body.cart_id);
  if (!cart) return fail(404, 'not_found', `Cart ${body.cart_id} not found in store ${storeId}.`, [{ location: 'body', name: 'cart_id', message: 'no cart with this id' }]);
  const placed = [...world.orders.values()].find((o) => o.cart_id === cart.id);
  if (!cart.active) return fail(409, 'conflict', `Cart ${cart.id} is no longer active${placed ? `: it became order ${placed.order_number}` : ''}.`, [{ location: 'body', name: 'cart_id', message: 'cart already ordered' }]);
  if (cart.cart_items.length === 0) return fail(409, 'conflict', `Cart ${cart.id} is empty: there is nothing to order.`, [{ location: 'body', name: 'cart_id', message: 'empty cart' }]);
  const userId = (body.user_id as string | undefined) ?? cart.customer_id ?? undefined;
  if (!userId) return invalid([{ location: 'body', name: 'user_id', message: `is required: cart ${cart.id} has no customer` }]);

  const now = sandbox.now();
  const at = new Date(now).toISOString();
  const priced = priceCart(world, cart, now);
  if (largestNumber(priced.cart) > MAX_AMOUNT) {
    return fail(409, 'conflict', `Cart ${cart.id} carries an amount past ${MAX_AMOUNT}, the largest amount an order may carry; nothing changed.`, [{ location: 'body', name: 'cart_id', message: `an amount of the cart is past ${MAX_AMOUNT}` }]);
  }
  // Stock leaves with the order; an item short of stock may go only on backorder.
  const products = new Map<string, ProductRecord>();
  const moves: Array<{ productId: string; variantId: string; before: number }> = [];
  for (const line of priced.lines) {
    const product = products.get(line.ref.product.id) ?? line.ref.product;
    const variant = product.variants.find((v) => v.id === line.ref.variant.id)!;
    const before = world.stock(variant);
    if (before < line.item.quantity && !variant.backorder) {
      return fail(409, 'conflict', `Not enough stock of ${product.name} ${variant.name}: ${before} on hand, ${line.item.quantity} ordered (the variant takes no backorders).`, [
        { location: 'body', name: 'cart_id', message: `variant ${variant.id} short of stock` },
      ]);
    }
    products.set(product.id, withStock(product, variant.id, Math.max(0, before - line.item.quantity), now));
    moves.push({ productId: product.id, variantId: variant.id, before });
  }
  const order = orderFromCart(priced, {
    orderNumber: nextOrderNumber(world, now),
    userId,
    cartId: cart.id,
    at,
    customerNote: body.customer_note === undefined ? undefined : (body.customer_note as string | null),
  });
  const puts: Put[] = [
    { kind: 'order', record: order },
    { kind: 'cart', record: { ...cart, active: false, status: 'ordered', status_error_message: null } },
    ...[...products.values()].map((record) => ({ kind: 'product' as const, record })),
  ];
  sandbox.commit(storeId, puts);
  const actor = { userId, adminUserId: null };
  const events = raised(
    sandbox.raise(storeId, 'order.created', orderView(order) as unknown as Record<string, unknown>, actor),
    ...moves.map((move) => {
      const product = world.products.get(move.productId)!;
      const variant = product.variants.find((v) => v.id === move.variantId)!;
      return sandbox.raise(storeId, 'inventory.updated', inventoryPayload(world, product, variant, move.before, at), actor);
    }),
  );
  return done(201, `Order ${order.order_number} placed for cart ${cart.id}.`, { order: { ...orderView(order), user_id: userId }, events });
}

function moveOrder(sandbox: Sandbox, storeId: string, orderNumber: string, body: Record<string, unknown>): Reply {
  const extra = Object.keys(body).filter((k) => k !== 'status');
  if (extra.length) return invalid(extra.map((name) => ({ location: 'body', name, message: 'is not a field here (fields: status)' })));
  const world = sandbox.world(storeId);
  const order = world.orders.get(orderNumber);
  if (!order) return fail(404, 'not_found', `Order ${orderNumber} not found in store ${storeId}.`, [{ location: 'path', name: 'order_number', message: 'no order with this number' }]);
  const status = body.status;
  if (typeof status !== 'string' || !TRANSITIONS.has(status)) {
    return invalid([{ location: 'body', name: 'status', message: `must be one of ${[...TRANSITIONS.keys()].join(', ')}` }]);
  }
  const allowed = TRANSITIONS.get(order.status) ?? [];
  if (!allowed.includes(status)) {
    return fail(409, 'conflict', `Order ${orderNumber} is ${order.status}; it can move to ${allowed.length ? allowed.join(' or ') : 'no other status'}, not ${status}.`, [
      { location: 'body', name: 'status', message: `not allowed from ${order.status}` },
    ]);
  }
  const now = sandbox.now();
  const next = withStatus(order, status, new Date(now).toISOString());
  sandbox.commit(storeId, [{ kind: 'order', record: next }]);
  // order.cancelled replaces order.updated for a cancellation (its message in the AsyncAPI catalog says so).
  const event = status === 'cancelled' ? 'order.cancelled' : 'order.updated';
  const events = raised(sandbox.raise(storeId, event, orderView(next) as unknown as Record<string, unknown>, { userId: next.user_id, adminUserId: SANDBOX_ADMIN }));
  return done(200, `Order ${orderNumber} is now ${status}.`, { order: { ...orderView(next), user_id: next.user_id }, events });
}

function moveStock(sandbox: Sandbox, storeId: string, body: Record<string, unknown>): Reply {
  const extra = Object.keys(body).filter((k) => !['product_id', 'variant_id', 'stock_quantity', 'adjust'].includes(k));
  if (extra.length) return invalid(extra.map((name) => ({ location: 'body', name, message: 'is not a field here (fields: product_id, variant_id, stock_quantity, adjust)' })));
  if (typeof body.product_id !== 'string') return invalid([{ location: 'body', name: 'product_id', message: 'is required' }]);
  const world = sandbox.world(storeId);
  const product = world.products.get(body.product_id);
  if (!product) return fail(404, 'not_found', `Product ${body.product_id} not found in store ${storeId}.`, [{ location: 'body', name: 'product_id', message: 'no product with this id' }]);
  const variant = body.variant_id === undefined ? (product.variants.length === 1 ? product.variants[0] : undefined) : product.variants.find((v) => v.id === body.variant_id);
  if (!variant) {
    return product.variants.length === 0
      ? fail(409, 'conflict', `Product ${product.id} has no variants and holds no stock.`, [{ location: 'body', name: 'product_id', message: 'product without stock' }])
      : body.variant_id === undefined
        ? invalid([{ location: 'body', name: 'variant_id', message: `is required: product ${product.id} has ${product.variants.length} variants` }])
        : fail(404, 'not_found', `Variant ${String(body.variant_id)} of product ${product.id} not found.`, [{ location: 'body', name: 'variant_id', message: 'no variant with this id in this product' }]);
  }
  const setTo = body.stock_quantity;
  const adjust = body.adjust;
  if ((setTo === undefined) === (adjust === undefined)) return invalid([{ location: 'body', name: 'stock_quantity', message: 'give exactly one of stock_quantity (the new count) or adjust (a change, + or -)' }]);
  const before = world.stock(variant);
  const setProblem = setTo === undefined ? undefined : stockProblem(setTo);
  if (setProblem) return invalid([{ location: 'body', name: 'stock_quantity', message: setProblem }]);
  const adjustBad = adjust === undefined ? undefined : adjustProblem(adjust);
  if (adjustBad) return invalid([{ location: 'body', name: 'adjust', message: adjustBad }]);
  const target = setTo !== undefined ? (setTo as number) : before + (adjust as number);
  if (target > MAX_STOCK) {
    return fail(409, 'conflict', `${before} units of ${variant.id} are on hand; adding ${adjust as number} would pass ${MAX_STOCK}, the largest stock.`, [{ location: 'body', name: 'adjust', message: `would take the stock past ${MAX_STOCK}` }]);
  }
  if (target < 0) return fail(409, 'conflict', `Only ${before} units of ${variant.id} are on hand; cannot remove ${-(adjust as number)}.`, [{ location: 'body', name: 'adjust', message: 'more than on hand' }]);
  const now = sandbox.now();
  const next = withStock(product, variant.id, target, now);
  sandbox.commit(storeId, [{ kind: 'product', record: next }]);
  const updated = next.variants.find((v) => v.id === variant.id)!;
  const events = raised(sandbox.raise(storeId, 'inventory.updated', inventoryPayload(world, next, updated, before, new Date(now).toISOString()), { userId: SANDBOX_ADMIN, adminUserId: SANDBOX_ADMIN }));
  return done(200, `Stock of ${variant.id} moved from ${before} to ${target}.`, { product_id: next.id, variant_id: variant.id, previous_stock_quantity: before, stock_quantity: target, inventory: updated.inventory, events });
}

/** What a developer needs from the world: counts and ids to use. */
/** What `GET .../keys` answers: the store's key, and which keys the workbench accepts now. */
export function keysOf(sandbox: Sandbox, storeId: string) {
  const mode = sandbox.apiKeyMode;
  return {
    store_id: storeId,
    seed: sandbox.seed,
    // With --api-key the store's sandbox key does not open it, and the key given is a secret: not shown.
    api_key: mode === 'fixed' ? null : sandbox.apiKey(storeId),
    accepts: mode,
    note:
      mode === 'per-store'
        ? 'Send it as X-Api-Key. Each store has its own key; a key of another store or a made-up key gets 401.'
        : mode === 'any'
          ? 'This sandbox accepts any well-formed X-Api-Key (--any-api-key or --lenient-auth); the store\'s own key works too.'
          : 'This workbench was started with --api-key (or STOREFRONT_API_KEY): that key, not shown, opens every store.',
  };
}

export function summary(sandbox: Sandbox, storeId: string) {
  const world = sandbox.world(storeId);
  const products = [...world.products.values()];
  const sample = (list: ProductRecord[]) => list.slice(0, 5).map((p) => ({ id: p.id, name: p.name, variants: p.variants.map((v) => v.id) }));
  const statuses = new Map<string, number>();
  for (const o of world.orders.values()) statuses.set(o.status, (statuses.get(o.status) ?? 0) + 1);
  const users = new Map<string, number>();
  for (const o of world.orders.values()) users.set(o.user_id, (users.get(o.user_id) ?? 0) + 1);
  return {
    store_id: storeId,
    seed: sandbox.seed,
    version: world.version,
    persisted: sandbox.persistent,
    counts: {
      products: products.length,
      variants: world.variants.size,
      categories: world.categories.size,
      customer_groups: world.groups.length,
      customers: world.customers.size,
      carts: world.carts.size,
      orders: world.orders.size,
      coupons: world.coupons.length,
      countries: world.countries.length,
      locations: world.locations.length,
      anonymous_users: sandbox.identities.count(storeId),
    },
    customer_groups: world.groups.map((g) => ({ id: g.id, name: g.name, is_default: g.is_default, prices: g.prices.length })),
    categories: [...world.categories.values()].map((c) => ({ id: c.id, slug: c.slug, name: c.name, parent_category_id: c.parent_category_id, product_count: world.productCount(c.id) })),
    products: {
      first: sample(products),
      without_variant_options: sample(products.filter((p) => !p.has_variant && p.variants.length === 1 && p.bundle_items.length === 0)),
      one_variant: sample(products.filter((p) => p.has_variant && p.variants.length === 1)),
      several_variants: sample(products.filter((p) => p.variants.length > 1)),
      bundles: sample(products.filter((p) => p.bundle_items.length > 0)),
      no_variants_at_all: sample(products.filter((p) => p.variants.length === 0)),
      on_promotion: sample(products.filter((p) => p.variants.some((v) => v.promotion !== null))),
      on_subscription: sample(products.filter((p) => p.variants.some((v) => v.subscription.length > 0))),
      out_of_stock: sample(products.filter((p) => p.variants.length > 0 && p.variants.every((v) => world.stock(v) === 0))),
    },
    carts: [...world.carts.values()].map((c) => {
      const priced = priceCart(world, c, sandbox.now()).cart;
      return {
        id: c.id,
        customer_id: c.customer_id ?? null,
        customer_group_id: c.customer_group_id ?? null,
        active: c.active,
        items: priced.cart_items_count,
        grand_total: priced.grand_total,
        coupon_code: priced.coupon_code,
        fulfillment_type: c.fulfillment_preference.fulfillment_type,
      };
    }),
    customers: [...world.customers.values()].map((c) => ({ id: c.id, name: `${c.first_name} ${c.last_name}`, cards: c.cards.length, orders: world.ordersOf(c.id).length })),
    users_with_orders: [...users.entries()].map(([user_id, orders]) => ({ user_id, orders })),
    order_statuses: Object.fromEntries(statuses),
    coupons: world.coupons.map((c) => ({ id: c.id, codes: c.coupon_code, name: c.name })),
    locations: world.locations.map((l) => ({ id: l.id, name: l.name, pincode: l.pincode })),
    routes: BACK_OFFICE_ROUTES,
  };
}

/** One resource as a fixture file holds it: loading it back with --data gives the same world. */
export function exportResource(sandbox: Sandbox, world: World, resource: ResourceName): unknown[] {
  switch (resource) {
    case 'categories':
      return [...world.categories.values()].map((c) => renderCategory(world, c));
    case 'products':
      return [...world.products.values()].map((p) => {
        const shown = renderProduct(world, p, { inventory: false });
        return { ...p, categories: shown.categories, bundle_items: shown.bundle_items };
      });
    case 'customer-groups':
      return world.groups;
    case 'countries':
      return world.countries;
    case 'customers':
      return [...world.customers.values()];
    case 'carts':
      return [...world.carts.values()].map((c) => ({ ...priceCart(world, c, sandbox.now()).cart, customer_id: c.customer_id ?? null, customer_group_id: c.customer_group_id ?? null }));
    case 'orders':
      return [...world.orders.values()];
    case 'coupons':
      return world.coupons;
    case 'locations':
      return world.locations;
  }
}
