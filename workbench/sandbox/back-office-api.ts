// The back office's calls as data (method and path of each route under /__simulator/stores/{store_id})
// and the types of what each takes and answers. Both sides are built from here, so they cannot drift:
// the routes of back-office.ts are declared by name (`route('createCart', ...)`: method and path come from
// this table, and tsc holds each handler to its call's answer type), their bodies are read with the
// field lists below (tsc holds each list to its body type, every field and no other), and the typed client
// (back-office-client.ts) is generated from the same table and types. test/sandbox/back-office-carts.test.ts
// fails when a route of the back office has no entry here. Outside the contract: nothing here is a platform
// operation (carts are read-only in the contract; the back office is the sandbox's staff).
// Types only, plus the table: no Node module is loaded by importing this, and its types name nothing of
// Node (storefront-contract-tools/back-office ships them to pages, whose compile has no Node types).
import type { Cart, CartAddress, InventoryLot, Order, Product, User } from './types.js';

/** An event a back-office call raised, and how many deliveries it made (events.ts raises them). */
export interface RaisedEvent {
  event: string;
  event_id: string;
  deliveries: number;
}

/** Where every back-office route lives; `{store_id}` is the store whose world it reads or writes. */
export const BACK_OFFICE_PREFIX = '/__simulator/stores/{store_id}';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Each back-office call: its method, its path under BACK_OFFICE_PREFIX, whether it takes a JSON body, and
 * whether its answer is the success envelope (`{success, message, content}`) or raw JSON (`raw`).
 */
export const BACK_OFFICE_CALLS = {
  getWorld: { method: 'GET', path: '/world', body: false },
  getKeys: { method: 'GET', path: '/keys', body: false },
  getWorldResource: { method: 'GET', path: '/world/{resource}', body: false, raw: true },
  resetStore: { method: 'POST', path: '/reset', body: false },
  signInCustomer: { method: 'POST', path: '/customers/{customer_id}/sign-in', body: false },
  placeOrder: { method: 'POST', path: '/orders', body: true },
  moveOrder: { method: 'POST', path: '/orders/{order_number}/status', body: true },
  createProduct: { method: 'POST', path: '/products', body: true },
  updateProduct: { method: 'PATCH', path: '/products/{product_id}', body: true },
  moveStock: { method: 'POST', path: '/inventory', body: true },
  createCart: { method: 'POST', path: '/carts', body: true },
  updateCart: { method: 'PATCH', path: '/carts/{cart_id}', body: true },
  deleteCart: { method: 'DELETE', path: '/carts/{cart_id}', body: false },
  addCartItem: { method: 'POST', path: '/carts/{cart_id}/items', body: true },
  updateCartItem: { method: 'PATCH', path: '/carts/{cart_id}/items/{variant_id}', body: true },
  removeCartItem: { method: 'DELETE', path: '/carts/{cart_id}/items/{variant_id}', body: false },
  // The store's clock (workbench/clock/routes.ts declares these three from here).
  getClock: { method: 'GET', path: '/clock', body: false },
  setClock: { method: 'POST', path: '/clock', body: true },
  releaseClock: { method: 'DELETE', path: '/clock', body: false },
} as const satisfies Record<string, { method: Method; path: string; body: boolean; raw?: true }>;

export type BackOfficeCallName = keyof typeof BACK_OFFICE_CALLS;

/**
 * The keys of `T` as a list, checked by tsc to hold every key of `T` and nothing else: the fields a
 * handler accepts are then exactly the fields of the body type the client sends.
 */
export function fieldList<T>() {
  return <const L extends ReadonlyArray<keyof T & string>>(list: L & ([Exclude<keyof T, L[number]>] extends [never] ? unknown : { missing: Exclude<keyof T, L[number]> })): L => list;
}

// ---- bodies --------------------------------------------------------------------------------------------

export interface PlaceOrderBody {
  /** The cart to order (active, not empty). */
  cart_id: string;
  /** Whose order it is; default the cart's customer, else the cart's user. */
  user_id?: string;
  customer_note?: string | null;
}

export type OrderStatusName = 'confirmed' | 'processing' | 'shipped' | 'delivered' | 'returned' | 'cancelled';

