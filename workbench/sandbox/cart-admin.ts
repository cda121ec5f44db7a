// What the back office does to carts, as pure functions from a body to the next cart record (the caller
// checks, commits and raises): create a cart, change its fields (lines, coupon, addresses, status, note,
// metadata, expiry, fulfillment), add, change or remove one line. Bodies come from users: only the fields
// of the body types in back-office-api.ts are read, every problem is reported by field name, references
// (customers, groups, products, variants, coupons, locations) must name records of the store, and
// quantities and amounts stay within the bounds of bounds.ts. A record holds what a cart decides (which
// variants, how many, the coupon code, ...); its amounts are placeholders, never taken from the body: the
// calculator (cart.ts) derives every amount when the cart is answered.
import type { ErrorItem } from 'storefront-contract/contract';
import { DATE_TIME_WANTED, parseDateTime } from '../http/date-time.js';
import { FIELDS, type CartLineInput } from './back-office-api.js';
import { MAX_ADDRESS_BYTES, MAX_AMOUNT, MAX_CART_LINES, MAX_METADATA_BYTES, MAX_STOCK, amountProblem, jsonBytes, quantityProblem } from './bounds.js';
import { randomId } from './identities.js';
import { priceOf } from './render.js';
import { UNPRICED, cartAddress } from './seed.js';
import { templates } from './templates.js';
import type { CartRecord } from './types.js';
import type { World } from './world.js';

type Input = Record<string, unknown>;
/** A line as stored: which variant, how many, and how it is bought; the calculator derives the rest. */
export type StoredLine = CartRecord['cart_items'][number];

/** A new cart expires this long after the store's clock says it was made (as the seeded ones do). */
export const CART_LIFETIME_MS = 7 * 24 * 3600 * 1000;
/** `expires_in_seconds` reaches at most this far either way (ten years). */
const MAX_EXPIRY_SECONDS = 10 * 365 * 24 * 3600;
export const DEFAULT_STATUS = 'not-ready-for-payment';
/** The messages the back office writes itself; they follow the lines until a body sets another. */
const EMPTY_MESSAGE = 'Cart is empty';
const FILLED_MESSAGE = 'Select a payment method to continue.';
const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Checks a value against the spec's CartAddress (fixtures.ts `componentCheck`): the field at fault, or undefined. */
export type AddressCheck = (value: unknown, field: string) => { name: string; message: string } | undefined;

export interface CartDraft {
  record?: CartRecord;
  problems: ErrorItem[];
}

const isObject = (v: unknown): v is Input => v !== null && typeof v === 'object' && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
/** A value from a body, shown in a message: short, whatever was sent. */
const shown = (v: unknown) => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

class Problems {
  readonly list: ErrorItem[] = [];
  add(name: string, message: string): void {
    this.list.push({ location: 'body', name, message });
  }
  unknown(input: Input, allowed: readonly string[], at = ''): void {
    for (const k of Object.keys(input)) if (!allowed.includes(k)) this.add(`${at}${k}`, `is not a field here (fields: ${allowed.join(', ')})`);
  }
  get none(): boolean {
    return this.list.length === 0;
  }
}

/** A line as stored, from any stored form (a fixture's cart may hold whole CartItems). */
export function storedLine(line: StoredLine): StoredLine {
  return {
    product_id: line.product_id,
    variant_id: line.variant_id,
    quantity: line.quantity,
    free_quantity: line.free_quantity ?? 0,
    is_free_item: line.is_free_item === true,
    on_subscription: line.on_subscription === true,
  } as StoredLine;
}

