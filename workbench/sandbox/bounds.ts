// The bounds of money and stock (register SF-037). A JavaScript number past about 1.8e306 turns into
// Infinity once multiplied by 100 for rounding, and JSON writes Infinity as null; a price of 1e-9 rounds to
// 0. So the back office takes prices and stock only within designed bounds, and a write whose arithmetic
// would carry any amount of a cart past the largest amount is refused (409) before anything is journaled:
// every amount the sandbox answers or raises is a finite number with at most two decimals.
import type { ErrorItem } from 'storefront-contract/contract';
import { priceCart } from './cart.js';
import type { ProductRecord } from './types.js';
import type { VariantRef, World } from './world.js';

/** The largest price of one unit: ₹100 crore (spec: `maximum` of the Pricing prices). */
export const MAX_PRICE = 1_000_000_000;
/** The largest stock of one variant, in units (spec: `maximum` of `stock_quantity`). */
export const MAX_STOCK = 1_000_000_000;
/**
 * The largest amount anything carries (a cart's or an order's totals, a line's amount): ₹1 lakh crore.
 * In paise it stays below 2^53, so every amount up to it is exact to the paisa.
 */
export const MAX_AMOUNT = 1_000_000_000_000;

/**
 * The most lines a cart set up through the back office may hold (one per variant). Not a platform limit
 * (the contract states none): it keeps one back-office body from making a cart whose every answer is
 * megabytes (each line answers about 2.5 KB).
 */
export const MAX_CART_LINES = 100;
/**
 * Bytes of JSON a cart's free-form parts keep: its metadata, and each of its addresses (the contract's
 * CartAddress states no lengths). Each write keeps the whole cart and its event carries it, so without a
 * bound one request near the body limit kept megabytes, and every later change of the cart as much again.
 */
export const MAX_METADATA_BYTES = 16 * 1024;
export const MAX_ADDRESS_BYTES = 4 * 1024;

const utf8 = new TextEncoder();
/** Bytes of a value as UTF-8 JSON (in Node and in a page alike). */
export function jsonBytes(value: unknown): number {
  return utf8.encode(JSON.stringify(value)).length;
}

/** True for a number with at most two decimals (exact for every amount up to MAX_AMOUNT). */
export function hasTwoDecimals(n: number): boolean {
  return Number.isFinite(n) && Math.round(n * 100) / 100 === n;
}

/** Why `v` is not a price (0.01 to MAX_PRICE, two decimals), or undefined when it is one. */
export function priceProblem(v: unknown): string | undefined {
  if (typeof v !== 'number' || !Number.isFinite(v)) return `must be a price: a number from 0.01 to ${MAX_PRICE}`;
  if (v < 0.01 || v > MAX_PRICE) return `must be a price from 0.01 to ${MAX_PRICE} (the largest price), got ${v}`;
  if (!hasTwoDecimals(v)) return `must have at most two decimals (paise), got ${v}`;
  return undefined;
}

/** Why `v` is not a stock count (a whole number from 0 to MAX_STOCK), or undefined when it is one. */
export function stockProblem(v: unknown): string | undefined {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) return `must be a whole number of units from 0 to ${MAX_STOCK}`;
  if (v > MAX_STOCK) return `must be at most ${MAX_STOCK} units (the largest stock), got ${v}`;
  return undefined;
}

/** Why `v` is not a quantity of units (a whole number from `min` to MAX_STOCK), or undefined when it is one. */
export function quantityProblem(v: unknown, min = 1): string | undefined {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) return `must be a whole number of units from ${min} to ${MAX_STOCK}`;
  if (v > MAX_STOCK) return `must be at most ${MAX_STOCK} units (the largest stock), got ${v}`;
  return undefined;
}

/** Why `v` is not an amount (0 to MAX_AMOUNT, two decimals), or undefined when it is one. */
export function amountProblem(v: unknown): string | undefined {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > MAX_AMOUNT) return `must be an amount from 0 to ${MAX_AMOUNT}`;
  if (!hasTwoDecimals(v)) return `must have at most two decimals (paise), got ${v}`;
  return undefined;
}

/** Why `v` is not a stock change (a whole number, at most MAX_STOCK either way), or undefined. */
export function adjustProblem(v: unknown): string | undefined {
  if (typeof v !== 'number' || !Number.isInteger(v)) return 'must be a whole number (negative to remove stock)';
  if (Math.abs(v) > MAX_STOCK) return `must be from -${MAX_STOCK} to ${MAX_STOCK} units (the largest stock), got ${v}`;
  return undefined;
}

/** The largest number (by size) anywhere in a value the sandbox built; Infinity when one is not finite. */
export function largestNumber(value: unknown): number {
  let largest = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const here = stack.pop();
    if (typeof here === 'number') largest = Number.isFinite(here) ? Math.max(largest, Math.abs(here)) : Infinity;
    else if (here !== null && typeof here === 'object') stack.push(...Object.values(here));
  }
  return largest;
}

/**
 * The carts whose answer would carry an amount past MAX_AMOUNT if `product` replaced its current record
 * (every cart holding one of its variants, active or not: an ordered cart is still answered, repriced).
 */
export function overflowingCarts(world: World, product: ProductRecord, now: number): ErrorItem[] {
  const view = Object.create(world) as World;
  view.variantOf = (productId: string, variantId: string): VariantRef | undefined => {
    if (productId !== product.id) return world.variantOf(productId, variantId);
    const variant = product.variants.find((v) => v.id === variantId);
    return variant ? { product, variant } : undefined;
  };
  const problems: ErrorItem[] = [];
  for (const cart of world.carts.values()) {
    if (!cart.cart_items.some((i) => i.product_id === product.id)) continue;
    const largest = largestNumber(priceCart(view, cart, now).cart);
    if (largest > MAX_AMOUNT) problems.push({ location: 'body', name: 'selling_price', message: `would take an amount of cart ${cart.id} past ${MAX_AMOUNT} (the largest amount)` });
  }
  return problems;
}
