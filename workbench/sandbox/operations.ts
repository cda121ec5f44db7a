// The twelve storefront operations answered from the store's world, as live operations of the workbench
// pipeline (workbench/engine/pipeline.ts): routing, security, parameter and body validation, body limits and
// the error envelope stay the pipeline's; these handlers read and write the world. Answers to reads are
// serialized once per world version and query (World.cache), so a repeated list costs a Map lookup.
// A request carrying a `Prefer` control (or a workbench in dynamic mode) is answered by Prism from the
// spec's examples instead (`yieldsToControls`); the token's store is checked before that, by the
// pipeline's security step (the sandbox's `judgeToken`, index.ts), so it holds for both. Under
// `--ownership strict` (register SF-036) a customer's cards, orders and carts answer only the token bound
// to that customer; any other token sees them as unknown ids (404, or no orders).
import { storefrontOperations } from 'storefront-contract';
import { successEnvelope, type ErrorItem } from 'storefront-contract/contract';
import { fail } from '../http/errors.js';
import { liveKey, type LiveOperation, type LiveRequest, type Reply } from '../http/extension.js';
import { isExpired, priceCart } from './cart.js';
import { evaluate } from './coupons.js';
import { customerDetail, orderView } from './events.js';
import { fulfillmentOptions } from './fulfillment.js';
import { randomId } from './identities.js';
import { findUnsafeKey } from '../http/object-paths.js';
import { ListError, paginate, pageOf, parseSort, sortBy, type SortFields, type SortValue } from './listing.js';
import { priceOf, renderProduct, renderSimilar, renderVariant, type ViewContext } from './render.js';
import type { Sandbox } from './sandbox.js';
import { templates } from './templates.js';
import type { CustomerRecord, Identity, OrderRecord, ProductRecord, VariantRecord } from './types.js';
import type { World } from './world.js';

const notFound = (message: string, details: ErrorItem[]): Reply => fail(404, 'not_found', message, details);

function header(request: LiveRequest, name: string): string | undefined {
  const v = request.headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s.trim() === '' ? undefined : s.trim();
}

/** Serialized once per world version and key: the body bytes of a 200 answer. */
function cached(world: World, key: string, build: () => unknown): Reply {
  let bytes = world.cache.get(key);
  if (!bytes) {
    bytes = Buffer.from(JSON.stringify(build()));
    world.cache.set(key, bytes);
  }
  return { status: 200, body: bytes };
}

/**
 * The answer cache's key for a read: the operation, what the caller decides beyond its parameters (`caller`:
 * whether it may read what it asked for), and every parameter the operation declares in the spec (the
 * generated operation table), so a parameter added to the spec is part of the key without a line here.
 * Values are taken as sent, repeats and order included, absent apart from empty (JSON): two requests share
 * an entry only when nothing they carry differs, short of `normalized`, the value a parameter stands for
 * where the handler reads it so (an unknown customer group prices like none).
 */
export function answerKey(operationId: keyof typeof storefrontOperations, request: Pick<LiveRequest, 'query' | 'params' | 'headers'>, normalized: Record<string, string> = {}, caller: ReadonlyArray<string | boolean> = []): string {
  const parts: unknown[] = [operationId, caller];
  for (const parameter of storefrontOperations[operationId].parameters as ReadonlyArray<{ name: string; in: string }>) {
    if (Object.hasOwn(normalized, parameter.name)) parts.push(normalized[parameter.name]);
    else if (parameter.in === 'query') parts.push(request.query.getAll(parameter.name));
    else if (parameter.in === 'path') parts.push(request.params[parameter.name] ?? null);
    else if (parameter.in === 'header') parts.push(request.headers[parameter.name] ?? null);
    else parts.push(null);
  }
  return JSON.stringify(parts);
}

const ok = (message: string, content: unknown) => successEnvelope(message, content);

// ---- sort fields of the three lists ------------------------------------------------------------------------

/** A product in a list, its price for the caller's group worked out only when a sort asks for it (then once). */
class ProductRow {
  #price?: { selling: number; listing: number };
  constructor(
    readonly product: ProductRecord,
    private readonly world: World,
    private readonly group: string | undefined,
  ) {}

  get price(): { selling: number; listing: number } {
    if (!this.#price) {
      const p = priceOf(this.world, this.product, this.world.defaultVariant(this.product), this.group).pricing;
      this.#price = { selling: p.selling_price, listing: p.listing_price };
    }
    return this.#price;
  }
}