/** Reads one line of a body (at `at`, e.g. `cart_items[2]`); undefined when it has a problem (added to `problems`). */
function readLine(world: World, raw: unknown, at: string, group: string | undefined, problems: Problems): StoredLine | undefined {
  if (!isObject(raw)) {
    problems.add(at, 'must be an object {product_id, variant_id?, quantity, on_subscription?, is_free_item?, free_quantity?}');
    return undefined;
  }
  const before = problems.list.length;
  problems.unknown(raw, FIELDS.cartLine, `${at}.`);
  const line = raw as Partial<Record<keyof CartLineInput, unknown>>;
  const product = typeof line.product_id === 'string' ? world.products.get(line.product_id) : undefined;
  if (line.product_id === undefined) problems.add(`${at}.product_id`, 'is required (a product of this store)');
  else if (!product) problems.add(`${at}.product_id`, `names no product of this store (${shown(line.product_id)})`);
  let variantId: string | undefined;
  if (product) {
    if (line.variant_id === undefined) {
      if (product.variants.length === 1) variantId = product.variants[0].id;
      else if (product.variants.length === 0) problems.add(`${at}.product_id`, `product ${product.id} has no variants: it cannot be in a cart`);
      else problems.add(`${at}.variant_id`, `is required: product ${product.id} has ${product.variants.length} variants (${product.variants.map((v) => v.id).join(', ')})`);
    } else if (typeof line.variant_id === 'string' && world.variantOf(product.id, line.variant_id)) variantId = line.variant_id;
    else problems.add(`${at}.variant_id`, `names no variant of product ${product.id} (${shown(line.variant_id)}; its variants: ${product.variants.map((v) => v.id).join(', ') || 'none'})`);
  }
  const quantity = quantityProblem(line.quantity);
  if (line.quantity === undefined) problems.add(`${at}.quantity`, 'is required (whole units, at least 1)');
  else if (quantity) problems.add(`${at}.quantity`, quantity);
  for (const flag of ['on_subscription', 'is_free_item'] as const) {
    if (line[flag] !== undefined && typeof line[flag] !== 'boolean') problems.add(`${at}.${flag}`, 'must be true or false');
  }
  const free = line.free_quantity === undefined ? undefined : quantityProblem(line.free_quantity, 0);
  if (free) problems.add(`${at}.free_quantity`, free);
  if (product && variantId && line.on_subscription === true) {
    const ref = world.variantOf(product.id, variantId)!;
    if (priceOf(world, ref.product, ref.variant, group).subscription.length === 0) problems.add(`${at}.on_subscription`, `variant ${variantId} has no subscription plan${group ? ` for group ${group}` : ''}`);
  }
  if (problems.list.length > before || !product || !variantId) return undefined;
  return storedLine({
    product_id: product.id,
    variant_id: variantId,
    quantity: line.quantity as number,
    free_quantity: (line.free_quantity as number | undefined) ?? 0,
    is_free_item: line.is_free_item === true,
    on_subscription: line.on_subscription === true,
  } as StoredLine);
}

/** The largest number anywhere in metadata, to keep every number the sandbox answers within the largest amount; and its size. */
function metadataProblem(value: Input): string | undefined {
  const bytes = jsonBytes(value);
  if (bytes > MAX_METADATA_BYTES) return `is ${bytes} bytes of JSON; metadata keeps at most ${MAX_METADATA_BYTES}`;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const here = stack.pop();
    if (typeof here === 'number' && Math.abs(here) > MAX_AMOUNT) return `holds the number ${here}; numbers in metadata stay within ±${MAX_AMOUNT} (the largest amount the sandbox answers)`;
    if (here !== null && typeof here === 'object') stack.push(...Object.values(here));
  }
  return undefined;
}

/** A cart with nothing set: what `createCart` starts from (the record form of the seeded carts). */
function blankCart(id: string, now: number): CartRecord {
  return {
    ...UNPRICED,
    id,
    active: true,
    customer_note: null,
    status: DEFAULT_STATUS,
    status_error_message: EMPTY_MESSAGE,
    expires_at: new Date(now + CART_LIFETIME_MS).toISOString(),
    metadata: {},
    currency: { ...templates().cart.currency },
    coupon_code: null,
    credit_balance_used: 0,
    loyalty_points_redeemed: 0,
    cart_items: [],
    billing_address: null,
    shipping_address: null,
    applied_promotions: [],
    applied_coupons: [],
    shipments: [],
    fulfillment_preference: { fulfillment_type: 'delivery', pickup_location_id: null, preference_type: 'user', pickup_location_name: null },
    customer_id: null,
    customer_group_id: null,
    user_id: null,
  };
}

