// One store's world: the records of WorldData behind Maps (ids come from users, so never object keys),
// the indexes the operations need, a version that every change bumps, and the cache of serialized
// answers keyed by that version. Rendering (render.ts), money (cart.ts) and queries (listing.ts) read it;
// only `put*` change it, and every change goes through the journal first (sandbox.ts).
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { AssetUrls, DEFAULT_ASSET_ORIGIN } from './asset-urls.js';
import { PriceBook } from './pricing.js';
import type { CartRecord, Category, Coupon, Country, CustomerGroup, CustomerRecord, Location, OrderRecord, ProductRecord, VariantRecord, WorldData } from './types.js';

export interface VariantRef {
  product: ProductRecord;
  variant: VariantRecord;
}

/** Bytes of serialized answers a world keeps (keys and bodies); with `maxWorlds` worlds, the bound of all. */
export const ANSWER_CACHE_BYTES = 4 * 1024 * 1024;
/** Longer keys (a query or body field of any length) are kept as their SHA-256, never as the text. */
const LONGEST_KEY = 256;

/**
 * Serialized answers of this world, valid for one version; bounded by bytes (oldest entries dropped
 * first), so odd queries and large valid bodies (a 1 MB pincode) cannot grow it: long keys are hashed,
 * and an answer larger than half the budget is built every time instead of kept.
 */
export class AnswerCache {
  // lru-cache does the bookkeeping: least recently used first out, by the cost of keys and bodies.
  // Undefined when the budget is 0: every answer is built (the benchmarks' uncached side).
  private readonly entries: LRUCache<string, Buffer> | undefined;
  constructor(maxBytes = ANSWER_CACHE_BYTES) {
    this.entries = maxBytes > 0 ? new LRUCache<string, Buffer>({ maxSize: maxBytes, maxEntrySize: maxBytes / 2, sizeCalculation: (value, key) => costOf(key, value) }) : undefined;
  }

  get(key: string): Buffer | undefined {
    return this.entries?.get(keyOf(key));
  }

  set(key: string, value: Buffer): void {
    this.entries?.set(keyOf(key), value);
  }

  /** Bytes held (keys counted as UTF-16, plus a fixed overhead per entry). */
  get bytes(): number {
    return this.entries?.calculatedSize ?? 0;
  }

  clear(): void {
    this.entries?.clear();
  }
}

const keyOf = (key: string) => (key.length > LONGEST_KEY ? `sha256:${createHash('sha256').update(key).digest('base64')}` : key);
const costOf = (key: string, value: Buffer) => key.length * 2 + value.length + 64;

export class World {
  version = 0;
  readonly categories = new Map<string, Category>();
  readonly categoryBySlug = new Map<string, Category>();
  readonly products = new Map<string, ProductRecord>();
  readonly variants = new Map<string, VariantRef>();
  prices: PriceBook;
  groups: CustomerGroup[];
  countries: Country[];
  readonly customers = new Map<string, CustomerRecord>();
  readonly carts = new Map<string, CartRecord>();
  readonly orders = new Map<string, OrderRecord>();
  coupons: Coupon[];
  readonly couponByCode = new Map<string, Coupon>();
  locations: Location[];
  readonly cache: AnswerCache;
  /** True once anything was written after seeding (a written world is evicted like any other: the journal rebuilds it). */
  touched = false;
  /** The day (UTC midnight, ms) its seeded records are dated from, when the sandbox built it. */
  datedFrom?: number;
  private counts?: { version: number; byCategory: Map<string, number> };
  private byUser?: { version: number; orders: Map<string, OrderRecord[]> };

  constructor(
    readonly storeId: string,
    data: WorldData,
    /** Where the world's images are served (new products get theirs there too). */
    readonly assets: AssetUrls = new AssetUrls(DEFAULT_ASSET_ORIGIN, storeId),
    /** The answer cache's budget in bytes (0: every answer is built). */
    answerCacheBytes = ANSWER_CACHE_BYTES,
  ) {
    this.cache = new AnswerCache(answerCacheBytes);
    for (const c of data.categories) this.putCategory(c);
    for (const p of data.products) this.putProduct(p);
    this.groups = data.customer_groups;
    this.prices = new PriceBook(data.customer_groups);
    this.countries = data.countries;
    for (const c of data.customers) this.customers.set(c.id, c);
    for (const c of data.carts) this.carts.set(c.id, c);
    for (const o of data.orders) this.orders.set(o.order_number, o);
    this.coupons = data.coupons;
    for (const coupon of data.coupons) for (const code of coupon.coupon_code) this.couponByCode.set(code, coupon);
    this.locations = data.locations;
    this.version = 1;
  }

  private changed(): void {
    this.version++;
    this.cache.clear();
  }

  putCategory(category: Category): void {
    this.categories.set(category.id, category);
    this.categoryBySlug.set(category.slug, category);
  }

  putProduct(product: ProductRecord): void {
    const previous = this.products.get(product.id);
    for (const v of previous?.variants ?? []) this.variants.delete(v.id);
    this.products.set(product.id, product);
    for (const variant of product.variants) this.variants.set(variant.id, { product, variant });
    this.changed();
  }

  putCustomer(customer: CustomerRecord): void {
    this.customers.set(customer.id, customer);
    this.changed();
  }

  putCart(cart: CartRecord): void {
    this.carts.set(cart.id, cart);
    this.changed();
  }

  deleteCart(id: string): void {
    if (this.carts.delete(id)) this.changed();
  }

  putOrder(order: OrderRecord): void {
    this.orders.set(order.order_number, order);
    this.changed();
  }

  /** The variant of that product, or undefined (a variant of another product is not found either). */
  variantOf(productId: string, variantId: string): VariantRef | undefined {
    const ref = this.variants.get(variantId);
    return ref && ref.product.id === productId ? ref : undefined;
  }

  /** The variant a product is shown by: the one marked default, else the first. */
  defaultVariant(product: ProductRecord): VariantRecord | undefined {
    return product.variants.find((v) => v.is_default) ?? product.variants[0];
  }

  /** Active products per category id, for `Category.product_count`. */
  productCount(categoryId: string): number {
    if (this.counts?.version !== this.version) {
      const byCategory = new Map<string, number>();
      for (const p of this.products.values()) {
        if (!p.active) continue;
        for (const id of new Set(p.category_ids)) byCategory.set(id, (byCategory.get(id) ?? 0) + 1);
      }
      this.counts = { version: this.version, byCategory };
    }
    return this.counts.byCategory.get(categoryId) ?? 0;
  }

  /** A user's orders (users and customers share ids), in the world's order. */
  ordersOf(userId: string): OrderRecord[] {
    if (this.byUser?.version !== this.version) {
      const orders = new Map<string, OrderRecord[]>();
      for (const o of this.orders.values()) {
        const list = orders.get(o.user_id) ?? [];
        list.push(o);
        orders.set(o.user_id, list);
      }
      this.byUser = { version: this.version, orders };
    }
    return this.byUser.orders.get(userId) ?? [];
  }

  /** Units on hand of a variant: the sum of its lots. */
  stock(variant: VariantRecord): number {
    return (variant.inventory ?? []).reduce((sum, lot) => sum + lot.stock_quantity, 0);
  }

  markTouched(): void {
    this.touched = true;
  }
}
