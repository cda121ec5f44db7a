// From stored records to the contract's shapes. Every answer object is built from its schema's property
// list, read from the contract at start (`templates().shapes`, in the schema's order): a property is either
// derived here from the world (prices by customer group, promotion and subscription flags, stock,
// categories with live counts, bundle items, a variant's product fields) or copied from the record as it
// is kept, and left out when the record has no value for it. So an answer carries what the contract lists
// and nothing the sandbox keeps beside it (a variant's seller, a cart's owner), and a property added to a
// schema appears as soon as a record holds it: there is no field list to extend here.
import type { ResolvedPrice } from './pricing.js';
import { templates, type RenderedShape } from './templates.js';
import type { BundleItem, Category, InventoryLot, Product, ProductRecord, ProductVariant, SimilarProduct, Variant, VariantRecord } from './types.js';
import type { World } from './world.js';

export interface ViewContext {
  /** `x-customer-group-id`, when sent. */
  group?: string;
  /** Include inventory lots (the `inventory` query parameter). */
  inventory: boolean;
}

/** The customer-group rule for one variant (or a product without variants). */
export function priceOf(world: World, product: ProductRecord, variant: VariantRecord | undefined, group: string | undefined): ResolvedPrice {
  const own = variant ?? product;
  return world.prices.resolve(
    product.id,
    variant?.id ?? null,
    {
      pricing: own.pricing,
      promotion: own.promotion ?? null,
      subscription: own.subscription,
    },
    group
  );
}

const lots = (lots: InventoryLot[] | undefined): InventoryLot[] => (lots ?? []).map((l) => ({ ...l }));

export function variantStockAvailable(world: World, variant: VariantRecord): boolean {
  return world.stock(variant) > 0;
}

/** What one render knows besides the record: the world, the request's view and the resolved price. */
interface View<R> {
  world: World;
  record: R;
  ctx: ViewContext;
  price: ResolvedPrice;
}
interface VariantView extends View<VariantRecord> {
  product: ProductRecord;
}
interface BundleView extends VariantView {
  quantity: number;
}

/** A shape's derived properties: everything else is copied from the record by name. */
type Derived<V> = ReadonlyMap<string, (view: V) => unknown>;

/** One answer object, property by property in the schema's order; undefined values are left out. */
function build<V extends View<object>>(shape: RenderedShape, derived: Derived<V>, view: V): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const record = view.record as Record<string, unknown>;
  for (const name of templates().shapes[shape]) {
    const derive = derived.get(name);
    const value = derive ? derive(view) : Object.hasOwn(record, name) ? record[name] : undefined;
    if (value !== undefined) out[name] = value;
  }
  return out;
}

const priced = {
  on_promotion: (v: View<object>) => v.price.promotion !== null,
  on_subscription: (v: View<object>) => v.price.subscription.length > 0,
  pricing: (v: View<object>) => v.price.pricing,
  promotion: (v: View<object>) => v.price.promotion,
  subscription: (v: View<object>) => v.price.subscription,
};

const PRODUCT_VARIANT: Derived<VariantView> = new Map<string, (v: VariantView) => unknown>([
  ...Object.entries(priced),
  ['product_id', (v) => v.product.id],
  ['product_name', (v) => v.product.name],
  ['stock_available', (v) => variantStockAvailable(v.world, v.record)],
  ['inventory', (v) => (v.ctx.inventory ? lots(v.record.inventory) : undefined)],
]);

const VARIANT: Derived<VariantView> = new Map<string, (v: VariantView) => unknown>([
  ...PRODUCT_VARIANT,
  ['category_ids', (v) => v.product.category_ids],
  ['variant_options', (v) => v.product.variant_options],
  ['product_attributes', (v) => v.product.attributes],
]);

// A product seen through one of its variants: the variant's derivations, and what names the pair.
const SIMILAR: Derived<VariantView> = new Map<string, (v: VariantView) => unknown>([
  ...PRODUCT_VARIANT,
  ['variant_id', (v) => v.record.id],
  ['variant_name', (v) => v.record.name],
  ['category_ids', (v) => v.product.category_ids],
  ['attributes', (v) => [...v.product.attributes, ...v.record.variant_attributes]],
  ['seller_id', (v) => v.record.seller_id ?? null],
  ['seller_detail', (v) => v.record.seller_detail ?? null],
]);