/** The message of a cart's status follows its lines while it is one the back office wrote itself. */
function followLines(record: CartRecord, messageGiven: boolean): CartRecord {
  if (messageGiven || (record.status_error_message !== EMPTY_MESSAGE && record.status_error_message !== FILLED_MESSAGE)) return record;
  return { ...record, status_error_message: record.cart_items.length === 0 ? EMPTY_MESSAGE : FILLED_MESSAGE };
}

/**
 * The cart `base` with the fields of `input` applied (a create's or a change's body), every problem
 * named. `creating`: `id` may be given, and the owner's saved address fills the addresses not given.
 */
function applyFields(world: World, base: CartRecord, input: Input, now: number, checkAddress: AddressCheck, creating: boolean): CartDraft {
  const problems = new Problems();
  problems.unknown(input, creating ? FIELDS.createCart : FIELDS.createCart.filter((f) => f !== 'id'));
  if (!creating && Object.keys(input).length === 0) problems.add('(body)', `must change at least one field (${FIELDS.createCart.filter((f) => f !== 'id').join(', ')})`);
  const next: CartRecord = { ...base };

  if (creating && input.id !== undefined) {
    if (typeof input.id !== 'string' || !ID.test(input.id)) problems.add('id', 'must be 1 to 64 letters, digits, "_" or "-"');
    else if (world.carts.has(input.id)) problems.add('id', `is already a cart of this store (${input.id})`);
    else next.id = input.id;
  }
  if (input.customer_id !== undefined) {
    if (input.customer_id === null) next.customer_id = null;
    else if (typeof input.customer_id === 'string' && world.customers.has(input.customer_id)) next.customer_id = input.customer_id;
    else problems.add('customer_id', `names no customer of this store (${shown(input.customer_id)}); null for an anonymous cart`);
  }
  if (input.user_id !== undefined) {
    if (input.user_id === null) next.user_id = null;
    else if (typeof input.user_id === 'string' && ID.test(input.user_id)) next.user_id = input.user_id;
    else problems.add('user_id', 'must be a user id (1 to 64 letters, digits, "_" or "-"; POST /auth/anonymous issues them) or null');
  }
  if (input.customer_group_id !== undefined) {
    if (input.customer_group_id === null) next.customer_group_id = null;
    else if (typeof input.customer_group_id === 'string' && world.groups.some((g) => g.id === input.customer_group_id)) next.customer_group_id = input.customer_group_id;
    else problems.add('customer_group_id', `names no customer group of this store (${shown(input.customer_group_id)}; the groups: ${world.groups.map((g) => g.id).join(', ')})`);
  }
  const group = next.customer_group_id ?? undefined;
  if (input.cart_items !== undefined) {
    if (!Array.isArray(input.cart_items)) problems.add('cart_items', 'must be an array of lines {product_id, variant_id?, quantity, ...}');
    else if (input.cart_items.length > MAX_CART_LINES) problems.add('cart_items', `must hold at most ${MAX_CART_LINES} lines (got ${input.cart_items.length})`);
    else {
      const lines: StoredLine[] = [];
      const seen = new Map<string, number>();
      input.cart_items.forEach((raw, i) => {
        const line = readLine(world, raw, `cart_items.${i}`, group, problems);
        if (!line) return;
        const first = seen.get(line.variant_id);
        if (first !== undefined) problems.add(`cart_items.${i}.variant_id`, `repeats the variant of cart_items.${first} (${line.variant_id}): one line per variant, with its quantity`);
        else seen.set(line.variant_id, i);
        lines.push(line);
      });
      next.cart_items = lines;
    }
  }
  if (input.coupon_code !== undefined) {
    if (input.coupon_code === null) next.coupon_code = null;
    else if (typeof input.coupon_code === 'string' && world.couponByCode.has(input.coupon_code)) next.coupon_code = input.coupon_code;
    else problems.add('coupon_code', `names no coupon of this store (${shown(input.coupon_code)}; the codes: ${[...world.couponByCode.keys()].join(', ')})`);
  }
  for (const field of ['billing_address', 'shipping_address'] as const) {
    const value = input[field];
    if (value === undefined) continue;
    if (value === null) next[field] = null;
    else {
      const problem = checkAddress(value, field);
      const bytes = jsonBytes(value);
      if (problem) problems.add(problem.name, problem.message);
      else if (bytes > MAX_ADDRESS_BYTES) problems.add(field, `is ${bytes} bytes of JSON; an address keeps at most ${MAX_ADDRESS_BYTES}`);
      else next[field] = structuredClone(value) as CartRecord[typeof field];
    }
  }
  if (input.status !== undefined) {
    if (isText(input.status)) next.status = input.status;
    else problems.add('status', `must be a non-empty string (the contract's set is open; the platform shows ${DEFAULT_STATUS})`);
  }
  for (const field of ['status_error_message', 'customer_note'] as const) {
    const value = input[field];
    if (value === undefined) continue;
    if (value === null || typeof value === 'string') next[field] = value;
    else problems.add(field, 'must be a string or null');
  }
  if (input.metadata !== undefined) {
    const problem = isObject(input.metadata) ? metadataProblem(input.metadata) : 'must be an object (free-form)';
    if (problem) problems.add('metadata', problem);
    else next.metadata = structuredClone(input.metadata as Input);
  }
  if (input.expires_at !== undefined && input.expires_in_seconds !== undefined) problems.add('expires_in_seconds', 'give expires_at (a time) or expires_in_seconds (from the store\'s clock), not both');
  else if (input.expires_at !== undefined) {
    if (parseDateTime(input.expires_at) !== undefined) next.expires_at = input.expires_at as string;
    else problems.add('expires_at', `${DATE_TIME_WANTED} (a past time makes an expired cart)`);
  } else if (input.expires_in_seconds !== undefined) {
    const s = input.expires_in_seconds;
    if (typeof s === 'number' && Number.isInteger(s) && Math.abs(s) <= MAX_EXPIRY_SECONDS) next.expires_at = new Date(now + s * 1000).toISOString();
    else problems.add('expires_in_seconds', `must be a whole number of seconds from -${MAX_EXPIRY_SECONDS} to ${MAX_EXPIRY_SECONDS} (negative: already expired)`);
  }
  if (input.active !== undefined) {
    if (typeof input.active === 'boolean') next.active = input.active;
    else problems.add('active', 'must be true or false');
  }
  if (input.fulfillment_preference !== undefined) {
    const f = input.fulfillment_preference;
    if (!isObject(f)) problems.add('fulfillment_preference', 'must be an object {fulfillment_type, pickup_location_id?, preference_type?}');
    else {
      const before = problems.list.length;
      problems.unknown(f, FIELDS.fulfillment, 'fulfillment_preference.');
      if (!isText(f.fulfillment_type)) problems.add('fulfillment_preference.fulfillment_type', 'is required: delivery, collect-in-store, or another non-empty string');
      if (f.preference_type !== undefined && !isText(f.preference_type)) problems.add('fulfillment_preference.preference_type', 'must be a non-empty string (the platform shows user)');
      const pickupId = f.pickup_location_id ?? null;
      const location = typeof pickupId === 'string' ? world.locations.find((l) => l.id === pickupId) : undefined;
      if (pickupId !== null && !location) problems.add('fulfillment_preference.pickup_location_id', `names no location of this store (${shown(pickupId)}; the locations: ${world.locations.map((l) => l.id).join(', ')})`);
      else if (pickupId === null && f.fulfillment_type === 'collect-in-store') problems.add('fulfillment_preference.pickup_location_id', 'is required to collect in store (one of the store\'s locations)');
      if (problems.list.length === before) {
        next.fulfillment_preference = {
          fulfillment_type: f.fulfillment_type as string,
          pickup_location_id: location?.id ?? null,
          preference_type: (f.preference_type as string | undefined) ?? 'user',
          pickup_location_name: location?.name ?? null,
        };
      }
    }
  }
  if (input.credit_balance_used !== undefined) {
    const problem = amountProblem(input.credit_balance_used);
    if (problem) problems.add('credit_balance_used', problem);
    else next.credit_balance_used = input.credit_balance_used as number;
  }
  if (input.loyalty_points_redeemed !== undefined) {
    const problem = quantityProblem(input.loyalty_points_redeemed, 0);
    if (problem) problems.add('loyalty_points_redeemed', problem.replace('units', 'points').replace(`(the largest stock)`, ''));
    else next.loyalty_points_redeemed = input.loyalty_points_redeemed as number;
  }
  if (creating && next.customer_id) {
    const customer = world.customers.get(next.customer_id);
    if (input.billing_address === undefined) next.billing_address = cartAddress(customer, true);
    if (input.shipping_address === undefined) next.shipping_address = cartAddress(customer, true);
  }
  if (!problems.none) return { problems: problems.list };
  return { record: followLines(next, input.status_error_message !== undefined), problems: [] };
}