const PRODUCT_SORT: SortFields<ProductRow> = new Map<string, (r: ProductRow) => SortValue>([
  ['name', (r) => r.product.name],
  ['slug', (r) => r.product.slug],
  ['sku', (r) => r.product.sku],
  ['id', (r) => r.product.id],
  ['selling_price', (r) => r.price.selling],
  ['pricing.selling_price', (r) => r.price.selling],
  ['listing_price', (r) => r.price.listing],
  ['pricing.listing_price', (r) => r.price.listing],
  ['reviews_count', (r) => r.product.reviews_count],
  ['reviews_rating_sum', (r) => r.product.reviews_rating_sum],
  ['rating', (r) => (r.product.reviews_count ? r.product.reviews_rating_sum / r.product.reviews_count : null)],
]);

interface SimilarRow {
  product: ProductRecord;
  price: { selling: number; listing: number };
  variant: VariantRecord;
  score: number;
}

const SIMILAR_SORT: SortFields<SimilarRow> = new Map<string, (r: SimilarRow) => SortValue>([
  ['product_name', (r) => r.product.name],
  ['variant_name', (r) => r.variant.name],
  ['sku', (r) => r.variant.sku],
  ['slug', (r) => r.variant.slug],
  ['selling_price', (r) => r.price.selling],
  ['pricing.selling_price', (r) => r.price.selling],
  ['listing_price', (r) => r.price.listing],
  ['reviews_count', (r) => r.variant.reviews_count],
  ['reviews_rating_sum', (r) => r.variant.reviews_rating_sum],
]);

const ORDER_SORT: SortFields<OrderRecord> = new Map<string, (o: OrderRecord) => SortValue>([
  ['order_date', (o) => o.order_date],
  ['created_at', (o) => o.created_at],
  ['modified_at', (o) => o.modified_at],
  ['order_number', (o) => o.order_number],
  ['status', (o) => o.status],
  ['payment_status', (o) => o.payment_status],
  ['grand_total', (o) => o.grand_total],
  ['to_be_paid', (o) => o.to_be_paid],
  ['order_items_count', (o) => o.order_items_count],
]);

/** The sort fields of each list, by operationId: the spec's `sort_by` `contentSchema.propertyNames` must name the same (a test holds it). */
export const sortFields: Readonly<Record<string, SortFields<never>>> = { listProducts: PRODUCT_SORT, listSimilarProducts: SIMILAR_SORT, listOrders: ORDER_SORT };

function listError(e: unknown): Reply {
  if (e instanceof ListError) return fail(400, 'invalid_parameter', e.message, e.details);
  throw e;
}

// ---- the operations ----------------------------------------------------------------------------------------

