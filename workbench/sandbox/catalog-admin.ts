// What the back office does to the catalog, as pure functions from records to new records (the caller
// commits them): create a product from a short description, change some of its fields, move stock.
// Inputs come from users: only the listed fields are read, and every problem is reported by field name;
// prices and stock are taken only within the bounds of bounds.ts (register SF-037).
import type { ErrorItem } from 'storefront-contract/contract';
import { FIELDS } from './back-office-api.js';
import { slugify } from './catalog-data.js';
import { randomId } from './identities.js';
import { MAX_PRICE, priceProblem, stockProblem } from './bounds.js';
import { round2 } from './money.js';
import type { InventoryLot, Pricing, ProductRecord, VariantRecord } from './types.js';
import type { World } from './world.js';

type Input = Record<string, unknown>;


const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

function unknownFields(input: Input, allowed: readonly string[], at = ''): ErrorItem[] {
  return Object.keys(input)
    .filter((k) => !allowed.includes(k))
    .map((k) => ({ location: 'body' as const, name: `${at}${k}`, message: `is not a field here (fields: ${allowed.join(', ')})` }));
}

function pricingFor(selling: number, listing: number | undefined, taxRate: number, maxQty = 10): Pricing {
  return {
    currency: 'INR',
    tax_type: 'GST',
    tax_rate: taxRate,
    price_including_tax: true,
    listing_price: listing ?? Math.min(MAX_PRICE, round2(selling * 1.2)),
    selling_price: round2(selling),
    selling_price_excluding_tax: round2(selling / (1 + taxRate / 100)),
    min_order_quantity: 1,
    max_order_quantity: maxQty,
    incremental_quantity: 1,
  };
}

function freshLot(quantity: number, at: number, manufacturer: string): InventoryLot {
  const mfg = new Date(at).toISOString().slice(0, 10);
  const exp = new Date(at + 2 * 365 * 24 * 3600 * 1000).toISOString().slice(0, 10);
  return { lot_batch: `SBX-${mfg.slice(2, 7).replace('-', '')}-${randomId('', 3)}`, manufacturer, mfg_date: mfg, exp_date: exp, stock_quantity: quantity };
}

/** The fields of the bodies, exactly those of their types (back-office-api.ts: the typed client sends them). */
export const PRODUCT_FIELDS = FIELDS.createProduct;
const VARIANT_FIELDS = FIELDS.productVariant;