export interface MoveOrderBody {
  status: OrderStatusName;
}

export interface CreateProductBody {
  id?: string;
  name: string;
  category_ids: string[];
  /** Tax included, 0.01 to the largest price (bounds.ts). */
  selling_price: number;
  listing_price?: number;
  tax_rate?: number;
  sku?: string;
  slug?: string;
  short_description?: string;
  tags?: string[];
  /** Units of each variant; default 100. */
  stock?: number;
  backorder?: boolean;
  variants?: Array<{ name: string; selling_price?: number; stock?: number; sku?: string }>;
}

export interface UpdateProductBody {
  name?: string;
  short_description?: string;
  active?: boolean;
  tags?: string[];
  category_ids?: string[];
  selling_price?: number;
  listing_price?: number;
  backorder?: boolean;
}

export interface MoveStockBody {
  product_id: string;
  /** Which variant; may be left out for a product with one variant. */
  variant_id?: string;
  /** Every variant of the product at once (instead of `variant_id`): one `inventory.updated` each. */
  all_variants?: boolean;
  /** The new count of units (0: out of stock). Exactly one of `stock_quantity` and `adjust`. */
  stock_quantity?: number;
  /** A change in units, + or -. */
  adjust?: number;
}

/** A cart line as the back office takes it: which variant and how many; everything else is the catalog's. */
export interface CartLineInput {
  product_id: string;
  /** May be left out for a product with one variant. */
  variant_id?: string;
  /** Whole units, 1 to the largest stock (bounds.ts). */
  quantity: number;
  /** Bought on the variant's first subscription plan (the variant must have one). Default false. */
  on_subscription?: boolean;
  /** A free line (priced 0). Default false. */
  is_free_item?: boolean;
  /** Units given free on top of `quantity`. Default 0. */
  free_quantity?: number;
}

/** How the cart is to be fulfilled; `pickup_location_name` follows `pickup_location_id` (a store location). */
export interface FulfillmentInput {
  /** `delivery`, `collect-in-store`, or any other value the contract leaves open. */
  fulfillment_type: string;
  /** Required for `collect-in-store`: one of the store's locations (GET .../world lists them). */
  pickup_location_id?: string | null;
  /** Default `user`. */
  preference_type?: string;
}

/** What a cart is made of, as the back office sets it; amounts are never taken: the calculator derives them. */
export interface CartFieldsInput {
  /** The owner (a customer of the store); null or left out: an anonymous cart. */
  customer_id?: string | null;
  /** The shopper of an anonymous cart (a user id from POST /auth/anonymous): events name them, an order placed from the cart is theirs. */
  user_id?: string | null;
  /** Whose prices apply (a customer group of the store); null: the customer-group rule's default. */
  customer_group_id?: string | null;
  /** The lines, one per variant (at most MAX_CART_LINES). */
  cart_items?: CartLineInput[];
  /** A code of one of the store's coupons, applicable or not (an expired one is kept, and not applied); null: none. */
  coupon_code?: string | null;
  /** The spec's CartAddress, whole; null: none. Default on create: the customer's saved address. */
  billing_address?: CartAddress | null;
  shipping_address?: CartAddress | null;
  /** Any status (the contract's set is open); default `not-ready-for-payment`. */
  status?: string;
  status_error_message?: string | null;
  customer_note?: string | null;
  /** Free-form (numbers within the largest amount). Default {}. */
  metadata?: Record<string, unknown>;
  /** When the cart expires, RFC 3339; may be in the past. Default on create: the store's clock + 7 days. */
  expires_at?: string;
  /** The same, relative to the store's clock (negative: already expired). */
  expires_in_seconds?: number;
  active?: boolean;
  fulfillment_preference?: FulfillmentInput;
  /** Store credit applied (capped at the grand total when priced). */
  credit_balance_used?: number;
  loyalty_points_redeemed?: number;
}

export interface CreateCartBody extends CartFieldsInput {
  /** The cart's id; default a fresh `crt_...`. Letters, digits, `_` and `-`, at most 64. */
  id?: string;
}

export type UpdateCartBody = CartFieldsInput;

