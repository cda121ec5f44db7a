// The sandbox's back office under /__simulator/stores/{store_id}/...: NOT part of the contract. It does
// what the real service's staff and systems would (place an order for a cart, move an order through its
// statuses, create or change a product, move stock) and raises the contract's events for it through the
// simulator; it also shows the seeded world and resets it. The routes are one declared table (ROUTES)
// that the pipeline matches, reads bodies for and answers through the error writer; every answer carries
// `X-Simulator: outside-contract`. Prices and stock are taken within the bounds of bounds.ts, and a write
// whose arithmetic would carry an amount past the largest is refused with 409 before it is journaled.
// Each route is declared by its name in back-office-api.ts (method, path, body and answer types), from
// which the typed client (back-office-client.ts) is built too.
// Carts (set up any cart the contract can show): created and changed from a body (cart-admin.ts), then
// checked as the journal will check them at the next start and as the storefront will answer them (the
// spec's getPosCart answer, validated) before they are committed; `cart.created` / `cart.updated` follow.
import { successEnvelope, type ErrorItem, type SuccessEnvelope } from 'storefront-contract/contract';
import { fail } from '../http/errors.js';
import { describeRoutes } from '../http/control-routes.js';
import type { ControlRequest, ControlRoute, Reply } from '../http/extension.js';
import { BACK_OFFICE_CALLS, BACK_OFFICE_PREFIX, FIELDS, type BackOfficeCallName, type BackOfficeCalls, type CartWritten, type StockMove, type StoreKeys, type WorldSummary } from './back-office-api.js';
import { MAX_AMOUNT, MAX_STOCK, adjustProblem, largestNumber, overflowingCarts, stockProblem } from './bounds.js';
import { isExpired, priceCart } from './cart.js';
import { cartFromBody, changedCart, withLineAdded, withLineChanged, withLineRemoved, type AddressCheck, type CartDraft } from './cart-admin.js';
import { newProduct, patchProduct, withStock } from './catalog-admin.js';
import { judge } from './coupons.js';
import { SANDBOX_ADMIN, inventoryPayload, orderView, productPayload } from './events.js';
import { componentCheck, journalRecordCheck } from './fixtures.js';
import { orderFromCart, TRANSITIONS, withStatus } from './orders.js';
import { renderCategory, renderProduct } from './render.js';
import type { RaiseSpec, Sandbox } from './sandbox.js';
import { RESOURCES, type CartRecord, type ProductRecord, type ResourceName } from './types.js';
import type { World } from './world.js';
import type { Put } from './journal.js';

const done = <T>(status: number, message: string, content: T): Reply<SuccessEnvelope<T>> => ({ status, body: successEnvelope(message, content) });
const invalid = (problems: ErrorItem[]) =>
  fail(400, 'invalid_body', `Invalid body: ${problems.slice(0, 3).map((p) => `'${p.name}' ${p.message}`).join('; ')}${problems.length > 3 ? ` (and ${problems.length - 3} more)` : ''}.`, problems);

const STORE = BACK_OFFICE_PREFIX;

type SandboxRoute = Omit<ControlRoute, 'handle'> & { handle(sandbox: Sandbox, request: ControlRequest): Reply | Promise<Reply> };

/** What the route of a call answers: its success envelope, or a failure. */
type Answer<K extends BackOfficeCallName> = Reply<SuccessEnvelope<BackOfficeCalls[K]['content']>>;

/** A route declared by its call's name: method, path and body from BACK_OFFICE_CALLS; tsc holds the handler to the call's answer. */
function route<K extends BackOfficeCallName>(
  name: K,
  summary: string,
  handle: (sandbox: Sandbox, request: ControlRequest) => (K extends 'getWorldResource' ? Reply<unknown[]> : Answer<K>) | Promise<Answer<K>>,
): SandboxRoute {
  const call = BACK_OFFICE_CALLS[name];
  return { method: call.method, path: `${STORE}${call.path}`, summary, ...(call.body ? { body: 'json-object' as const } : {}), handle };
}

/**
 * The back office's routes: one entry each. The pipeline (workbench/http/control-routes.ts) matches them,
 * answers 404 and 405, reads `json-object` bodies and writes the answer; a handler only does the work.
 */