export function sandboxOperations(sandbox: Sandbox): Map<string, LiveOperation> {
  const { maxPageSize } = templates();
  /**
   * The identity of the request's token, as the pipeline resolved it once through this sandbox's
   * judgeToken (index.ts); undefined for a token the sandbox did not issue (--lenient-auth).
   */
  const caller = (request: LiveRequest): Identity | undefined => request.caller.identity as Identity | undefined;
  /** Whether the caller may read a record of this customer: always when open; when strict, only its own. A cart of no customer is open to the store's tokens. */
  const mayRead = (request: LiveRequest, customerId: string | null | undefined): boolean =>
    sandbox.ownership === 'open' || !customerId || caller(request)?.customer_id === customerId;
  const NOT_YOURS = 'a token reads only the customer it is bound to (--ownership strict)';

  const view = (world: World, request: LiveRequest): ViewContext & { groupKey: string } => {
    const group = header(request, 'x-customer-group-id');
    // An id that names no group of this store is not "valid" (seed 4.1): it prices like no header at all.
    const valid = group !== undefined && world.prices.has(group) ? group : undefined;
    return { group: valid, groupKey: valid ?? '', inventory: request.query.get('inventory') === 'true' };
  };

  const operations: Record<string, (request: LiveRequest, world: World) => Reply> = {
    createAnonymousUser(request) {
      const at = sandbox.nowIso(request.storeId);
      const { identity, accessToken, refreshToken } = sandbox.identities.issue(request.storeId, at);
      sandbox.addIdentity(identity);
      return { status: 200, body: ok('Anonymous user created successfully', { user: identity.user, access_token: accessToken, refresh_token: refreshToken }) };
    },

    startPosPhoneLogin(request) {
      const content: Record<string, string> = { otp_token: randomId('otk_', 16), otp_action: 'login' };
      // The debug parameter (register SF-003) hands the OTP back, for development and tests.
      if (request.query.get('debug_mode') === 'true') content.otp = String(100000 + Math.floor(Math.random() * 900000));
      return { status: 200, body: ok('OTP sent successfully', content) };
    },

    listCountries(request, world) {
      return cached(world, answerKey('listCountries', request), () => ok('Countries fetched successfully', { countries: world.countries }));
    },

    listProducts(request, world) {
      const ctx = view(world, request);
      const ids = [...new Set(request.query.getAll('category_id'))].sort();
      const slugs = [...new Set(request.query.getAll('category_slug'))].sort();
      const page = pageOf(request.query, maxPageSize);
      const sortRaw = request.query.get('sort_by');
      const key = answerKey('listProducts', request, { 'x-customer-group-id': ctx.groupKey });
      try {
        return cached(world, key, () => {
          const keys = parseSort(sortRaw, PRODUCT_SORT);
          const wanted = new Set([...ids, ...slugs.flatMap((s) => world.categoryBySlug.get(s)?.id ?? [])]);
          const filtering = ids.length > 0 || slugs.length > 0;
          const rows: ProductRow[] = [];
          for (const product of world.products.values()) {
            if (!product.active) continue;
            if (filtering && !product.category_ids.some((id) => wanted.has(id))) continue;
            rows.push(new ProductRow(product, world, ctx.group));
          }
          const { items, pagination } = paginate(sortBy(rows, keys), page);
          return ok('Products fetched successfully', { products: items.map((r) => renderProduct(world, r.product, ctx)), pagination });
        });
      } catch (e) {
        return listError(e);
      }
    },

    getVariant(request, world) {
      const { product_id: productId, variant_id: variantId } = request.params;
      const ctx = view(world, request);
      const product = world.products.get(productId);
      if (!product) return notFound(`Product ${productId} not found.`, [{ location: 'path', name: 'product_id', message: 'no product with this id' }]);
      const ref = world.variantOf(productId, variantId);
      if (!ref) return notFound(`Variant ${variantId} of product ${productId} not found.`, [{ location: 'path', name: 'variant_id', message: 'no variant with this id in this product' }]);
      return cached(world, answerKey('getVariant', request, { 'x-customer-group-id': ctx.groupKey }), () =>
        ok('Variant fetched successfully', { variant: renderVariant(world, ref.product, ref.variant, ctx) }),
      );
    },

    listSimilarProducts(request, world) {
      const ctx = { ...view(world, request), inventory: false };
      const sources = [...new Set(request.query.getAll('product_id'))];
      const page = pageOf(request.query, maxPageSize);
      const sortRaw = request.query.get('sort_by');
      const key = answerKey('listSimilarProducts', request, { 'x-customer-group-id': ctx.groupKey });
      try {
        return cached(world, key, () => {
          const keys = parseSort(sortRaw, SIMILAR_SORT);
          const given = sources.flatMap((id) => world.products.get(id) ?? []);
          const leaves = new Set(given.map((p) => p.category_ids[p.category_ids.length - 1]));
          const shared = new Set(given.flatMap((p) => p.category_ids));
          const rows: SimilarRow[] = [];
          for (const product of world.products.values()) {
            const variant = world.defaultVariant(product);
            if (!product.active || !variant || sources.includes(product.id)) continue;
            // Without product_id every product is a candidate; with it, products sharing a category with them,
            // those in the same leaf category first.
            const score = sources.length === 0 ? 1 : leaves.has(product.category_ids[product.category_ids.length - 1]) ? 2 : product.category_ids.some((c) => shared.has(c)) ? 1 : 0;
            if (score === 0) continue;
            const p = priceOf(world, product, variant, ctx.group).pricing;
            rows.push({ product, variant, score, price: { selling: p.selling_price, listing: p.listing_price } });
          }
          const ranked = sortBy(rows, [{ read: (r: SimilarRow) => r.score, desc: true }]);
          const { items, pagination } = paginate(sortBy(ranked, keys), page);
          return ok('Similar products fetched successfully', { products: items.map((r) => renderSimilar(world, r.product, r.variant, ctx)), pagination });
        });
      } catch (e) {
        return listError(e);
      }
    },

    listOrders(request, world) {
      const userId = request.query.get('user_id') ?? '';
      const statuses = [...new Set(request.query.getAll('status'))].sort();
      const page = pageOf(request.query, maxPageSize);
      const sortRaw = request.query.get('sort_by');
      // Another customer's orders are no orders of this caller's (--ownership strict), as for an unknown user.
      const visible = mayRead(request, userId);
      const key = answerKey('listOrders', request, {}, [visible]);
      try {
        return cached(world, key, () => {
          const keys = parseSort(sortRaw, ORDER_SORT);
          const mine = (visible ? world.ordersOf(userId) : []).filter((o) => statuses.length === 0 || statuses.includes(o.status));
          // Newest first unless sort_by says otherwise.
          const ordered = keys.length ? sortBy(mine, keys) : sortBy(mine, [{ read: (o: OrderRecord) => o.order_date, desc: true }]);
          const { items, pagination } = paginate(ordered, page);
          return ok('Orders fetched successfully', { orders: items.map(orderView), pagination });
        });
      } catch (e) {
        return listError(e);
      }
    },

    getPosCart(request, world) {
      const cart = world.carts.get(request.params.id);
      if (!cart) return notFound(`Cart ${request.params.id} not found.`, [{ location: 'path', name: 'id', message: 'no cart with this id' }]);
      if (!mayRead(request, cart.customer_id)) return notFound(`Cart ${request.params.id} not found for this token.`, [{ location: 'path', name: 'id', message: NOT_YOURS }]);
      const now = sandbox.now(request.storeId);
      // The answer changes when the cart expires on the store's clock: that is part of the key.
      return cached(world, `cart\u0000${cart.id}\u0000${isExpired(cart, now) ? 'expired' : 'open'}`, () => ok('Cart fetched successfully', { cart: priceCart(world, cart, now).cart }));
    },

    evaluateCartCoupons(request, world) {
      const cart = world.carts.get(request.params.id);
      if (!cart) return notFound(`Cart ${request.params.id} not found.`, [{ location: 'path', name: 'id', message: 'no cart with this id' }]);
      if (!mayRead(request, cart.customer_id)) return notFound(`Cart ${request.params.id} not found for this token.`, [{ location: 'path', name: 'id', message: NOT_YOURS }]);
      const priced = priceCart(world, cart, sandbox.now(request.storeId));
      const content = evaluate(world.coupons, priced.couponView, sandbox.now(request.storeId), (id) => world.categories.get(id)?.name ?? id);
      return { status: 200, body: ok('Coupons evaluated successfully', content) };
    },

    getFulfillmentOptions(request, world) {
      const body = request.body as { cart_id: string; delivery_pincode: string };
      const unsafe = findUnsafeKey(body);
      if (unsafe !== undefined) return fail(400, 'invalid_body', `Body field ${unsafe} is not an allowed property name.`, [{ location: 'body', name: unsafe, message: 'is not an allowed property name' }]);
      const cart = world.carts.get(body.cart_id);
      if (!cart) return notFound(`Cart ${body.cart_id} not found.`, [{ location: 'body', name: 'cart_id', message: 'no cart with this id' }]);
      if (!mayRead(request, cart.customer_id)) return notFound(`Cart ${body.cart_id} not found for this token.`, [{ location: 'body', name: 'cart_id', message: NOT_YOURS }]);
      return cached(world, `fulfillment\u0000${cart.id}\u0000${body.delivery_pincode}`, () =>
        ok('Fulfillment options fetched successfully', fulfillmentOptions(world, priceCart(world, cart, sandbox.now(request.storeId)), body.delivery_pincode)),
      );
    },

    listCustomerCards(request, world) {
      const customer = world.customers.get(request.params.customer_id);
      if (!customer) return notFound(`Customer ${request.params.customer_id} not found.`, [{ location: 'path', name: 'customer_id', message: 'no customer with this id' }]);
      if (!mayRead(request, customer.id)) return notFound(`Customer ${request.params.customer_id} not found for this token.`, [{ location: 'path', name: 'customer_id', message: NOT_YOURS }]);
      return { status: 200, body: ok('Cards fetched successfully', { cards: customer.cards }) };
    },

    createCustomer(request, world) {
      const problems = checkCustomer(request.body);
      if (problems.length) {
        return fail(400, 'invalid_body', `Invalid request body: ${problems.map((p) => `body field '${p.name}' ${p.message}`).join('; ')}.`, problems);
      }
      const { address, business } = request.body as { address: Record<string, string | null | undefined>; business: Record<string, string> };
      let id = randomId('cst_', 6);
      while (world.customers.has(id)) id = randomId('cst_', 6);
      const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
      const customer: CustomerRecord = {
        id,
        first_name: address.first_name!,
        last_name: address.last_name!,
        country_code: address.country_code!,
        phone: address.phone!,
        email: address.email!,
        is_phone_verified: false,
        is_email_verified: false,
        business: { business_type: business.business_type, name: business.name, pan_number: business.pan_number, gstin: business.gstin },
        address: {
          id: randomId('adr_', 6),
          first_name: address.first_name!,
          last_name: address.last_name!,
          country_code: address.country_code!,
          phone: address.phone!,
          email: address.email!,
          address_line1: text(address.address_line1) ?? '',
          address_line2: text(address.address_line2) ?? null,
          landmark: text(address.landmark) ?? null,
          pincode: text(address.pincode) ?? '',
          city: text(address.city) ?? '',
          state: text(address.state) ?? '',
          country: text(address.country) ?? '',
          tax_identification_number: text(address.tax_identification_number) ?? null,
          business_name: text(address.business_name) ?? null,
        },
        cards: [],
        created_at: sandbox.nowIso(request.storeId),
      };
      const detail = customerDetail(customer);
      sandbox.commit(request.storeId, [{ kind: 'customer', record: customer }], () => [['customer.created', detail as unknown as Record<string, unknown>, { userId: customer.id, adminUserId: null }]]);
      // The shopper who registers reads as the new customer from now on (a token keeps its first customer).
      const identity = sandbox.ownership === 'strict' ? caller(request) : undefined;
      if (identity && !identity.customer_id) sandbox.addIdentity({ ...identity, customer_id: customer.id });
      return { status: 201, body: ok('Customer created successfully', { customer_detail: detail }) };
    },
  };

  return new Map(
    Object.entries(operations).map(([operationId, handle]) => [
      liveKey('storefront', operationId),
      {
        yieldsToControls: true,
        handle: (request: LiveRequest) => {
          const world = sandbox.world(request.storeId);
          const reply = handle(request, world);
          return GROUP_PRICED.has(operationId) ? warnUnknownGroup(world, request, reply) : reply;
        },
      } satisfies LiveOperation,
    ]),
  );
}