export type AddCartItemBody = CartLineInput;

export interface UpdateCartItemBody {
  quantity?: number;
  on_subscription?: boolean;
  is_free_item?: boolean;
  free_quantity?: number;
}

// ---- answers -------------------------------------------------------------------------------------------

type Sample = Array<{ id: string; name: string; variants: string[] }>;

/** GET .../world: counts and the ids to use. */
export interface WorldSummary {
  store_id: string;
  seed: string | number;
  version: number;
  persisted: boolean;
  counts: Record<'products' | 'variants' | 'categories' | 'customer_groups' | 'customers' | 'carts' | 'orders' | 'coupons' | 'countries' | 'locations' | 'anonymous_users', number>;
  customer_groups: Array<{ id: string; name: string; is_default: boolean; prices: number }>;
  categories: Array<{ id: string; slug: string; name: string; parent_category_id: string | null; product_count: number }>;
  products: Record<'first' | 'without_variant_options' | 'one_variant' | 'several_variants' | 'bundles' | 'no_variants_at_all' | 'on_promotion' | 'on_subscription' | 'out_of_stock', Sample>;
  carts: Array<{ id: string; customer_id: string | null; customer_group_id: string | null; active: boolean; items: number; grand_total: number; coupon_code: string | null; fulfillment_type: string }>;
  customers: Array<{ id: string; name: string; cards: number; orders: number }>;
  users_with_orders: Array<{ user_id: string; orders: number }>;
  order_statuses: Record<string, number>;
  coupons: Array<{ id: string; codes: string[]; name: string }>;
  locations: Array<{ id: string; name: string; pincode: string }>;
  /** The back office's routes and what each does (what GET /__simulator lists). */
  routes: Record<string, string>;
}

export interface SignedIn {
  user: User;
  customer_id: string;
  access_token: string;
  refresh_token: string;
}

export interface OrderWritten {
  order: Order & { user_id: string };
  events: RaisedEvent[];
}

export interface ProductWritten {
  product: Product;
  events: RaisedEvent[];
}

export interface StockMove {
  variant_id: string;
  previous_stock_quantity: number;
  stock_quantity: number;
  inventory: InventoryLot[];
}

/** One variant's move; with `all_variants`, `variants` lists each. */
export type StockMoved = ({ product_id: string } & StockMove & { events: RaisedEvent[] }) | { product_id: string; variants: StockMove[]; events: RaisedEvent[] };

/** The coupon code a cart carries, and whether it applies now (the cart's answer shows only an applied one). */
export interface CouponVerdict {
  code: string;
  coupon_id: string;
  applied: boolean;
  /** Why not (for example `The coupon expired on 2024-12-31`); null when applied. */
  reason: string | null;
}

export interface CartWritten {
  /** Exactly what the storefront's GET /pos/carts/{id} answers now (`content.cart`). */
  cart: Cart;
  customer_id: string | null;
  user_id: string | null;
  customer_group_id: string | null;
  coupon: CouponVerdict | null;
  events: RaisedEvent[];
}

export interface CartDeleted {
  cart_id: string;
  /** None: the AsyncAPI catalog has no event for a removed cart. */
  events: RaisedEvent[];
}

/** What each call takes (`body`, undefined when none) and what its answer's `content` is. */
export interface BackOfficeCalls {
  getWorld: { body: undefined; content: WorldSummary };
  getKeys: { body: undefined; content: StoreKeys };
  getWorldResource: { body: undefined; content: unknown[] };
  resetStore: { body: undefined; content: WorldSummary };
  signInCustomer: { body: undefined; content: SignedIn };
  placeOrder: { body: PlaceOrderBody; content: OrderWritten };
  moveOrder: { body: MoveOrderBody; content: OrderWritten };
  createProduct: { body: CreateProductBody; content: ProductWritten };
  updateProduct: { body: UpdateProductBody; content: ProductWritten };
  moveStock: { body: MoveStockBody; content: StockMoved };
  createCart: { body: CreateCartBody; content: CartWritten };
  updateCart: { body: UpdateCartBody; content: CartWritten };
  deleteCart: { body: undefined; content: CartDeleted };
  addCartItem: { body: AddCartItemBody; content: CartWritten };
  updateCartItem: { body: UpdateCartItemBody; content: CartWritten };
  removeCartItem: { body: undefined; content: CartWritten };
  getClock: { body: undefined; content: StoreClock };
  setClock: { body: SetClockBody; content: StoreClock & { attempts_due_on_the_way?: number } };
  releaseClock: { body: undefined; content: StoreClock };
}