const ROUTES: SandboxRoute[] = [
  route('getWorld', 'the seeded world: counts and the ids to use (carts, users, customers, groups, categories, coupons, stores)', (sandbox, { params }) =>
    done(200, `Sandbox world of store ${params.store_id} (seed ${sandbox.seed}; outside the contract)`, summary(sandbox, params.store_id)),
  ),
  route('getKeys', "the store's API key for X-Api-Key: a sandbox test key, its own per store, derived from the seed (the same on every run)", (sandbox, { params }) =>
    done(200, `API key of store ${params.store_id} (a sandbox test key; outside the contract)`, keysOf(sandbox, params.store_id)),
  ),
  route('getWorldResource', `one resource in fixture-file form (${RESOURCES.join(', ')}); save it as <resource>.json under --data`, (sandbox, { params }) => {
    const resource = RESOURCES.find((r) => r === params.resource);
    if (!resource) return fail(404, 'not_found', `No resource ${params.resource}; the resources are ${RESOURCES.join(', ')}.`, [{ location: 'path', name: 'resource', message: 'unknown resource' }]);
    return { status: 200, body: exportResource(sandbox, sandbox.world(params.store_id), resource) };
  }),
  route('resetStore', 'back to the seeded world (issued tokens stay valid)', (sandbox, { params }) => {
    sandbox.reset(params.store_id);
    return done(200, `Store ${params.store_id} is back to its seeded world (seed ${sandbox.seed}).`, summary(sandbox, params.store_id));
  }),
  route(
    'signInCustomer',
    'a storefront token bound to a customer (what a completed login gives; --ownership strict reads only its cards, orders and carts): -> {user, access_token, refresh_token}',
    (sandbox, { params }) => {
      const customer = sandbox.world(params.store_id).customers.get(params.customer_id);
      if (!customer) return fail(404, 'not_found', `Customer ${params.customer_id} not found.`, [{ location: 'path', name: 'customer_id', message: 'no customer with this id' }]);
      const { identity, accessToken, refreshToken } = sandbox.identities.issue(params.store_id, sandbox.nowIso(params.store_id), customer);
      sandbox.addIdentity(identity);
      return done(200, `Signed in as customer ${customer.id} (outside the contract).`, { user: identity.user, customer_id: customer.id, access_token: accessToken, refresh_token: refreshToken });
    },
  ),
  route('placeOrder', 'place an order for a cart: {"cart_id": "...", "user_id": "optional", "customer_note": "optional"} -> order.created, inventory.updated', (sandbox, { params, body }) =>
    placeOrder(sandbox, params.store_id, body!),
  ),
  route('moveOrder', 'move an order: {"status": "confirmed|processing|shipped|delivered|returned|cancelled"} -> order.updated or order.cancelled', (sandbox, { params, body }) =>
    moveOrder(sandbox, params.store_id, params.order_number, body!),
  ),
  route('createProduct', 'create a product: {"name", "category_ids", "selling_price", ...} -> product.created', (sandbox, { params, body }) => {
    const storeId = params.store_id;
    const world = sandbox.world(storeId);
    const { product, problems } = newProduct(world, body!, sandbox.now(storeId));
    if (!product) return invalid(problems);
    const events = sandbox.commit(storeId, [{ kind: 'product', record: product }], (w) => [['product.created', productPayload(w, product), ADMIN]]);
    return done(201, `Product ${product.id} created.`, { product: renderProduct(world, product, { inventory: true }), events });
  }),
  route('updateProduct', 'change a product: {"name"|"short_description"|"active"|"tags"|"category_ids"|"selling_price"|"listing_price"|"backorder"} -> product.updated', (sandbox, { params, body }) => {
    const storeId = params.store_id;
    const world = sandbox.world(storeId);
    const product = world.products.get(params.product_id);
    if (!product) return fail(404, 'not_found', `Product ${params.product_id} not found in store ${storeId}.`, [{ location: 'path', name: 'product_id', message: 'no product with this id' }]);
    const { product: next, problems } = patchProduct(world, product, body!);
    if (!next) return invalid(problems);
    const overflow = next.pricing === product.pricing && next.variants.every((v, i) => v.pricing === product.variants[i]?.pricing) ? [] : overflowingCarts(world, next, sandbox.now(storeId));
    if (overflow.length) {
      return fail(409, 'conflict', `This price would take the amounts of ${overflow.length} cart(s) past ${MAX_AMOUNT}, the largest amount the sandbox carries; nothing changed.`, overflow);
    }
    const events = sandbox.commit(storeId, [{ kind: 'product', record: next }], (w) => [['product.updated', productPayload(w, next), ADMIN]]);
    return done(200, `Product ${next.id} updated.`, { product: renderProduct(world, next, { inventory: true }), events });
  }),
  route('moveStock', 'move stock: {"product_id", "variant_id"? | "all_variants": true, "stock_quantity" | "adjust"} (0: out of stock) -> inventory.updated per variant', (sandbox, { params, body }) =>
    moveStock(sandbox, params.store_id, body!),
  ),
  route(
    'createCart',
    'create a cart: {"customer_id"?, "user_id"?, "cart_items"?: [{"product_id", "variant_id"?, "quantity"}], "coupon_code"?, addresses?, "status"?, "customer_note"?, "metadata"?, "expires_at" | "expires_in_seconds"?, ...} -> cart.created',
    async (sandbox, { params, body }) => {
      const checks = await cartChecks();
      // From here on synchronous: nothing else runs between the checks and the commit.
      const draft = cartFromBody(sandbox.world(params.store_id), body!, sandbox.now(params.store_id), checks.address);
      return writeCart(sandbox, params.store_id, undefined, draft, checks);
    },
  ),
  route('updateCart', 'change a cart: any field of create but id ("cart_items" replaces every line; "coupon_code": null removes the coupon) -> cart.updated', async (sandbox, { params, body }) => {
    const checks = await cartChecks();
    const cart = sandbox.world(params.store_id).carts.get(params.cart_id);
    if (!cart) return cartNotFound(params.store_id, params.cart_id);
    const ordered = orderedCart(sandbox.world(params.store_id), cart);
    if (ordered) return ordered;
    return writeCart(sandbox, params.store_id, cart, changedCart(sandbox.world(params.store_id), cart, body!, sandbox.now(params.store_id), checks.address), checks);
  }),
  route('deleteCart', 'remove a cart (the storefront answers 404 for it; not one an order was placed from); no event: the catalog has none', (sandbox, { params }) => {
    const world = sandbox.world(params.store_id);
    const cart = world.carts.get(params.cart_id);
    if (!cart) return cartNotFound(params.store_id, params.cart_id);
    const ordered = orderedCart(world, cart);
    if (ordered) return ordered;
    sandbox.commit(params.store_id, [{ kind: 'cart-deleted', id: cart.id }]);
    return done(200, `Cart ${cart.id} removed.`, { cart_id: cart.id, events: [] });
  }),
  route('addCartItem', 'add a line, or more of a line: {"product_id", "variant_id"?, "quantity", "on_subscription"?, "is_free_item"?, "free_quantity"?} -> cart.updated', async (sandbox, { params, body }) => {
    const checks = await cartChecks();
    const cart = sandbox.world(params.store_id).carts.get(params.cart_id);
    if (!cart) return cartNotFound(params.store_id, params.cart_id);
    const ordered = orderedCart(sandbox.world(params.store_id), cart);
    if (ordered) return ordered;
    return writeCart(sandbox, params.store_id, cart, withLineAdded(sandbox.world(params.store_id), cart, body!), checks);
  }),
  route('updateCartItem', 'change the line of a variant: {"quantity"?, "on_subscription"?, "is_free_item"?, "free_quantity"?} -> cart.updated', async (sandbox, { params, body }) => {
    const checks = await cartChecks();
    const cart = sandbox.world(params.store_id).carts.get(params.cart_id);
    if (!cart) return cartNotFound(params.store_id, params.cart_id);
    const ordered = orderedCart(sandbox.world(params.store_id), cart);
    if (ordered) return ordered;
    const draft = withLineChanged(sandbox.world(params.store_id), cart, params.variant_id, body!);
    return draft === 'missing' ? lineNotFound(cart, params.variant_id) : writeCart(sandbox, params.store_id, cart, draft, checks);
  }),
  route('removeCartItem', 'remove the line of a variant -> cart.updated', async (sandbox, { params }) => {
    const checks = await cartChecks();
    const cart = sandbox.world(params.store_id).carts.get(params.cart_id);
    if (!cart) return cartNotFound(params.store_id, params.cart_id);
    const ordered = orderedCart(sandbox.world(params.store_id), cart);
    if (ordered) return ordered;
    const record = withLineRemoved(cart, params.variant_id);
    return record === 'missing' ? lineNotFound(cart, params.variant_id) : writeCart(sandbox, params.store_id, cart, { record, problems: [] }, checks);
  }),
];