/** The operations that read `x-customer-group-id` (their parameters in the spec). */
const GROUP_PRICED = new Set<string>(Object.values(storefrontOperations).filter((o) => o.parameters.some((p) => p.name === 'x-customer-group-id')).map((o) => o.operationId));

/**
 * An id that names no group of the store prices like no header at all (seed 4.1), silently by the
 * contract; the sandbox says so in a header outside the contract, which the request log prints under
 * the request (workbench/engine/pipeline.ts) and a browser app may read (exposed to CORS).
 */
function warnUnknownGroup(world: World, request: LiveRequest, reply: Reply): Reply {
  const group = header(request, 'x-customer-group-id');
  if (group === undefined || world.prices.has(group)) return reply;
  const known = world.groups.map((g) => g.id);
  // The id as sent, printable and bounded: a header value is Latin-1, and the request's could be 8 KB.
  const id = JSON.stringify(group.length > 64 ? `${group.slice(0, 64)}...` : group).replace(/[^\x20-\x7e]/g, '?');
  const warning = `unknown customer group ${id}; known: ${known.slice(0, 10).join(', ')}${known.length > 10 ? ` (+${known.length - 10})` : ''}`;
  return { ...reply, headers: { ...reply.headers, 'X-Sandbox-Warning': warning, 'Access-Control-Expose-Headers': 'X-Sandbox-Warning' } } as Reply;
}

