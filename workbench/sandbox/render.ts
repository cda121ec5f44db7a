// From stored records to the contract's shapes. Every answer object is built field by field from the
// schema's property list, so it carries what the contract lists and nothing the sandbox keeps beside it
// (a variant's seller, a cart's owner); derived fields (prices by customer group, promotion and
// subscription flags, stock, categories with live counts, bundle items) are computed here from the world.
import type { ResolvedPrice } from './pricing.js';
import type {
  BundleItem,
  Category,
  InventoryLot,
  Product,
  ProductRecord,
  ProductVariant,
  SimilarProduct,
  Variant,
  VariantRecord,
} from './types.js';
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
  return world.prices.resolve(product.id, variant?.id ?? null, { pricing: own.pricing, promotion: own.promotion ?? null, subscription: own.subscription }, group);
}

const lots = (lots: InventoryLot[] | undefined): InventoryLot[] => (lots ?? []).map((l) => ({ ...l }));

export function variantStockAvailable(world: World, variant: VariantRecord): boolean {
  return world.stock(variant) > 0;
}

export function renderProductVariant(world: World, product: ProductRecord, v: VariantRecord, ctx: ViewContext): ProductVariant {
  const price = priceOf(world, product, v, ctx.group);
  const out: ProductVariant = {
    id: v.id,
    product_id: product.id,
    sku: v.sku,
    slug: v.slug,
    name: v.name,
    product_name: product.name,
    short_description: v.short_description,
    product_type: v.product_type,
    active: v.active,
    stock_available: variantStockAvailable(world, v),
    on_promotion: price.promotion !== null,
    on_subscription: price.subscription.length > 0,
    is_default: v.is_default,
    backorder: v.backorder,
    associated_options: v.associated_options,
    images: v.images,
    pricing: price.pricing,
    subscription: price.subscription,
    promotion: price.promotion,
  };
  if (ctx.inventory) out.inventory = lots(v.inventory);
  return out;
}

export function renderVariant(world: World, product: ProductRecord, v: VariantRecord, ctx: ViewContext): Variant {
  const base = renderProductVariant(world, product, v, { ...ctx, inventory: false });
  const out: Variant = {
    ...base,
    description: v.description,
    hsn_code: v.hsn_code,
    category_ids: product.category_ids,
    tags: v.tags,
    reviews_rating_sum: v.reviews_rating_sum,
    reviews_count: v.reviews_count,
    variant_options: product.variant_options,
    product_attributes: product.attributes,
    variant_attributes: v.variant_attributes,
    videos: v.videos,
    shipping: v.shipping,
    seo: v.seo,
    metadata: v.metadata,
  };
  if (ctx.inventory) out.inventory = lots(v.inventory);
  return out;
}

export function renderCategory(world: World, c: Category): Category {
  return {
    id: c.id,
    name: c.name,
    slug: c.slug,
    description: c.description,
    parent_category_id: c.parent_category_id,
    product_count: world.productCount(c.id),
    active: c.active,
  };
}

export function renderProduct(world: World, p: ProductRecord, ctx: ViewContext): Product {
  const def = world.defaultVariant(p);
  const price = priceOf(world, p, def, ctx.group);
  const out: Product = {
    id: p.id,
    sku: p.sku,
    name: p.name,
    slug: p.slug,
    short_description: p.short_description,
    product_type: p.product_type,
    active: p.active,
    stock_available: p.variants.length ? p.variants.some((v) => variantStockAvailable(world, v)) : p.stock_available,
    on_subscription: price.subscription.length > 0,
    on_promotion: price.promotion !== null,
    has_variant: p.has_variant,
    backorder: def ? def.backorder : p.backorder,
    tags: p.tags,
    category_ids: p.category_ids,
    categories: p.category_ids.flatMap((id) => {
      const c = world.categories.get(id);
      return c ? [renderCategory(world, c)] : [];
    }),
    reviews_rating_sum: p.reviews_rating_sum,
    reviews_count: p.reviews_count,
    attributes: p.attributes,
    pricing: price.pricing,
    variant_options: p.variant_options,
    promotion: price.promotion,
    images: p.images,
    subscription: price.subscription,
    variants: p.variants.map((v) => renderProductVariant(world, p, v, ctx)),
    bundle_items: p.bundle_items.flatMap((item) => {
      // Bundle items never carry lots (as in the spec's ListProductsOk): their stock is the bundle's.
      const rendered = renderBundleItem(world, item.product_id, item.variant_id, item.quantity, { ...ctx, inventory: false });
      return rendered ? [rendered] : [];
    }),
  };
  if (ctx.inventory) out.inventory = p.variants.length ? p.variants.flatMap((v) => lots(v.inventory)) : lots(p.inventory);
  return out;
}

/** One product seen through one of its variants (listSimilarProducts, bundle items, cart and order lines). */
export function renderSimilar(world: World, p: ProductRecord, v: VariantRecord, ctx: ViewContext): SimilarProduct {
  const price = priceOf(world, p, v, ctx.group);
  const out: SimilarProduct = {
    product_id: p.id,
    variant_id: v.id,
    sku: v.sku,
    slug: v.slug,
    product_name: p.name,
    variant_name: v.name,
    product_type: v.product_type,
    short_description: v.short_description,
    active: v.active,
    stock_available: variantStockAvailable(world, v),
    on_subscription: price.subscription.length > 0,
    on_promotion: price.promotion !== null,
    backorder: v.backorder,
    category_ids: p.category_ids,
    tags: v.tags,
    reviews_count: v.reviews_count,
    reviews_rating_sum: v.reviews_rating_sum,
    attributes: [...p.attributes, ...v.variant_attributes],
    images: v.images,
    pricing: price.pricing,
    promotion: price.promotion,
    subscription: price.subscription,
    associated_options: v.associated_options,
    seller_id: v.seller_id ?? null,
    seller_detail: v.seller_detail ?? null,
    shipping: v.shipping,
  };
  if (ctx.inventory) out.inventory = lots(v.inventory);
  return out;
}

export function renderBundleItem(world: World, productId: string, variantId: string, quantity: number, ctx: ViewContext): BundleItem | undefined {
  const ref = world.variantOf(productId, variantId);
  if (!ref) return undefined;
  return { ...renderSimilar(world, ref.product, ref.variant, ctx), quantity };
}