/** The back office of one sandbox, for its workbench extension. */
export function backOfficeRoutes(sandbox: Sandbox): ControlRoute[] {
  return ROUTES.map((route) => ({ ...route, handle: (request: ControlRequest) => route.handle(sandbox, request) }));
}

/** The sandbox's routes, for GET /__simulator and the docs (the table's summaries). */
export const BACK_OFFICE_ROUTES: Record<string, string> = describeRoutes(ROUTES);

/**
 * The 409 for a cart an order was placed from: it stays as it was ordered, neither removed nor changed (set
 * active again it could be ordered twice); undefined for any other cart.
 */
function orderedCart(world: World, cart: CartRecord) {
  const order = [...world.orders.values()].find((o) => o.cart_id === cart.id);
  if (!order) return undefined;
  return fail(409, 'conflict', `Cart ${cart.id} became order ${order.order_number}; it stays as it was ordered (the order names it).`, [
    { location: 'path', name: 'cart_id', message: `order ${order.order_number} was placed from it` },
  ]);
}

/** The back office acts as the sandbox's admin user. */
const ADMIN = { userId: SANDBOX_ADMIN, adminUserId: SANDBOX_ADMIN };

const lotsOf = (product: ProductRecord, variantId: string) => product.variants.find((v) => v.id === variantId)!.inventory ?? [];

