// What the sandbox reads from the spec at start: the maximum page size of the lists, and the named
// examples, as the templates of the seeded world: the records they show
// (Matte Lipstick prd_7Q2K9X, cart crt_8N2F6Q, customer cst_9XK2PL and their orders, cards, coupons,
// stores) are part of every seeded store, so ids copied from the reference work against the sandbox,
// and every generated record is a variation of a record the contract's own tests validate.
import $RefParser from '@apidevtools/json-schema-ref-parser';
import path from 'node:path';
import { specDir } from '../contract/files.js';
import type { Cart, CustomerDetail, Order, ProductRecord, SavedCard, SimilarProduct, Variant } from './types.js';

const examplesDir = path.join(specDir, 'openapi/components/examples');

// The ref parser's YAML reader (js-yaml) is many times faster than `yaml` on these files.
async function content(name: string): Promise<any> {
  const doc = (await $RefParser.parse(path.join(examplesDir, `${name}.yaml`))) as { value: { content: unknown } };
  return doc.value.content;
}

export interface Templates {
  /** `x-max-page-size` of the lists' `limit` (register SF-031): larger limits are answered with this many rows. */
  maxPageSize: number;
  /** prd_7Q2K9X (two shades) and prd_3H6V1B (a bundle without variant options), as listed. */
  products: ProductRecord[];
  /** var_4M8T2C with every detail. */
  variant: Variant;
  /** prd_5T9W3N / var_5T9W3P and prd_2C4R8J / var_2C4R8K (a marketplace seller's item). */
  similar: SimilarProduct[];
  cart: Cart;
  orders: Order[];
  cards: SavedCard[];
  customer: CustomerDetail;
}

let cached: Templates | undefined;
let loading: Promise<Templates> | undefined;

/** Reads the examples once per process (the sandbox awaits this before it builds a world). */
export function loadTemplates(): Promise<Templates> {
  loading ??= (async () => {
    const limit = (await $RefParser.parse(path.join(specDir, 'openapi/components/parameters/Limit.yaml'))) as { 'x-max-page-size'?: unknown };
    const [products, variant, similar, cart, orders, cards, customer] = await Promise.all([
      content('ListProductsOk'),
      content('GetVariantOk'),
      content('ListSimilarProductsOk'),
      content('GetPosCartOk'),
      content('ListOrdersOk'),
      content('ListCustomerCardsOk'),
      content('CreateCustomerCreated'),
    ]);
    cached = {
      maxPageSize: typeof limit['x-max-page-size'] === 'number' ? limit['x-max-page-size'] : Number.MAX_SAFE_INTEGER,
      products: products.products,
      variant: variant.variant,
      similar: similar.products,
      cart: cart.cart,
      orders: orders.orders,
      cards: cards.cards,
      customer: customer.customer_detail,
    };
    return cached;
  })();
  return loading;
}

/** The examples, shared: callers copy (structuredClone) what they change. Call loadTemplates() first. */
export function templates(): Readonly<Templates> {
  if (!cached) throw new Error('sandbox: the spec examples are not loaded yet (await loadTemplates() first)');
  return cached;
}