const REQUIRED_ADDRESS = ['first_name', 'last_name', 'country_code', 'phone', 'email'] as const;
const REQUIRED_BUSINESS = ['business_type', 'name', 'pan_number', 'gstin'] as const;

/**
 * The server's own checks of a customer (register SF-026: the schema requires `business` and `address`,
 * the server validates what is inside): a customer needs a name, a phone with its dial code, an e-mail and
 * the four business details its answer carries.
 */
export function checkCustomer(body: unknown): ErrorItem[] {
  const problems: ErrorItem[] = [];
  const unsafe = findUnsafeKey(body);
  if (unsafe !== undefined) return [{ location: 'body', name: unsafe, message: 'is not an allowed property name' }];
  const { address, business } = (body ?? {}) as { address?: Record<string, unknown>; business?: Record<string, unknown> };
  for (const [where, object, fields] of [
    ['address', address, REQUIRED_ADDRESS],
    ['business', business, REQUIRED_BUSINESS],
  ] as const) {
    for (const field of fields) {
      const value = object?.[field];
      if (typeof value !== 'string' || value.trim() === '') problems.push({ location: 'body', name: `${where}.${field}`, message: 'is required (a non-empty string)' });
    }
  }
  if (typeof address?.country_code === 'string' && address.country_code && !/^\+[0-9]{1,4}$/.test(address.country_code)) {
    problems.push({ location: 'body', name: 'address.country_code', message: 'must be a dial code with its leading plus, such as +91' });
  }
  if (typeof address?.email === 'string' && address.email && !/^[^@\s]+@[^@\s]+$/.test(address.email)) {
    problems.push({ location: 'body', name: 'address.email', message: 'must be an e-mail address' });
  }
  return problems;
}