function nextOrderNumber(world: World, at: number): string {
  let max = 0;
  for (const n of world.orders.keys()) {
    const digits = /(\d+)$/.exec(n);
    if (digits) max = Math.max(max, Number(digits[1]));
  }
  return `SO-${new Date(at).getUTCFullYear()}-${String(max + 1).padStart(6, '0')}`;
}

function placeOrder(sandbox: Sandbox, storeId: string, body: Record<string, unknown>): Answer<'placeOrder'> {
  const extra = Object.keys(body).filter((k) => !(FIELDS.placeOrder as readonly string[]).includes(k));
  if (extra.length) return invalid(extra.map((name) => ({ location: 'body', name, message: `is not a field here (fields: ${FIELDS.placeOrder.join(', ')})` })));
  if (typeof body.cart_id !== 'string' || !body.cart_id) return invalid([{ location: 'body', name: 'cart_id', message: 'is required (the cart to order)' }]);
  if (body.user_id !== undefined && (typeof body.user_id !== 'string' || !body.user_id)) return invalid([{ location: 'body', name: 'user_id', message: 'must be a non-empty string' }]);
  if (body.customer_note !== undefined && body.customer_note !== null && typeof body.customer_note !== 'string') return invalid([{ location: 'body', name: 'customer_note', message: 'must be a string or null' }]);
  const world = sandbox.world(storeId);
  const cart = world.carts.get(body.cart_id);
  if (!cart) return fail(404, 'not_found', `Cart ${body.cart_id} not found in store ${storeId}.`, [{ location: 'body', name: 'cart_id', message: 'no cart with this id' }]);
  const placed = [...world.orders.values()].find((o) => o.cart_id === cart.id);
  if (!cart.active) return fail(409, 'conflict', `Cart ${cart.id} is no longer active${placed ? `: it became order ${placed.order_number}` : ''}.`, [{ location: 'body', name: 'cart_id', message: 'cart already ordered' }]);
  if (cart.cart_items.length === 0) return fail(409, 'conflict', `Cart ${cart.id} is empty: there is nothing to order.`, [{ location: 'body', name: 'cart_id', message: 'empty cart' }]);
  const userId = (body.user_id as string | undefined) ?? cart.customer_id ?? cart.user_id ?? undefined;
  if (!userId) return invalid([{ location: 'body', name: 'user_id', message: `is required: cart ${cart.id} has no customer and no user` }]);

  const now = sandbox.now(storeId);
  if (isExpired(cart, now)) return fail(409, 'conflict', `Cart ${cart.id} expired at ${cart.expires_at} on the store's clock: it cannot be ordered.`, [{ location: 'body', name: 'cart_id', message: 'cart expired' }]);
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
    // Stock moves as moves (the variant's lots after it), not the products: journal.ts.
    ...moves.map((move): Put => ({ kind: 'stock', product_id: move.productId, variant_id: move.variantId, inventory: lotsOf(products.get(move.productId)!, move.variantId) })),
  ];
  const actor = { userId, adminUserId: null };
  const events = sandbox.commit(storeId, puts, (w) => [
    ['order.created', orderView(order) as unknown as Record<string, unknown>, actor],
    ...moves.map((move): RaiseSpec => {
      const product = w.products.get(move.productId)!;
      const variant = product.variants.find((v) => v.id === move.variantId)!;
      return ['inventory.updated', inventoryPayload(w, product, variant, move.before, at), actor];
    }),
  ]);
  return done(201, `Order ${order.order_number} placed for cart ${cart.id}.`, { order: { ...orderView(order), user_id: userId }, events });
}