/** A new cart from a create body; the id is fresh unless given. */
export function cartFromBody(world: World, input: Input, now: number, checkAddress: AddressCheck): CartDraft {
  let id = randomId('crt_', 6);
  while (world.carts.has(id)) id = randomId('crt_', 6);
  return applyFields(world, blankCart(id, now), input, now, checkAddress, true);
}

/** The cart with the fields of a change body applied (`cart_items` replaces every line). */
export function changedCart(world: World, cart: CartRecord, input: Input, now: number, checkAddress: AddressCheck): CartDraft {
  return applyFields(world, cart, input, now, checkAddress, false);
}

/** The cart with one more line, or more of a line it has (the quantities add; flags given replace the line's). */
export function withLineAdded(world: World, cart: CartRecord, input: Input): CartDraft {
  const problems = new Problems();
  const line = readLine(world, input, '(body)', cart.customer_group_id ?? undefined, problems);
  if (!line) return { problems: problems.list.map((p) => ({ ...p, name: p.name.replace(/^\(body\)\./, '') })) };
  const lines = cart.cart_items.map(storedLine);
  const at = lines.findIndex((l) => l.variant_id === line.variant_id);
  if (at === -1) {
    if (lines.length >= MAX_CART_LINES) return { problems: [{ location: 'body', name: 'variant_id', message: `the cart already holds ${MAX_CART_LINES} lines, the most a cart may hold` }] };
    lines.push(line);
  } else {
    const quantity = lines[at].quantity + line.quantity;
    if (quantity > MAX_STOCK) return { problems: [{ location: 'body', name: 'quantity', message: `would take the line to ${quantity} units, past ${MAX_STOCK} (the largest stock)` }] };
    lines[at] = {
      ...lines[at],
      quantity,
      ...(input.free_quantity !== undefined ? { free_quantity: line.free_quantity } : {}),
      ...(input.is_free_item !== undefined ? { is_free_item: line.is_free_item } : {}),
      ...(input.on_subscription !== undefined ? { on_subscription: line.on_subscription } : {}),
    };
  }
  return { record: followLines({ ...cart, cart_items: lines }, false), problems: [] };
}