const BUNDLE_ITEM: Derived<BundleView> = new Map<string, (v: BundleView) => unknown>([...SIMILAR, ['quantity', (v) => v.quantity]]);

const CATEGORY: Derived<View<Category>> = new Map([['product_count', (v: View<Category>) => v.world.productCount(v.record.id)]]);

const PRODUCT: Derived<View<ProductRecord>> = new Map<string, (v: View<ProductRecord>) => unknown>([
  ...Object.entries(priced),
  ['stock_available', ({ world, record: p }) => (p.variants.length ? p.variants.some((v) => variantStockAvailable(world, v)) : p.stock_available)],
  [
    'backorder',
    ({ world, record: p }) => {
      const def = world.defaultVariant(p);
      return def ? def.backorder : p.backorder;
    },
  ],
  [
    'categories',
    ({ world, record: p }) =>
      p.category_ids.flatMap((id) => {
        const c = world.categories.get(id);
        return c ? [renderCategory(world, c)] : [];
      }),
  ],
  ['variants', ({ world, record: p, ctx }) => p.variants.map((v) => renderProductVariant(world, p, v, ctx))],
  [
    'bundle_items',
    ({ world, record: p, ctx }) =>
      p.bundle_items.flatMap((item) => {
        // Bundle items never carry lots (as in the spec's ListProductsOk): their stock is the bundle's.
        const rendered = renderBundleItem(world, item.product_id, item.variant_id, item.quantity, { ...ctx, inventory: false });
        return rendered ? [rendered] : [];
      }),
  ],
  ['inventory', ({ record: p, ctx }) => (ctx.inventory ? (p.variants.length ? p.variants.flatMap((v) => lots(v.inventory)) : lots(p.inventory)) : undefined)],
]);

/** The derived properties of each rendered shape (a test checks each names a property of its schema). */
export const DERIVED: Readonly<Record<RenderedShape, ReadonlySet<string>>> = {
  Product: new Set(PRODUCT.keys()),
  ProductVariant: new Set(PRODUCT_VARIANT.keys()),
  Variant: new Set(VARIANT.keys()),
  Category: new Set(CATEGORY.keys()),
  SimilarProduct: new Set(SIMILAR.keys()),
  BundleItem: new Set(BUNDLE_ITEM.keys()),
};

export function renderProductVariant(world: World, product: ProductRecord, v: VariantRecord, ctx: ViewContext): ProductVariant {
  return build('ProductVariant', PRODUCT_VARIANT, {
    world,
    product,
    record: v,
    ctx,
    price: priceOf(world, product, v, ctx.group),
  }) as unknown as ProductVariant;
}

export function renderVariant(world: World, product: ProductRecord, v: VariantRecord, ctx: ViewContext): Variant {
  return build('Variant', VARIANT, {
    world,
    product,
    record: v,
    ctx,
    price: priceOf(world, product, v, ctx.group),
  }) as unknown as Variant;
}

const NO_PRICE = undefined as unknown as ResolvedPrice;

export function renderCategory(world: World, c: Category): Category {
  return build('Category', CATEGORY, {
    world,
    record: c,
    ctx: { inventory: false },
    price: NO_PRICE,
  }) as unknown as Category;
}

export function renderProduct(world: World, p: ProductRecord, ctx: ViewContext): Product {
  return build('Product', PRODUCT, {
    world,
    record: p,
    ctx,
    price: priceOf(world, p, world.defaultVariant(p), ctx.group),
  }) as unknown as Product;
}

/** One product seen through one of its variants (listSimilarProducts, bundle items, cart and order lines). */
export function renderSimilar(world: World, p: ProductRecord, v: VariantRecord, ctx: ViewContext): SimilarProduct {
  return build('SimilarProduct', SIMILAR, {
    world,
    product: p,
    record: v,
    ctx,
    price: priceOf(world, p, v, ctx.group),
  }) as unknown as SimilarProduct;
}

export function renderBundleItem(world: World, productId: string, variantId: string, quantity: number, ctx: ViewContext): BundleItem | undefined {
  const ref = world.variantOf(productId, variantId);
  if (!ref) return undefined;
  const { product, variant } = ref;
  return build('BundleItem', BUNDLE_ITEM, {
    world,
    product,
    record: variant,
    ctx,
    price: priceOf(world, product, variant, ctx.group),
    quantity,
  }) as unknown as BundleItem;
}