function moveOrder(sandbox: Sandbox, storeId: string, orderNumber: string, body: Record<string, unknown>): Answer<'moveOrder'> {
  const extra = Object.keys(body).filter((k) => !(FIELDS.moveOrder as readonly string[]).includes(k));
  if (extra.length) return invalid(extra.map((name) => ({ location: 'body', name, message: `is not a field here (fields: ${FIELDS.moveOrder.join(', ')})` })));
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
  const now = sandbox.now(storeId);
  const next = withStatus(order, status, new Date(now).toISOString());
  // order.cancelled replaces order.updated for a cancellation (its message in the AsyncAPI catalog says so).
  const event = status === 'cancelled' ? 'order.cancelled' : 'order.updated';
  const events = sandbox.commit(storeId, [{ kind: 'order', record: next }], () => [[event, orderView(next) as unknown as Record<string, unknown>, { userId: next.user_id, adminUserId: SANDBOX_ADMIN }]]);
  return done(200, `Order ${orderNumber} is now ${status}.`, { order: { ...orderView(next), user_id: next.user_id }, events });
}

function moveStock(sandbox: Sandbox, storeId: string, body: Record<string, unknown>): Answer<'moveStock'> {
  const extra = Object.keys(body).filter((k) => !(FIELDS.moveStock as readonly string[]).includes(k));
  if (extra.length) return invalid(extra.map((name) => ({ location: 'body', name, message: `is not a field here (fields: ${FIELDS.moveStock.join(', ')})` })));
  if (typeof body.product_id !== 'string') return invalid([{ location: 'body', name: 'product_id', message: 'is required' }]);
  if (body.all_variants !== undefined && typeof body.all_variants !== 'boolean') return invalid([{ location: 'body', name: 'all_variants', message: 'must be true or false' }]);
  const all = body.all_variants === true;
  if (all && body.variant_id !== undefined) return invalid([{ location: 'body', name: 'variant_id', message: 'give variant_id (one variant) or all_variants (every variant), not both' }]);
  const world = sandbox.world(storeId);
  const product = world.products.get(body.product_id);
  if (!product) return fail(404, 'not_found', `Product ${body.product_id} not found in store ${storeId}.`, [{ location: 'body', name: 'product_id', message: 'no product with this id' }]);
  const variant = all ? product.variants[0] : body.variant_id === undefined ? (product.variants.length === 1 ? product.variants[0] : undefined) : product.variants.find((v) => v.id === body.variant_id);
  if (!variant) {
    return product.variants.length === 0
      ? fail(409, 'conflict', `Product ${product.id} has no variants and holds no stock.`, [{ location: 'body', name: 'product_id', message: 'product without stock' }])
      : body.variant_id === undefined
        ? invalid([{ location: 'body', name: 'variant_id', message: `is required: product ${product.id} has ${product.variants.length} variants (or all_variants: true for every one)` }])
        : fail(404, 'not_found', `Variant ${String(body.variant_id)} of product ${product.id} not found.`, [{ location: 'body', name: 'variant_id', message: 'no variant with this id in this product' }]);
  }
  const setTo = body.stock_quantity;
  const adjust = body.adjust;
  if ((setTo === undefined) === (adjust === undefined)) return invalid([{ location: 'body', name: 'stock_quantity', message: 'give exactly one of stock_quantity (the new count) or adjust (a change, + or -)' }]);
  const setProblem = setTo === undefined ? undefined : stockProblem(setTo);
  if (setProblem) return invalid([{ location: 'body', name: 'stock_quantity', message: setProblem }]);
  const adjustBad = adjust === undefined ? undefined : adjustProblem(adjust);
  if (adjustBad) return invalid([{ location: 'body', name: 'adjust', message: adjustBad }]);
  // Every variant moved, or none: each is checked before anything is committed.
  const now = sandbox.now(storeId);
  let next = product;
  const moves: Array<{ id: string; before: number; target: number }> = [];
  for (const v of all ? product.variants : [variant]) {
    const before = world.stock(v);
    const target = setTo !== undefined ? (setTo as number) : before + (adjust as number);
    if (target > MAX_STOCK) {
      return fail(409, 'conflict', `${before} units of ${v.id} are on hand; adding ${adjust as number} would pass ${MAX_STOCK}, the largest stock.`, [{ location: 'body', name: 'adjust', message: `would take the stock past ${MAX_STOCK}` }]);
    }
    if (target < 0) return fail(409, 'conflict', `Only ${before} units of ${v.id} are on hand; cannot remove ${-(adjust as number)}.`, [{ location: 'body', name: 'adjust', message: 'more than on hand' }]);
    next = withStock(next, v.id, target, now);
    moves.push({ id: v.id, before, target });
  }
  // Journaled as moves (each variant's lots after it), not as the product: journal.ts.
  const at = new Date(now).toISOString();
  const events = sandbox.commit(
    storeId,
    moves.map((m): Put => ({ kind: 'stock', product_id: product.id, variant_id: m.id, inventory: lotsOf(next, m.id) })),
    (w) => {
      const moved = w.products.get(product.id)!;
      return moves.map((m): RaiseSpec => ['inventory.updated', inventoryPayload(w, moved, moved.variants.find((v) => v.id === m.id)!, m.before, at), ADMIN]);
    },
  );
  next = world.products.get(product.id)!;
  const stockMoves: StockMove[] = moves.map((m) => ({ variant_id: m.id, previous_stock_quantity: m.before, stock_quantity: m.target, inventory: next.variants.find((v) => v.id === m.id)!.inventory ?? [] }));
  if (all) return done(200, `Stock of the ${moves.length} variants of ${product.id} moved to ${moves.map((m) => m.target).join(', ')}.`, { product_id: next.id, variants: stockMoves, events });
  const [move] = stockMoves;
  return done(200, `Stock of ${move.variant_id} moved from ${move.previous_stock_quantity} to ${move.stock_quantity}.`, { product_id: next.id, ...move, events });
}

