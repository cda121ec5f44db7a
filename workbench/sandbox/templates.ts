// What the sandbox takes from the storefront document's one read (the contract model) at start: the
// maximum page size of the lists, and the named examples, as the templates of the seeded world: the records they show
// (Matte Lipstick prd_7Q2K9X, cart crt_8N2F6Q, customer cst_9XK2PL and their orders, cards, coupons,
// stores) are part of every seeded store, so ids copied from the reference work against the sandbox,
// and every generated record is a variation of a record the contract's own tests validate.
import { contractModel, maxPageSize, mergeAllOf, type ContractDocument } from '../contract/model.js';
import type { Cart, CustomerDetail, Order, ProductRecord, SavedCard, SimilarProduct, Variant } from './types.js';

/** A named example's `content`, from the storefront document's one read, copied (the model's objects are shared). */
function content(doc: ContractDocument, name: string): any {
  const example = doc.part(`components/examples/${name}.yaml`) as { value?: { content?: unknown } } | undefined;
  if (!example?.value?.content) throw new Error(`sandbox: the storefront document references no example ${name}`);
  return structuredClone(example.value.content);
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
  /** The property names of the shapes the sandbox renders, in the schema's order (render.ts builds each answer from them). */
  shapes: Record<RenderedShape, readonly string[]>;
}

/** The schemas `render.ts` builds answers from: their property lists are read from the contract, never kept by hand. */
export const RENDERED_SHAPES = ['Product', 'ProductVariant', 'Variant', 'Category', 'SimilarProduct', 'BundleItem'] as const;
export type RenderedShape = (typeof RENDERED_SHAPES)[number];

/** A schema's property names (allOf folded), in the document's order. */
function propertiesOf(doc: ContractDocument, name: string): string[] {
  const schema = doc.part(`components/schemas/${name}.yaml`) as Record<string, unknown> | undefined;
  if (!schema) throw new Error(`sandbox: the storefront document has no schema ${name}`);
  return Object.keys((mergeAllOf(schema).properties as object | undefined) ?? {});
}

let cached: Templates | undefined;
let loading: Promise<Templates> | undefined;

/** Reads the examples once per process (the sandbox awaits this before it builds a world). */
export function loadTemplates(): Promise<Templates> {
  loading ??= (async () => {
    const doc = await contractModel('storefront');
    const [products, variant, similar, cart, orders, cards, customer] = ['ListProductsOk', 'GetVariantOk', 'ListSimilarProductsOk', 'GetPosCartOk', 'ListOrdersOk', 'ListCustomerCardsOk', 'CreateCustomerCreated'].map((name) =>
      content(doc, name),
    );
    cached = {
      maxPageSize: maxPageSize(doc) ?? Number.MAX_SAFE_INTEGER,
      products: products.products,
      variant: variant.variant,
      similar: similar.products,
      cart: cart.cart,
      orders: orders.orders,
      cards: cards.cards,
      customer: customer.customer_detail,
      shapes: Object.fromEntries(RENDERED_SHAPES.map((name) => [name, propertiesOf(doc, name)])) as unknown as Templates['shapes'],
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