/** Sets, freezes or advances the store's clock: `now` or `advance`, and/or `frozen`. */
export interface SetClockBody {
  /** An RFC 3339 date-time with an offset: the store's new time (forward: due webhook attempts are sent on the way). */
  now?: string;
  /** An ISO 8601 duration (`PT90S`, `P1DT2H`, `P2W`): moves the clock forward through the attempts due on the way. */
  advance?: string;
  /** True: the clock stands still until moved; false: it runs from its time. Default: as it was. */
  frozen?: boolean;
}

/** What `GET .../keys` answers: the store's sandbox API key, and which keys the workbench accepts now. */
export interface StoreKeys {
  store_id: string;
  seed: string | number;
  /** The store's own key for `X-Api-Key`; null when the workbench runs with `--api-key` (that key is a secret). */
  api_key: string | null;
  /** `per-store` (the default), `any` (`--any-api-key`, `--lenient-auth`) or `fixed` (`--api-key`). */
  accepts: 'per-store' | 'any' | 'fixed';
  note: string;
}

/** A store's clock (workbench/clock/clocks.ts). */
export interface StoreClock {
  store_id: string;
  now: string;
  frozen: boolean;
  offset_ms: number;
  wall_clock: boolean;
  /** True while an advance is still playing due webhook attempts (a POST answered 202). */
  advancing: boolean;
}

// Every call of the table has its types and every typed call a route: tsc fails here otherwise.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _calls: Same<keyof BackOfficeCalls, BackOfficeCallName> = true;
void _calls;

/**
 * The body fields each route reads: exactly its body type's (tsc checks both ways), and exactly the body
 * properties of its operation in the workbench API's document (spec/workbench/openapi.yaml, which the
 * pipeline validates the body by first): test/workbench-api/routes-match-document.test.ts compares them.
 */
export const FIELDS = {
  setClock: fieldList<SetClockBody>()(['now', 'advance', 'frozen']),
  placeOrder: fieldList<PlaceOrderBody>()(['cart_id', 'user_id', 'customer_note']),
  moveOrder: fieldList<MoveOrderBody>()(['status']),
  createProduct: fieldList<CreateProductBody>()(['id', 'name', 'category_ids', 'selling_price', 'listing_price', 'tax_rate', 'sku', 'slug', 'short_description', 'tags', 'stock', 'backorder', 'variants']),
  productVariant: fieldList<NonNullable<CreateProductBody['variants']>[number]>()(['name', 'selling_price', 'stock', 'sku']),
  updateProduct: fieldList<UpdateProductBody>()(['name', 'short_description', 'active', 'tags', 'category_ids', 'selling_price', 'listing_price', 'backorder']),
  moveStock: fieldList<MoveStockBody>()(['product_id', 'variant_id', 'all_variants', 'stock_quantity', 'adjust']),
  createCart: fieldList<CreateCartBody>()([
    'id',
    'customer_id',
    'user_id',
    'customer_group_id',
    'cart_items',
    'coupon_code',
    'billing_address',
    'shipping_address',
    'status',
    'status_error_message',
    'customer_note',
    'metadata',
    'expires_at',
    'expires_in_seconds',
    'active',
    'fulfillment_preference',
    'credit_balance_used',
    'loyalty_points_redeemed',
  ]),
  cartLine: fieldList<CartLineInput>()(['product_id', 'variant_id', 'quantity', 'on_subscription', 'is_free_item', 'free_quantity']),
  updateCartItem: fieldList<UpdateCartItemBody>()(['quantity', 'on_subscription', 'is_free_item', 'free_quantity']),
  fulfillment: fieldList<FulfillmentInput>()(['fulfillment_type', 'pickup_location_id', 'preference_type']),
} as const;