// ---- carts ------------------------------------------------------------------------------------------------

const cartNotFound = (storeId: string, cartId: string) =>
  fail(404, 'not_found', `Cart ${cartId} not found in store ${storeId}.`, [{ location: 'path', name: 'cart_id', message: 'no cart with this id' }]);

const lineNotFound = (cart: CartRecord, variantId: string) =>
  fail(404, 'not_found', `Cart ${cart.id} has no line of variant ${variantId}.`, [
    { location: 'path', name: 'variant_id', message: `not in the cart (its lines: ${cart.cart_items.map((i) => i.variant_id).join(', ') || 'none'})` },
  ]);

interface CartChecks {
  /** The spec's CartAddress. */
  address: AddressCheck;
  /** What the journal checks each record against when it is read back at start. */
  record: Awaited<ReturnType<typeof journalRecordCheck>>;
  /** The spec's Cart, as getPosCart answers it (the workbench's Ajv over the spec's schemas, not the library's precompiled validators of every operation). */
  cart: AddressCheck;
}
let checks: Promise<CartChecks> | undefined;
/**
 * Compiled once, on the first cart write. A cart handler awaits them first and is synchronous after: no
 * other request runs between its checks (an id still free, a line still there) and its commit.
 */
const cartChecks = () =>
  (checks ??= Promise.all([componentCheck('CartAddress'), journalRecordCheck(), componentCheck('Cart')]).then(([address, record, cart]) => ({ address, record, cart })));