/** A new product from a short input; `problems` lists every invalid field. */
export function newProduct(world: World, input: Input, at: number): { product?: ProductRecord; problems: ErrorItem[] } {
  const problems = unknownFields(input, PRODUCT_FIELDS);
  const body = (name: string, message: string) => problems.push({ location: 'body', name, message });
  if (!isText(input.name)) body('name', 'is required (a non-empty string)');
  if (!Array.isArray(input.category_ids) || input.category_ids.length === 0) body('category_ids', 'is required (an array of category ids)');
  else input.category_ids.forEach((id, i) => (typeof id === 'string' && world.categories.has(id) ? undefined : body(`category_ids.${i}`, `names no category of this store (${JSON.stringify(id)})`)));
  const selling = input.selling_price === undefined ? 'is required (a price, tax included)' : priceProblem(input.selling_price);
  if (selling) body('selling_price', selling);
  const listing = input.listing_price === undefined ? undefined : priceProblem(input.listing_price);
  if (listing) body('listing_price', listing);
  if (input.tax_rate !== undefined && !(typeof input.tax_rate === 'number' && input.tax_rate >= 0 && input.tax_rate <= 100)) body('tax_rate', 'must be a percentage from 0 to 100');
  for (const f of ['sku', 'slug', 'short_description', 'id'] as const) if (input[f] !== undefined && !isText(input[f])) body(f, 'must be a non-empty string');
  if (input.id !== undefined && isText(input.id) && world.products.has(input.id)) body('id', 'is already a product of this store');
  if (input.tags !== undefined && !(Array.isArray(input.tags) && input.tags.every(isText))) body('tags', 'must be an array of strings');
  const stock = input.stock === undefined ? undefined : stockProblem(input.stock);
  if (stock) body('stock', stock);
  if (input.backorder !== undefined && typeof input.backorder !== 'boolean') body('backorder', 'must be true or false');
  const variantsIn = input.variants;
  if (variantsIn !== undefined) {
    if (!Array.isArray(variantsIn) || variantsIn.length === 0) body('variants', 'must be a non-empty array of {name, selling_price?, stock?, sku?}');
    else
      variantsIn.forEach((v, i) => {
        if (!v || typeof v !== 'object' || Array.isArray(v)) return body(`variants.${i}`, 'must be an object');
        problems.push(...unknownFields(v as Input, VARIANT_FIELDS, `variants.${i}.`));
        const vi = v as Input;
        if (!isText(vi.name)) body(`variants.${i}.name`, 'is required (a non-empty string)');
        const vSelling = vi.selling_price === undefined ? undefined : priceProblem(vi.selling_price);
        if (vSelling) body(`variants.${i}.selling_price`, vSelling);
        const vStock = vi.stock === undefined ? undefined : stockProblem(vi.stock);
        if (vStock) body(`variants.${i}.stock`, vStock);
        if (vi.sku !== undefined && !isText(vi.sku)) body(`variants.${i}.sku`, 'must be a non-empty string');
      });
  }
  if (problems.length) return { problems };

  const name = (input.name as string).trim();
  const id = (input.id as string | undefined) ?? randomId('prd_', 6);
  const slug = (input.slug as string | undefined) ?? slugify(name);
  const sku = (input.sku as string | undefined) ?? `SBX-${slugify(name).toUpperCase().slice(0, 12)}`;
  const categoryIds = input.category_ids as string[];
  const taxRate = (input.tax_rate as number | undefined) ?? 18;
  const short = (input.short_description as string | undefined) ?? name;
  const tags = (input.tags as string[] | undefined) ?? [];
  const backorder = (input.backorder as boolean | undefined) ?? false;
  const given = (variantsIn as Input[] | undefined) ?? [{ name: 'Standard' }];
  const variants: VariantRecord[] = given.map((v, i) => {
    const vName = (v.name as string).trim();
    const vSlug = vName === 'Standard' ? slug : `${slug}-${slugify(vName)}`;
    const price = pricingFor((v.selling_price as number | undefined) ?? (input.selling_price as number), input.listing_price as number | undefined, taxRate);
    const image = {
      id: `img_${vSlug.replace(/-/g, '_').slice(0, 40)}_1`,
      title: vName === 'Standard' ? name : `${name} ${vName}`,
      alternate_text: `${name} ${vName}`,
      sort_order: 1,
      ...world.assets.sizes(vSlug),
    };
    const stock = (v.stock as number | undefined) ?? (input.stock as number | undefined) ?? 100;
    return {
      id: randomId('var_', 6),
      product_id: id,
      sku: (v.sku as string | undefined) ?? (vName === 'Standard' ? sku : `${sku}-${slugify(vName).toUpperCase().slice(0, 6)}`),
      slug: vSlug,
      name: vName,
      product_name: name,
      short_description: short,
      product_type: 'physical',
      active: true,
      stock_available: stock > 0,
      on_promotion: false,
      on_subscription: false,
      is_default: i === 0,
      backorder,
      associated_options: (variantsIn ? { option: { name: 'Option', type: 'single-select', value: vName } } : {}) as VariantRecord['associated_options'],
      images: [image],
      pricing: price,
      subscription: [],
      promotion: null,
      inventory: stock > 0 ? [freshLot(stock, at, 'Sandbox back office')] : [],
      description: `<p>${short}</p>`,
      hsn_code: '33049990',
      category_ids: categoryIds,
      tags,
      reviews_rating_sum: 0,
      reviews_count: 0,
      variant_options: variantsIn ? [{ name: 'Option', key: 'option', type: 'single-select', value: given.map((g) => (g.name as string).trim()) }] : [],
      product_attributes: [],
      variant_attributes: [],
      videos: [],
      shipping: { handling_charges_including_tax: 0, handling_charges_excluding_tax: 0, tax_rate: taxRate, tax_type: 'GST' },
      seo: { slug: vSlug, title: name, description: short, keywords: [name.toLowerCase(), ...tags] },
      metadata: { created_by: 'sandbox back office' },
      seller_id: null,
      seller_detail: null,
    };
  });
  const def = variants[0];
  return {
    problems: [],
    product: {
      id,
      sku,
      name,
      slug,
      short_description: short,
      product_type: 'physical',
      active: true,
      stock_available: variants.some((v) => v.stock_available),
      on_subscription: false,
      on_promotion: false,
      has_variant: variantsIn !== undefined,
      backorder,
      tags,
      category_ids: categoryIds,
      categories: [],
      reviews_rating_sum: 0,
      reviews_count: 0,
      attributes: [],
      pricing: def.pricing,
      variant_options: def.variant_options,
      promotion: null,
      images: variants.map((v) => v.images[0]),
      subscription: [],
      variants,
      bundle_items: [],
    },
  };
}