/** The cart with its line of `variantId` changed; `missing` when it has no such line. */
export function withLineChanged(world: World, cart: CartRecord, variantId: string, input: Input): CartDraft | 'missing' {
  const lines = cart.cart_items.map(storedLine);
  const at = lines.findIndex((l) => l.variant_id === variantId);
  if (at === -1) return 'missing';
  const problems = new Problems();
  problems.unknown(input, FIELDS.updateCartItem);
  if (Object.keys(input).length === 0) problems.add('(body)', `must change at least one field (${FIELDS.updateCartItem.join(', ')}); DELETE removes the line`);
  const current = lines[at];
  const line = readLine(world, { ...current, ...input }, '(body)', cart.customer_group_id ?? undefined, problems);
  if (!problems.none || !line) return { problems: problems.list.map((p) => ({ ...p, name: p.name.replace(/^\(body\)\./, '') })) };
  lines[at] = line;
  return { record: { ...cart, cart_items: lines }, problems: [] };
}

/** The cart without its line of `variantId`; `missing` when it has no such line. */
export function withLineRemoved(cart: CartRecord, variantId: string): CartRecord | 'missing' {
  const lines = cart.cart_items.map(storedLine);
  const at = lines.findIndex((l) => l.variant_id === variantId);
  if (at === -1) return 'missing';
  lines.splice(at, 1);
  return followLines({ ...cart, cart_items: lines }, false);
}