/**
 * The one way a cart is written: the record is checked as the journal checks it at start (so a restart
 * takes it back), priced by the calculator (amounts within the largest amount), and its storefront answer
 * (getPosCart's 200) validated against the spec; then committed, and `cart.created` or `cart.updated` raised.
 */
function writeCart(sandbox: Sandbox, storeId: string, before: CartRecord | undefined, draft: CartDraft, checks: CartChecks): Answer<'createCart'> {
  if (!draft.record) return invalid(draft.problems);
  const record = draft.record;
  const stored = checks.record('cart', record);
  if (stored) return invalid([{ location: 'body', name: stored.replace(/^field (\S+) .*$/, '$1'), message: stored.replace(/^field \S+ /, '') }]);
  const world = sandbox.world(storeId);
  const now = sandbox.now(storeId);
  const priced = priceCart(world, record, now);
  if (largestNumber({ ...priced.cart, metadata: null }) > MAX_AMOUNT) {
    return fail(409, 'conflict', `This cart would carry an amount past ${MAX_AMOUNT}, the largest amount the sandbox carries; nothing changed.`, [
      { location: 'body', name: 'cart_items', message: `an amount of the cart would pass ${MAX_AMOUNT}` },
    ]);
  }
  const answer = checks.cart(priced.cart, '');
  if (answer) return invalid([{ location: 'body', name: answer.name === '(record)' ? '(body)' : answer.name, message: `would make the storefront's cart answer invalid: ${answer.message}` }]);
  const actor = { userId: record.customer_id ?? record.user_id ?? SANDBOX_ADMIN, adminUserId: SANDBOX_ADMIN };
  const event = before ? 'cart.updated' : 'cart.created';
  const events = sandbox.commit(storeId, [{ kind: 'cart', record }], () => [[event, priced.cart as unknown as Record<string, unknown>, actor]]);
  const coupon = record.coupon_code ? world.couponByCode.get(record.coupon_code) : undefined;
  const verdictOf = coupon && judge(coupon, priced.couponView, now, (id) => world.categories.get(id)?.name ?? id);
  const content: CartWritten = {
    cart: priced.cart,
    customer_id: record.customer_id ?? null,
    user_id: record.user_id ?? null,
    customer_group_id: record.customer_group_id ?? null,
    coupon: coupon && verdictOf ? { code: record.coupon_code!, coupon_id: coupon.id, applied: verdictOf.applicable, reason: verdictOf.applicable ? null : verdictOf.reason } : null,
    events,
  };
  return done(before ? 200 : 201, before ? `Cart ${record.id} updated.` : `Cart ${record.id} created.`, content);
}

/** What a developer needs from the world: counts and ids to use. */
/** What `GET .../keys` answers: the store's key, and which keys the workbench accepts now. */
export function keysOf(sandbox: Sandbox, storeId: string): StoreKeys {
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

export function summary(sandbox: Sandbox, storeId: string): WorldSummary {
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
      const priced = priceCart(world, c, sandbox.now(storeId)).cart;
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
      return [...world.carts.values()].map((c) => ({ ...priceCart(world, c, sandbox.now(world.storeId)).cart, customer_id: c.customer_id ?? null, customer_group_id: c.customer_group_id ?? null, ...(c.user_id ? { user_id: c.user_id } : {}) }));
    case 'orders':
      return [...world.orders.values()];
    case 'coupons':
      return world.coupons;
    case 'locations':
      return world.locations;
  }
}