export const PATCH_FIELDS = FIELDS.updateProduct;

/** The product with some fields changed; prices apply to every variant (group prices are the groups'). */
export function patchProduct(world: World, product: ProductRecord, input: Input): { product?: ProductRecord; problems: ErrorItem[] } {
  const problems = unknownFields(input, PATCH_FIELDS);
  const body = (name: string, message: string) => problems.push({ location: 'body', name, message });
  if (Object.keys(input).length === 0) body('(body)', `must change at least one field (${PATCH_FIELDS.join(', ')})`);
  if (input.name !== undefined && !isText(input.name)) body('name', 'must be a non-empty string');
  if (input.short_description !== undefined && !isText(input.short_description)) body('short_description', 'must be a non-empty string');
  if (input.active !== undefined && typeof input.active !== 'boolean') body('active', 'must be true or false');
  if (input.backorder !== undefined && typeof input.backorder !== 'boolean') body('backorder', 'must be true or false');
  if (input.tags !== undefined && !(Array.isArray(input.tags) && input.tags.every(isText))) body('tags', 'must be an array of strings');
  if (input.category_ids !== undefined) {
    if (!Array.isArray(input.category_ids) || input.category_ids.length === 0) body('category_ids', 'must be a non-empty array of category ids');
    else input.category_ids.forEach((id, i) => (typeof id === 'string' && world.categories.has(id) ? undefined : body(`category_ids.${i}`, `names no category of this store (${JSON.stringify(id)})`)));
  }
  for (const field of ['selling_price', 'listing_price'] as const) {
    const problem = input[field] === undefined ? undefined : priceProblem(input[field]);
    if (problem) body(field, problem);
  }
  if (problems.length) return { problems };

  const reprice = (p: Pricing): Pricing => {
    const selling = (input.selling_price as number | undefined) ?? p.selling_price;
    return {
      ...p,
      selling_price: round2(selling),
      selling_price_excluding_tax: input.selling_price !== undefined ? round2(selling / (1 + p.tax_rate / 100)) : p.selling_price_excluding_tax,
      listing_price: (input.listing_price as number | undefined) ?? Math.max(p.listing_price, round2(selling)),
    };
  };
  const priced = input.selling_price !== undefined || input.listing_price !== undefined;
  const name = (input.name as string | undefined)?.trim() ?? product.name;
  const categoryIds = (input.category_ids as string[] | undefined) ?? product.category_ids;
  const next: ProductRecord = {
    ...product,
    name,
    short_description: (input.short_description as string | undefined) ?? product.short_description,
    active: (input.active as boolean | undefined) ?? product.active,
    tags: (input.tags as string[] | undefined) ?? product.tags,
    category_ids: categoryIds,
    backorder: (input.backorder as boolean | undefined) ?? product.backorder,
    pricing: priced ? reprice(product.pricing) : product.pricing,
    variants: product.variants.map((v) => ({
      ...v,
      product_name: name,
      active: (input.active as boolean | undefined) ?? v.active,
      short_description: (input.short_description as string | undefined) ?? v.short_description,
      tags: (input.tags as string[] | undefined) ?? v.tags,
      category_ids: categoryIds,
      backorder: (input.backorder as boolean | undefined) ?? v.backorder,
      pricing: priced ? reprice(v.pricing) : v.pricing,
    })),
  };
  return { product: next, problems: [] };
}

/** The product with the variant's stock moved to `target` units: removals take the lots expiring first, additions go to the freshest lot. */
export function withStock(product: ProductRecord, variantId: string, target: number, at: number): ProductRecord {
  return {
    ...product,
    variants: product.variants.map((v) => {
      if (v.id !== variantId) return v;
      const lots = (v.inventory ?? []).map((l) => ({ ...l }));
      let current = lots.reduce((n, l) => n + l.stock_quantity, 0);
      if (target > current) {
        const freshest = [...lots].sort((a, b) => b.exp_date.localeCompare(a.exp_date))[0];
        if (freshest) freshest.stock_quantity += target - current;
        else lots.push(freshLot(target, at, 'Sandbox back office'));
      } else {
        for (const lot of [...lots].sort((a, b) => a.exp_date.localeCompare(b.exp_date))) {
          if (current <= target) break;
          const take = Math.min(lot.stock_quantity, current - target);
          lot.stock_quantity -= take;
          current -= take;
        }
      }
      return { ...v, inventory: lots, stock_available: target > 0 };
    }),
  };
}
