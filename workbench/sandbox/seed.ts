// The seeded world of one store: `--seed` and the store id decide every random choice, through one stream
// per resource (so replacing customers.json does not change the catalog). The spec's example records are
// part of every world (templates.ts); the rest are variations of them built from catalog-data.ts. Any
// resource given as a fixture file replaces its generated counterpart, and the resources generated after
// it are built from it (carts and orders from the catalog in use).
import { BLUEPRINTS, BRANDS, BUSINESSES, CATEGORIES, CDN, CITIES, COUNTRIES, FINISHES, FIRST_NAMES, LAST_NAMES, SELLER_NYT01, SHADES, SIZES, slugify, type Blueprint, type Kind } from './catalog-data.js';
import { AssetUrls, DEFAULT_ASSET_ORIGIN } from './asset-urls.js';
import { priceCart } from './cart.js';
import { round2 } from './money.js';
import { orderFromCart, withStatus } from './orders.js';
import { IdSource, Random } from './random.js';
import { templates } from './templates.js';
import type {
  Address,
  Attribute,
  CartAddress,
  CartRecord,
  Category,
  Coupon,
  Country,
  CustomerGroup,
  CustomerRecord,
  GroupPrice,
  Image,
  InventoryLot,
  Location,
  OrderRecord,
  Pricing,
  ProductRecord,
  Promotion,
  SavedCard,
  Subscription,
  VariantRecord,
  WorldData,
} from './types.js';
import { World } from './world.js';

export interface SeedOptions {
  seed: string | number;
  storeId: string;
  /** Products in the generated catalog (the examples' four included). Default 120. */
  catalogSize?: number;
  /** The day the world is dated from (ms, any time of that UTC day): SEED_EPOCH moves to the day before. Default: not moved. */
  anchor?: number;
  /** Where the world's images are served (the workbench's own origin). Default: http://127.0.0.1:4010. */
  assets?: AssetUrls;
}

/** Every seeded time is generated relative to this instant (the examples' day), then moved to the anchor's day. */
export const SEED_EPOCH = Date.parse('2025-11-14T09:41:07Z');
const DAY = 24 * 3600 * 1000;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const EXAMPLE_PRODUCT_IDS = ['prd_7Q2K9X', 'prd_3H6V1B', 'prd_5T9W3N', 'prd_2C4R8J'];
const EXAMPLE_NAMES = new Set(['KN:Matte Lipstick', 'KN:Festive Glow Gift Set', 'KN:Kumkumadi Face Oil', 'NY:Kajal Eyeliner']);
const DEFAULT_GROUP = 'cgrp_default';

const PROMOTIONS: Promotion[] = [
  { id: 'prm_MONSOON15', starts_at: '2025-06-01T00:00:00+05:30', expires_at: '2030-12-31T23:59:59+05:30', details: { promotion_type: 'discount', discount_type: 'percentage', discount_percent: 15, discount_fixed_amount: 0 } },
  { id: 'prm_FLAT50', starts_at: '2025-01-01T00:00:00+05:30', expires_at: '2030-12-31T23:59:59+05:30', details: { promotion_type: 'discount', discount_type: 'fixed', discount_percent: 0, discount_fixed_amount: 50 } },
  { id: 'prm_DIWALI10', starts_at: '2025-10-10T00:00:00+05:30', expires_at: '2025-11-30T23:59:59+05:30', details: { promotion_type: 'discount', discount_type: 'percentage', discount_percent: 10, discount_fixed_amount: 0 } },
];
const GOLD_PROMOTION: Promotion = { id: 'prm_GOLD5', starts_at: '2025-01-01T00:00:00+05:30', expires_at: '2030-12-31T23:59:59+05:30', details: { promotion_type: 'discount', discount_type: 'percentage', discount_percent: 5, discount_fixed_amount: 0 } };

export function generateWorld(options: SeedOptions, given: Partial<WorldData> = {}): WorldData {
  const data = generateAtEpoch(options, given);
  // Generated around SEED_EPOCH, then moved by whole days so that SEED_EPOCH falls on the day before the
  // anchor (every seeded order is then in the past, every seeded cart still open): each relation between
  // dates (a cart's expiry after its creation, a coupon's window, an order's history) stays as seeded.
  if (options.anchor !== undefined) {
    const days = Math.round((dayStart(options.anchor) - dayStart(SEED_EPOCH)) / DAY) - 1;
    if (days !== 0) {
      const moved = data as unknown as Record<string, unknown>;
      for (const key of Object.keys(data) as Array<keyof WorldData>) if (!given[key]) moved[key] = shiftDates(data[key], days);
    }
  }
  return data;
}

function generateAtEpoch(options: SeedOptions, given: Partial<WorldData>): WorldData {
  const { seed, storeId } = options;
  const assets = options.assets ?? new AssetUrls(DEFAULT_ASSET_ORIGIN, storeId);
  const stream = (name: string) => new Random(seed, storeId, name);
  const categories = given.categories ?? seedCategories();
  let products = given.products ?? seedProducts(stream('products'), assets, categories, options.catalogSize ?? 120);
  if (given.categories && !given.products) products = keepKnownCategories(products, categories);
  const customerGroups = given.customer_groups ?? seedGroups(stream('groups'), products);
  const countries = given.countries ?? seedCountries(assets);
  const locations = given.locations ?? seedLocations();
  const coupons = given.coupons ?? seedCoupons(categories);
  const customers = given.customers ?? seedCustomers(stream('customers'), storeId);
  const data: WorldData = { categories, products, customer_groups: customerGroups, countries, customers, carts: [], orders: [], coupons, locations };
  if (given.carts && given.orders) return { ...data, carts: given.carts, orders: given.orders };
  // Carts and orders are priced by the world itself, so their amounts always add up.
  const world = new World(storeId, data, assets);
  data.carts = given.carts ?? seedCarts(stream('carts'), world, customers);
  for (const cart of data.carts) world.putCart(cart);
  data.orders = given.orders ?? seedOrders(stream('orders'), world, customers, assets);
  return data;
}

// ---- categories -----------------------------------------------------------------------------------------

function seedCategories(): Category[] {
  return CATEGORIES.map((c) => ({ id: c.id, name: c.name, slug: c.slug, description: c.description, parent_category_id: c.parent, product_count: 0, active: true }));
}

/** Seeded products over a categories.json of the user's: category ids it does not know are dropped. */
function keepKnownCategories(products: ProductRecord[], categories: readonly Category[]): ProductRecord[] {
  const known = new Set(categories.map((c) => c.id));
  const fallback = categories.find((c) => c.parent_category_id === null)?.id ?? categories[0]?.id;
  return products.map((p) => {
    const kept = p.category_ids.filter((id) => known.has(id));
    const ids = kept.length ? kept : fallback ? [fallback] : [];
    return { ...p, category_ids: ids, variants: p.variants.map((v) => ({ ...v, category_ids: ids })) };
  });
}

function ancestry(categories: readonly Category[], id: string): string[] {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const chain: string[] = [];
  for (let at = byId.get(id); at && !chain.includes(at.id); at = at.parent_category_id ? byId.get(at.parent_category_id) : undefined) chain.unshift(at.id);
  return chain;
}

// ---- products ---------------------------------------------------------------------------------------------

function code(s: string, letters = 3): string {
  return s
    .replace(/[^A-Za-z0-9 ]/g, '')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w.slice(0, letters).toUpperCase())
    .join('-');
}

function initials(s: string): string {
  const words = s.replace(/[^A-Za-z0-9 ]/g, ' ').split(/\s+/).filter(Boolean);
  return words.length > 1 ? words.map((w) => (/^\d/.test(w) ? w : w[0])).join('').toUpperCase() : s.slice(0, 3).toUpperCase();
}

/** Image records whose four sizes the sandbox serves (images.ts draws them from the record's title). */
function images(assets: AssetUrls, slug: string, title: string, alt: string, count: number): Image[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `img_${slug.replace(/-/g, '_').slice(0, 40)}_${i + 1}`,
    title,
    alternate_text: i === 0 ? alt : `${alt}, detail`,
    sort_order: i + 1,
    ...assets.sizes(i === 0 ? slug : `${slug}-${i + 1}`),
  }));
}

function pricing(excl: number, tax: number, maxQty = 10): Pricing {
  const selling = round2(excl * (1 + tax / 100));
  return {
    currency: 'INR',
    tax_type: 'GST',
    tax_rate: tax,
    price_including_tax: true,
    listing_price: round2(selling * 1.2),
    selling_price: selling,
    selling_price_excluding_tax: excl,
    min_order_quantity: 1,
    max_order_quantity: maxQty,
    incremental_quantity: 1,
  };
}

function lots(rng: Random, skuCode: string, manufacturer: string, empty: boolean): InventoryLot[] {
  const count = rng.int(1, 3);
  return Array.from({ length: count }, (_, i) => {
    const mfg = SEED_EPOCH - rng.int(20, 300) * DAY;
    return {
      lot_batch: `${skuCode.replace(/-/g, '').slice(0, 6)}-${date(mfg).slice(2, 7).replace('-', '')}-${'ABC'[i]}`,
      manufacturer,
      mfg_date: date(mfg),
      exp_date: date(mfg + rng.int(2, 3) * 365 * DAY - DAY),
      stock_quantity: empty ? 0 : rng.int(5, 400),
    };
  });
}

function plan(id: string, selling: number): Subscription {
  return {
    id,
    subscription_plan: 'Monthly refill',
    subscription_price: Math.floor(selling * 0.9),
    billing_interval: 1,
    billing_limit: 12,
    order_interval: 1,
    order_limit: 12,
    minimum_quantity: 1,
    billing_trial_days: 0,
    billing_frequency: 'monthly',
    order_frequency: 'monthly',
    fulfill_separately: false,
  };
}

interface VariantPlan {
  name: string;
  option: Record<string, { name: string; type: string; value: { name: string; hexcode: string } | string }>;
  factor: number;
  family?: { name: string; hexcode: string };
}

function variantPlans(rng: Random, bp: Blueprint): { plans: VariantPlan[]; options: ProductRecord['variant_options']; hasVariant: boolean } {
  const kind: Kind = bp.kind;
  if (kind === 'shades') {
    const palette = SHADES[bp.options ?? 'lipstick'];
    const shades = rng.sample(palette, rng.int(2, Math.min(4, palette.length)));
    return {
      plans: shades.map((s) => ({ name: s.name, option: { shade: { name: 'Shade', type: 'color', value: { name: s.name, hexcode: s.hexcode } } }, factor: 1, family: s })),
      options: [{ name: 'Shade', key: 'shade', type: 'color', value: shades.map((s) => s.name) }],
      hasVariant: true,
    };
  }
  if (kind === 'sizes') {
    const ladder = SIZES[bp.options ?? 'liquid'];
    const steps = ladder.slice(0, Math.max(2, rng.int(2, ladder.length)));
    return {
      plans: steps.map(([label, factor]) => ({ name: label, option: { size: { name: 'Size', type: 'single-select', value: label } }, factor })),
      options: [{ name: 'Size', key: 'size', type: 'single-select', value: steps.map(([label]) => label) }],
      hasVariant: true,
    };
  }
  if (kind === 'one') {
    const size = /(\d+(?:\.\d+)?\s?(?:ml|g|bags|capsules|tablets)|\d+ per bottle)/.exec(bp.short)?.[1] ?? SIZES[bp.options ?? 'tiny'][0][0];
    return {
      plans: [{ name: size, option: { size: { name: 'Size', type: 'single-select', value: size } }, factor: 1 }],
      options: [{ name: 'Size', key: 'size', type: 'single-select', value: [size] }],
      hasVariant: true,
    };
  }
  if (kind === 'empty') return { plans: [], options: [], hasVariant: false };
  return { plans: [{ name: 'Standard', option: {}, factor: 1 }], options: [], hasVariant: false };
}

interface BuildContext {
  rng: Random;
  ids: IdSource;
  storeId: string;
  assets: AssetUrls;
  categories: readonly Category[];
  built: ProductRecord[];
  skus: Set<string>;
}

const BUNDLE_SOURCES: Record<string, string[]> = {
  'Bridal Essentials Kit': ['cat_lips', 'cat_eyes', 'cat_face'],
  'Hair Care Trio': ['cat_hair_oils', 'cat_shampoos', 'cat_shampoos'],
  'Skincare Starter Kit': ['cat_cleansers', 'cat_serums', 'cat_moisturisers'],
  'Mini Lipstick Set': ['cat_lips', 'cat_lips', 'cat_lips'],
};

function buildProduct(ctx: BuildContext, bp: Blueprint, brand: (typeof BRANDS)[number]): ProductRecord {
  const { rng, ids, storeId, assets } = ctx;
  const def = CATEGORIES.find((c) => c.id === bp.category)!;
  const name = brand.code === 'KN' ? bp.name : `${brand.name} ${bp.name}`;
  const slug = slugify(name);
  let sku = `${brand.code}-${code(bp.name)}`;
  for (let n = 2; ctx.skus.has(sku); n++) sku = `${brand.code}-${code(bp.name)}${n}`;
  ctx.skus.add(sku);
  const id = ids.next('prd_');
  const categoryIds = ancestry(ctx.categories, bp.category);
  const tax = def.tax;
  const base = Math.max(10, Math.round((bp.price * (brand.code === 'NY' ? 0.85 : 1) * (0.85 + rng.next() * 0.3)) / 10) * 10);
  const promotion = bp.kind !== 'empty' && rng.chance(0.15) ? rng.pick(PROMOTIONS) : null;
  const { plans, options, hasVariant } = variantPlans(rng, bp);
  const makeup = categoryIds.includes('cat_makeup');
  const finish = makeup ? rng.pick(FINISHES) : undefined;
  const attributes: Attribute[] = finish ? [{ id: 'att_finish', name: 'Finish', key: 'finish', type: 'color', value: [{ ...finish }] }] : [];
  const handling = bp.kind === 'bundle' ? 40 : 0;
  const seller = brand.seller ? { seller_id: brand.seller, seller_detail: { ...SELLER_NYT01 } } : { seller_id: null, seller_detail: null };
  const withPlan = bp.refill === true && rng.chance(0.6);
  // The first variant (the smallest size, the first shade) is the default one.
  const defaultIndex = 0;

  const variants: VariantRecord[] = plans.map((p, i) => {
    const vName = p.name;
    const vSlug = vName === 'Standard' ? slug : `${slug}-${slugify(vName)}`;
    let vSku = vName === 'Standard' ? sku : `${sku}-${initials(vName)}`;
    for (let n = 2; ctx.skus.has(vSku); n++) vSku = `${sku}-${initials(vName)}${n}`;
    ctx.skus.add(vSku);
    const excl = Math.round((base * p.factor) / 10) * 10;
    const price = pricing(excl, tax, bp.options === 'soap' || def.id === 'cat_wellness' ? 5 : 10);
    const outOfStock = rng.chance(0.08);
    const count = rng.int(0, 600);
    const vId = ids.next('var_');
    const title = vName === 'Standard' ? name : `${name} ${vName}`;
    return {
      id: vId,
      product_id: id,
      sku: vSku,
      slug: vSlug,
      name: vName,
      product_name: name,
      short_description: bp.short,
      product_type: bp.product_type ?? 'physical',
      active: true,
      stock_available: !outOfStock,
      on_promotion: promotion !== null,
      on_subscription: withPlan,
      is_default: i === defaultIndex,
      backorder: outOfStock ? rng.chance(0.5) : rng.chance(0.05),
      associated_options: p.option,
      images: images(assets, vSlug, title, `${title}, product shot`, rng.int(1, 2)),
      pricing: price,
      subscription: withPlan ? [plan(`sub_${vId.slice(4)}_M`, price.selling_price)] : [],
      promotion,
      inventory: lots(rng, vSku, brand.manufacturer, outOfStock),
      description: `<p>${bp.short} ${brand.name} formulates it with traditional Ayurvedic ingredients; dermatologically tested, no parabens.</p>`,
      hsn_code: def.hsn,
      category_ids: categoryIds,
      tags: bp.tags,
      reviews_rating_sum: Math.round(count * (3.6 + rng.next() * 1.3)),
      reviews_count: count,
      variant_options: options,
      product_attributes: attributes,
      variant_attributes: p.family ? [{ id: 'att_shade_family', name: 'Shade family', key: 'shade_family', type: 'color', value: [{ name: p.family.name.split(' ')[0], hexcode: p.family.hexcode }] }] : [],
      videos: rng.chance(0.15)
        ? [
            {
              title: `${title} in use`,
              alternate_text: `How to use ${title}`,
              sort_order: 1,
              video_duration: rng.int(12, 90),
              video_preview_url: `${CDN}/${storeId}/videos/${vSlug}/preview.mp4`,
              video_stream_hls_url: `${CDN}/${storeId}/videos/${vSlug}/index.m3u8`,
              video_stream_dash_url: `${CDN}/${storeId}/videos/${vSlug}/manifest.mpd`,
              image_thumbnail_url: assets.videoThumbnail(vSlug),
            },
          ]
        : [],
      shipping: { handling_charges_including_tax: round2(handling * (1 + tax / 100)), handling_charges_excluding_tax: handling, tax_rate: tax, tax_type: 'GST' },
      seo: { slug: vSlug, title: `${title} | ${brand.name}`, description: bp.short, keywords: [name.toLowerCase(), ...bp.tags] },
      metadata: rng.chance(0.2) ? { launch: rng.pick(['Diwali 2025', 'Monsoon 2025', 'Wedding season 2025']) } : {},
      ...seller,
    };
  });

  const def0 = variants[defaultIndex];
  const bundleItems =
    bp.kind === 'bundle'
      ? pickBundle(ctx, bp).map((ref) => ({ product_id: ref.product.id, variant_id: ref.variant.id, quantity: 1 }))
      : [];
  const reviewsCount = variants.reduce((n, v) => n + v.reviews_count, 0);
  const record: ProductRecord = {
    id,
    sku,
    name,
    slug,
    short_description: bp.short,
    product_type: bp.product_type ?? 'physical',
    active: true,
    stock_available: def0 ? variants.some((v) => v.stock_available) : true,
    on_subscription: def0?.on_subscription ?? false,
    on_promotion: promotion !== null,
    has_variant: hasVariant,
    backorder: def0?.backorder ?? false,
    tags: bp.tags,
    category_ids: categoryIds,
    categories: [],
    reviews_rating_sum: variants.reduce((n, v) => n + v.reviews_rating_sum, 0),
    reviews_count: reviewsCount,
    attributes,
    pricing: def0?.pricing ?? pricing(base, tax),
    variant_options: options,
    promotion: def0 ? promotion : null,
    images: variants.length ? variants.map((v) => v.images[0]) : images(assets, slug, name, `${name}, card design`, 1),
    subscription: def0?.subscription ?? [],
    variants,
    bundle_items: bundleItems,
  };
  return record;
}

function pickBundle(ctx: BuildContext, bp: Blueprint): Array<{ product: ProductRecord; variant: VariantRecord }> {
  const sources = BUNDLE_SOURCES[bp.name] ?? ['cat_lips', 'cat_serums'];
  const picked: Array<{ product: ProductRecord; variant: VariantRecord }> = [];
  const lipstick = ctx.built.find((p) => p.id === 'prd_7Q2K9X');
  for (const [i, category] of sources.entries()) {
    if (bp.name === 'Mini Lipstick Set' && lipstick) {
      const v = lipstick.variants[i % lipstick.variants.length];
      if (!picked.some((x) => x.variant.id === v.id)) picked.push({ product: lipstick, variant: v });
      continue;
    }
    const candidates = ctx.built.filter((p) => p.category_ids.includes(category) && p.variants.length > 0 && p.bundle_items.length === 0 && !picked.some((x) => x.product.id === p.id));
    if (candidates.length === 0) continue;
    const product = ctx.rng.pick(candidates);
    picked.push({ product, variant: product.variants.find((v) => v.is_default) ?? product.variants[0] });
  }
  return picked;
}

/** The four products of the spec's examples, as full records (their images served by the sandbox). */
function exampleProducts(rng: Random, assets: AssetUrls): ProductRecord[] {
  const t = assets.fromExamples(structuredClone(templates()));
  const [lipstick, giftSet] = t.products;
  const detail = t.variant;
  const extras = (v: any, product: any, reviews: [number, number], attrs: Attribute[]): VariantRecord => ({
    ...v,
    description: detail.description.replace(/Ruby Red|A creamy matte lipstick/g, (m: string) => (m === 'Ruby Red' ? v.name : m)),
    hsn_code: CATEGORIES.find((c) => c.id === product.category_ids[product.category_ids.length - 1])?.hsn ?? detail.hsn_code,
    category_ids: product.category_ids,
    tags: product.tags,
    reviews_rating_sum: reviews[0],
    reviews_count: reviews[1],
    variant_options: product.variant_options,
    product_attributes: product.attributes,
    variant_attributes: attrs,
    videos: [],
    shipping: { handling_charges_including_tax: 0, handling_charges_excluding_tax: 0, tax_rate: 18, tax_type: 'GST' },
    seo: { slug: v.slug, title: `${product.name} ${v.name} | Kesari Naturals`, description: product.short_description, keywords: [product.name.toLowerCase(), ...product.tags] },
    metadata: {},
    seller_id: null,
    seller_detail: null,
  });

  // prd_7Q2K9X: var_4M8T2C exactly as GetVariantOk shows it; var_4M8T2D completes the product's reviews.
  const ruby: VariantRecord = { ...detail, seller_id: null, seller_detail: null };
  const nude = extras(lipstick.variants[1], lipstick, [lipstick.reviews_rating_sum - detail.reviews_rating_sum, lipstick.reviews_count - detail.reviews_count], [
    { id: 'att_shade_family', name: 'Shade family', key: 'shade_family', type: 'color', value: [{ name: 'Nude', hexcode: '#C48B7F' }] },
  ]);
  const p1: ProductRecord = { ...lipstick, variants: [ruby, nude] };
  delete p1.inventory;

  // prd_3H6V1B: a bundle of the lipstick and the face oil, with a ₹40 handling charge.
  const standard = extras(giftSet.variants[0], giftSet, [giftSet.reviews_rating_sum, giftSet.reviews_count], []);
  standard.shipping = { handling_charges_including_tax: 47.2, handling_charges_excluding_tax: 40, tax_rate: 18, tax_type: 'GST' };
  const p2: ProductRecord = {
    ...giftSet,
    variants: [standard],
    bundle_items: giftSet.bundle_items.map((b) => ({ product_id: b.product_id, variant_id: b.variant_id, quantity: b.quantity })),
  };
  delete p2.inventory;

  // prd_5T9W3N and prd_2C4R8J: from their similar-product records (ListSimilarProductsOk).
  const fromSimilar = (s: any, productSku: string, slug: string, leaf: string, seller: boolean): ProductRecord => {
    const categoryIds = [...s.category_ids, leaf];
    const optionKey = Object.keys(s.associated_options)[0];
    const option = s.associated_options[optionKey];
    const variantOptions = [{ name: option.name, key: optionKey, type: option.type, value: [typeof option.value === 'string' ? option.value : option.value.name] }];
    const product = { name: s.product_name, category_ids: categoryIds, tags: s.tags, variant_options: variantOptions, attributes: [] as Attribute[], short_description: s.short_description };
    const variant: VariantRecord = {
      ...extras(
        {
          id: s.variant_id,
          product_id: s.product_id,
          sku: s.sku,
          slug: s.slug,
          name: s.variant_name,
          product_name: s.product_name,
          short_description: s.short_description,
          product_type: s.product_type,
          active: s.active,
          stock_available: s.stock_available,
          on_promotion: s.on_promotion,
          on_subscription: s.on_subscription,
          is_default: true,
          backorder: s.backorder,
          associated_options: s.associated_options,
          images: s.images,
          pricing: s.pricing,
          subscription: s.subscription,
          promotion: s.promotion,
          inventory: lots(rng, s.sku, seller ? 'Nayantara Cosmetics Pvt Ltd, Daman' : 'Kesari Naturals Pvt Ltd, Baddi', false),
        },
        product,
        [s.reviews_rating_sum, s.reviews_count],
        [],
      ),
      shipping: s.shipping,
      seller_id: s.seller_id,
      seller_detail: s.seller_detail,
    };
    return {
      id: s.product_id,
      sku: productSku,
      name: s.product_name,
      slug,
      short_description: s.short_description,
      product_type: s.product_type,
      active: true,
      stock_available: true,
      on_subscription: s.on_subscription,
      on_promotion: s.on_promotion,
      has_variant: true,
      backorder: false,
      tags: s.tags,
      category_ids: categoryIds,
      categories: [],
      reviews_rating_sum: s.reviews_rating_sum,
      reviews_count: s.reviews_count,
      attributes: [],
      pricing: s.pricing,
      variant_options: variantOptions,
      promotion: s.promotion,
      images: s.images,
      subscription: s.subscription,
      variants: [variant],
      bundle_items: [],
    };
  };
  const [oil, kajal] = t.similar;
  const p3 = fromSimilar(oil, 'KN-OIL-KUM', 'kumkumadi-face-oil', 'cat_serums', false);
  const p4 = fromSimilar(kajal, 'NY-KAJ', 'kajal-eyeliner', 'cat_eyes', true);
  return [p1, p2, p3, p4];
}

function seedProducts(rng: Random, assets: AssetUrls, categories: readonly Category[], size: number): ProductRecord[] {
  const ids = new IdSource(rng);
  const examples = exampleProducts(rng, assets);
  for (const p of examples) {
    ids.reserve(p.id);
    for (const v of p.variants) ids.reserve(v.id);
  }
  const ctx: BuildContext = { rng, ids, storeId: assets.storeId, assets, categories, built: [...examples], skus: new Set(examples.flatMap((p) => [p.sku, ...p.variants.map((v) => v.sku)])) };
  // Bundles go last so their items exist; the rest alternate brands so every category has both.
  const plain = BLUEPRINTS.filter((b) => b.kind !== 'bundle');
  const bundles = BLUEPRINTS.filter((b) => b.kind === 'bundle');
  const queue: Array<[Blueprint, (typeof BRANDS)[number]]> = [];
  for (const brand of BRANDS) for (const bp of plain) if (!(brand.code === 'NY' && bp.kind === 'empty')) queue.push([bp, brand]);
  const room = Math.max(0, size - examples.length - bundles.length);
  const chosen = queue.filter(([bp, brand]) => !EXAMPLE_NAMES.has(`${brand.code}:${bp.name}`)).slice(0, room);
  for (const [bp, brand] of chosen) ctx.built.push(buildProduct(ctx, bp, brand));
  for (const bp of bundles) if (!EXAMPLE_NAMES.has(`KN:${bp.name}`)) ctx.built.push(buildProduct(ctx, bp, BRANDS[0]));
  // The examples first (so the first page of the catalog starts as ListProductsOk does), then by category.
  const order = new Map(CATEGORIES.map((c, i) => [c.id, i]));
  const rest = ctx.built.slice(examples.length).sort((a, b) => (order.get(leaf(a)) ?? 99) - (order.get(leaf(b)) ?? 99));
  return [...examples, ...rest];
}

const leaf = (p: ProductRecord) => p.category_ids[p.category_ids.length - 1];

// ---- customer groups --------------------------------------------------------------------------------------

function groupPrice(product: ProductRecord, variant: VariantRecord | undefined, factor: number, extra: Partial<GroupPrice> = {}): GroupPrice {
  const own = variant ?? product;
  const excl = round2(own.pricing.selling_price_excluding_tax * factor);
  const selling = round2(excl * (1 + own.pricing.tax_rate / 100));
  return {
    product_id: product.id,
    variant_id: variant?.id ?? null,
    pricing: { ...own.pricing, selling_price: selling, selling_price_excluding_tax: excl },
    ...extra,
  };
}

function seedGroups(rng: Random, products: readonly ProductRecord[]): CustomerGroup[] {
  const groups: CustomerGroup[] = [
    { id: DEFAULT_GROUP, name: 'Default (retail)', is_default: true, prices: [] },
    { id: 'cgrp_wholesale', name: 'Wholesale', is_default: false, prices: [] },
    { id: 'cgrp_gold', name: 'Gold members', is_default: false, prices: [] },
    { id: 'cgrp_staff', name: 'Staff', is_default: false, prices: [] },
  ];
  const [retail, wholesale, gold, staff] = groups;
  for (const product of products) {
    const example = EXAMPLE_PRODUCT_IDS.includes(product.id);
    const targets = product.variants.length ? product.variants : [undefined];
    // The examples keep their shown price for shoppers without a group; wholesale gets the lipstick cheaper.
    const inRetail = !example && rng.chance(0.25);
    const inWholesale = product.id === 'prd_7Q2K9X' || (!example && rng.chance(0.45));
    const inGold = !example && rng.chance(0.3);
    const inStaff = !example && rng.chance(0.15);
    const goldPromo = rng.chance(0.35);
    for (const v of targets) {
      const own = v ?? product;
      if (inRetail) retail.prices.push(groupPrice(product, v, 0.95));
      if (inWholesale) {
        wholesale.prices.push(
          groupPrice(product, v, 0.85, {
            promotion: null,
            ...(own.subscription.length ? { subscription: own.subscription.map((s) => ({ ...s, id: `${s.id}_WS`, subscription_price: Math.floor(s.subscription_price * 0.85) })) } : {}),
          }),
        );
      }
      if (inGold) gold.prices.push(groupPrice(product, v, 0.9, goldPromo ? { promotion: GOLD_PROMOTION } : {}));
      if (inStaff) staff.prices.push(groupPrice(product, v, 0.7));
    }
  }
  return groups;
}

// ---- reference data --------------------------------------------------------------------------------------

function seedCountries(assets: AssetUrls): Country[] {
  return COUNTRIES.map(([iso2, name, dial, currency, symbol, currencyName, alias, continent]) => ({
    id: `cty_${iso2}`,
    country_name: name,
    country_code: dial,
    country_iso_code: iso2,
    currency_code: currency,
    currency_symbol: symbol,
    currency_name: currencyName,
    flag_icon_url: assets.flag(iso2),
    country_alias: alias,
    continent,
  }));
}

function seedLocations(): Location[] {
  return [
    { id: 'loc_BLR_IND', name: 'Kesari Naturals, Indiranagar', city: 'Bengaluru', pincode: '560038' },
    { id: 'loc_BLR_KOR', name: 'Kesari Naturals, Koramangala', city: 'Bengaluru', pincode: '560034' },
    { id: 'loc_MUM01', name: 'Kesari Naturals, Bandra West', city: 'Mumbai', pincode: '400050' },
    { id: 'loc_DEL_CP', name: 'Kesari Naturals, Connaught Place', city: 'New Delhi', pincode: '110001' },
    { id: 'loc_CHE_TNR', name: 'Kesari Naturals, T. Nagar', city: 'Chennai', pincode: '600017' },
  ];
}

function seedCoupons(categories: readonly Category[]): Coupon[] {
  const has = (id: string) => categories.some((c) => c.id === id);
  const coupon = (c: Partial<Coupon> & Pick<Coupon, 'id' | 'name' | 'coupon_code'>): Coupon => ({
    coupon_type: 'discount',
    discount_type: 'fixed',
    discount_percent: 0,
    discount_fixed_amount: 0,
    max_discount: null,
    min_cart_total: null,
    category_ids: [],
    expires_at: null,
    scope_label: null,
    ...c,
  });
  return [
    coupon({ id: 'cpn_LIPS20', name: '20% off lipsticks', coupon_code: ['LIPS20'], discount_type: 'percentage', discount_percent: 20, category_ids: has('cat_lips') ? ['cat_lips'] : [], scope_label: 'lipsticks' }),
    coupon({ id: 'cpn_WELCOME100', name: 'Welcome offer', coupon_code: ['WELCOME100', 'HELLO100'], discount_fixed_amount: 100 }),
    coupon({ id: 'cpn_BULK5000', name: '₹500 off on orders above ₹5,000', coupon_code: ['BULK500'], discount_fixed_amount: 500, min_cart_total: 5000 }),
    coupon({ id: 'cpn_SKIN15', name: '15% off skincare, up to ₹300', coupon_code: ['SKIN15'], discount_type: 'percentage', discount_percent: 15, max_discount: 300, category_ids: has('cat_skincare') ? ['cat_skincare'] : [], scope_label: 'skincare' }),
    coupon({ id: 'cpn_HAIR10', name: '10% off hair care', coupon_code: ['HAIR10'], discount_type: 'percentage', discount_percent: 10, category_ids: has('cat_haircare') ? ['cat_haircare'] : [], scope_label: 'hair care' }),
    coupon({ id: 'cpn_GIFT250', name: '₹250 off gift sets above ₹2,000', coupon_code: ['GIFT250'], discount_fixed_amount: 250, min_cart_total: 2000, category_ids: has('cat_gifts') ? ['cat_gifts'] : [], scope_label: 'gift sets' }),
    coupon({ id: 'cpn_FESTIVE2024', name: 'Festive 2024: ₹300 off', coupon_code: ['FESTIVE300'], discount_fixed_amount: 300, expires_at: '2024-12-31T23:59:59+05:30' }),
  ];
}

// ---- customers -------------------------------------------------------------------------------------------

function pan(rng: Random, lastName: string, kind: string): string {
  const letters = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
  const r = () => letters[rng.int(0, letters.length - 1)];
  return `${r()}${r()}${r()}${kind}${lastName[0].toUpperCase()}${rng.int(1000, 9999)}${r()}`;
}

function cards(rng: Random, customerId: string, storeId: string, holder: string, count: number): SavedCard[] {
  const [visa, master] = templates().cards;
  return Array.from({ length: count }, (_, i) => {
    const card = structuredClone(i % 2 === 0 ? visa : master);
    const ref = rng.id('', 6);
    const last4 = String(rng.int(1000, 9999));
    const month = String(rng.int(1, 12)).padStart(2, '0');
    const year = String(2026 + rng.int(0, 4));
    const swap = (s: string) => s.replace(/7YH2KD|3QW8NB/g, ref);
    Object.assign(card, {
      nickname: rng.chance(0.5) ? `${card.card_issuer} ${card.card_sub_type.charAt(0)}${card.card_sub_type.slice(1).toLowerCase()}` : null,
      card_reference: swap(card.card_reference),
      card_token: swap(card.card_token),
      card_exp_month: month,
      card_exp_year: year,
      card_fingerprint: `fp_${rng.id('', 10).toLowerCase()}`,
      name_on_card: holder.toUpperCase(),
      card_number: `XXXX-XXXX-XXXX-${last4}`,
      expired: false,
      metadata: { origin_customer_id: customerId, origin_merchant_id: storeId },
    });
    card.token = { ...card.token, last_four_digits: last4, par: swap(card.token.par), card_reference: card.card_reference, expiry_month: month, expiry_year: year, card_fingerprint: card.card_fingerprint, provision_token_id: swap(card.token.provision_token_id), cvv_less_details: card.token.cvv_less_details.map((d) => ({ ...d, gateway_reference_ids: d.gateway_reference_ids.map(swap) })) };
    card.tokens = card.tokens.map((tk) => ({ ...tk, last_four_digits: last4, par: card.token.par, card_reference: card.card_reference, card_token: card.card_token, expiry_month: month, expiry_year: year, card_fingerprint: card.card_fingerprint, provision_token_id: card.token.provision_token_id }));
    return card;
  });
}

function seedCustomers(rng: Random, storeId: string): CustomerRecord[] {
  const t = structuredClone(templates());
  const ids = new IdSource(rng);
  ids.reserve('cst_9XK2PL');
  const priyaAddress: Address = (({ is_phone_verified, is_email_verified, ...a }) => a)(t.cart.billing_address as CartAddress);
  const priya: CustomerRecord = { ...t.customer, address: priyaAddress, cards: t.cards, created_at: '2025-03-14T05:00:04Z' };
  const customers: CustomerRecord[] = [priya];
  const people = rng.sample(
    FIRST_NAMES.flatMap((f) => LAST_NAMES.map((l) => [f, l] as const)),
    11,
  );
  people.forEach(([first, last], i) => {
    const id = ids.next('cst_');
    const city = rng.pick(CITIES);
    const business = rng.pick(BUSINESSES);
    const panNumber = pan(rng, last, business.type === 'partnership' ? 'F' : business.type === 'proprietorship' ? 'P' : 'C');
    const phone = `${rng.pick(['9', '8', '7'])}${String(rng.int(100000000, 999999999))}`;
    const email = `${first}.${last}${i}@example.in`.toLowerCase();
    const address: Address = {
      id: ids.next('adr_'),
      first_name: first,
      last_name: last,
      country_code: '+91',
      phone,
      email,
      address_line1: `${rng.int(1, 220)}, ${city.street}`,
      address_line2: rng.chance(0.5) ? `Floor ${rng.int(1, 4)}` : null,
      landmark: rng.chance(0.4) ? 'Near the metro station' : null,
      pincode: `${city.pin}${String(rng.int(1, 99)).padStart(2, '0')}`,
      city: city.city,
      state: city.state,
      country: 'India',
      tax_identification_number: `${city.gst}${panNumber}1Z${rng.int(1, 9)}`,
      business_name: `${last} ${business.suffix}`,
    };
    customers.push({
      id,
      first_name: first,
      last_name: last,
      country_code: '+91',
      phone,
      email,
      is_phone_verified: rng.chance(0.7),
      is_email_verified: rng.chance(0.5),
      business: { business_type: business.type, name: `${last} ${business.suffix}`, pan_number: panNumber, gstin: address.tax_identification_number! },
      address,
      cards: cards(rng, id, storeId, `${first} ${last}`, i % 4 === 3 ? 0 : rng.int(1, 2)),
      created_at: iso(SEED_EPOCH - rng.int(30, 400) * DAY),
    });
  });
  return customers;
}

// ---- carts -----------------------------------------------------------------------------------------------

/** A customer's saved address as a cart address (null when the customer has none). */
export function cartAddress(c: CustomerRecord | undefined, verified: boolean): CartAddress | null {
  if (!c?.address) return null;
  const a = c.address;
  return {
    id: a.id ?? `adr_${c.id.slice(4)}`,
    first_name: a.first_name ?? c.first_name,
    last_name: a.last_name ?? c.last_name,
    country_code: a.country_code ?? c.country_code,
    phone: a.phone ?? c.phone,
    email: a.email ?? c.email,
    address_line1: a.address_line1 ?? '',
    address_line2: a.address_line2 ?? null,
    landmark: a.landmark ?? null,
    pincode: a.pincode ?? '',
    city: a.city ?? '',
    state: a.state ?? '',
    country: a.country ?? 'India',
    tax_identification_number: a.tax_identification_number ?? null,
    business_name: a.business_name ?? null,
    is_phone_verified: verified,
    is_email_verified: verified && c.is_email_verified,
  };
}

function line(productId: string, variantId: string, quantity: number, onSubscription = false): CartRecord['cart_items'][number] {
  // Only what a cart decides is meaningful here; the calculator derives the rest from the catalog.
  return { product_id: productId, variant_id: variantId, quantity, free_quantity: 0, is_free_item: false, on_subscription: onSubscription } as CartRecord['cart_items'][number];
}

/** What the calculator derives; a stored cart carries these only so that it is a whole `Cart`. */
export const UNPRICED = {
  is_promotion_applied: false,
  is_coupon_applied: false,
  coupon_discount_amount: 0,
  coupon_discount_percent: 0,
  promotion_discount_amount: 0,
  promotion_discount_percent: 0,
  subtotal: 0,
  items_tax_amount: 0,
  subtotal_including_tax: 0,
  total_tax: 0,
  grand_total: 0,
  to_be_paid: 0,
  shipping_estimated_cost: 0,
  shipping_discount_amount: 0,
  shipping_amount: 0,
  shipping_tax_rate: 0,
  shipping_tax_amount: 0,
  shipping_amount_including_tax: 0,
  estimated_delivery_days: 0,
  handling_charge_excluding_tax: 0,
  handling_charge_tax_amount: 0,
  handling_charge_including_tax: 0,
  loyalty_points_earned: 0,
  promotion_savings: 0,
  coupon_savings: 0,
  other_savings: 0,
  total_savings: 0,
  cart_items_count: 0,
};

function emptyCart(id: string, customer: CustomerRecord | undefined, note: string | null, at: number): CartRecord {
  return {
    ...UNPRICED,
    id,
    currency: { ...templates().cart.currency },
    active: true,
    customer_note: note,
    status: 'not-ready-for-payment',
    status_error_message: 'Select a payment method to continue.',
    expires_at: iso(at + 7 * DAY),
    metadata: customer ? { channel: 'pos', pos_location_id: 'loc_BLR_IND' } : { channel: 'web' },
    customer_id: customer?.id ?? null,
    coupon_code: null,
    credit_balance_used: 0,
    loyalty_points_redeemed: 0,
    cart_items: [],
    billing_address: cartAddress(customer, true),
    shipping_address: cartAddress(customer, true),
    applied_promotions: [],
    applied_coupons: [],
    shipments: [],
    fulfillment_preference: { fulfillment_type: 'delivery', pickup_location_id: null, preference_type: 'user', pickup_location_name: null },
  };
}

function sellable(world: World, filter: (p: ProductRecord) => boolean = () => true): Array<{ product: ProductRecord; variant: VariantRecord }> {
  return [...world.products.values()]
    .filter((p) => p.active && p.variants.length > 0 && filter(p))
    .flatMap((p) => p.variants.filter((v) => world.stock(v) > 5).map((variant) => ({ product: p, variant })));
}

function seedCarts(rng: Random, world: World, customers: readonly CustomerRecord[]): CartRecord[] {
  const ids = new IdSource(rng);
  ids.reserve('crt_8N2F6Q');
  const t = structuredClone(templates().cart);
  const priya = customers.find((c) => c.id === 'cst_9XK2PL') ?? customers[0];
  const carts: CartRecord[] = [];
  // crt_8N2F6Q: GetPosCartOk, owned by cst_9XK2PL.
  if (world.variantOf('prd_7Q2K9X', 'var_4M8T2C') && world.variantOf('prd_3H6V1B', 'var_3H6V1C')) {
    carts.push({ ...t, customer_id: priya?.id ?? null, cart_items: [line('prd_7Q2K9X', 'var_4M8T2C', 2), line('prd_3H6V1B', 'var_3H6V1C', 1)] });
  }
  const pool = sellable(world);
  if (pool.length === 0) return carts;
  const people = customers.filter((c) => c.id !== priya?.id);
  const at = (n: number) => SEED_EPOCH - n * 3600 * 1000;
  const pickLines = (n: number, from = pool) => rng.sample(from, Math.min(n, from.length)).map((x) => line(x.product.id, x.variant.id, rng.int(1, 3)));
  const customerAt = (i: number) => people[i % Math.max(1, people.length)];

  // A small web cart of an anonymous shopper.
  const web = emptyCart(ids.next('crt_'), undefined, null, at(2));
  web.cart_items = pickLines(1);
  web.status_error_message = 'Add a delivery address to continue.';
  carts.push(web);

  // A cart with the cart-wide welcome coupon applied and store credit used.
  const welcome = emptyCart(ids.next('crt_'), customerAt(0), null, at(5));
  welcome.cart_items = pickLines(2);
  welcome.coupon_code = 'WELCOME100';
  welcome.credit_balance_used = 50;
  carts.push(welcome);

  // Lipsticks with LIPS20 spread over the lip lines.
  const lips = sellable(world, (p) => p.category_ids.includes('cat_lips'));
  const lipCart = emptyCart(ids.next('crt_'), customerAt(1), 'Gift for my sister.', at(8));
  lipCart.cart_items = pickLines(2, lips.length ? lips : pool);
  lipCart.coupon_code = 'LIPS20';
  carts.push(lipCart);

  // Collected at the Indiranagar store: no shipping, no shipment.
  const collect = emptyCart(ids.next('crt_'), customerAt(2), null, at(11));
  collect.cart_items = pickLines(3);
  collect.fulfillment_preference = { fulfillment_type: 'collect-in-store', pickup_location_id: 'loc_BLR_IND', preference_type: 'user', pickup_location_name: 'Kesari Naturals, Indiranagar' };
  collect.status = 'ready-for-payment';
  collect.status_error_message = null;
  carts.push(collect);

  // A salon's bulk cart above ₹5,000 (BULK500 applies), priced for the wholesale group.
  const bulk = emptyCart(ids.next('crt_'), customerAt(3), 'Monthly salon stock.', at(20));
  bulk.cart_items = rng.sample(pool, Math.min(6, pool.length)).map((x) => line(x.product.id, x.variant.id, rng.int(3, 6)));
  bulk.customer_group_id = 'cgrp_wholesale';
  carts.push(bulk);

  // A refill on subscription.
  const refills = pool.filter((x) => x.variant.subscription.length > 0);
  if (refills.length) {
    const sub = emptyCart(ids.next('crt_'), customerAt(4), null, at(30));
    const pick = rng.pick(refills);
    sub.cart_items = [line(pick.product.id, pick.variant.id, 1, true), ...pickLines(1)];
    carts.push(sub);
  }

  // An empty cart: a front end must render this too.
  carts.push(emptyCart(ids.next('crt_'), customerAt(5), null, at(1)));

  // A cart holding an item that is out of stock and on backorder.
  const backorder = [...world.products.values()].flatMap((p) => p.variants.filter((v) => world.stock(v) === 0 && v.backorder).map((v) => ({ product: p, variant: v })));
  if (backorder.length) {
    const late = emptyCart(ids.next('crt_'), customerAt(6), null, at(40));
    const pick = backorder[0];
    late.cart_items = [line(pick.product.id, pick.variant.id, 1), ...pickLines(1)];
    late.status_error_message = `${pick.product.name} ${pick.variant.name} is on backorder and ships later.`;
    carts.push(late);
  }
  return carts;
}

// ---- orders ----------------------------------------------------------------------------------------------

const STATUS_MIX = ['delivered', 'delivered', 'shipped', 'processing', 'confirmed', 'draft', 'cancelled', 'returned'];

function seedOrders(rng: Random, world: World, customers: readonly CustomerRecord[], assets: AssetUrls): OrderRecord[] {
  const orders: OrderRecord[] = [];
  const t = assets.fromExamples(structuredClone(templates()));
  // The two orders of ListOrdersOk, for cst_9XK2PL, when the catalog in use still has their products.
  if (customers.some((c) => c.id === 'cst_9XK2PL')) {
    for (const o of t.orders) {
      if (o.order_items.every((i) => world.products.has(i.product_id))) orders.push({ ...o, user_id: 'cst_9XK2PL', cart_id: o.order_number === 'SO-2025-001842' ? 'crt_8N2F6Q' : null });
    }
  }
  const pool = sellable(world);
  if (pool.length === 0) return orders;
  let number = 1100;
  for (const customer of customers) {
    const count = customer.id === 'cst_9XK2PL' ? 2 : rng.int(0, 5);
    for (let i = 0; i < count; i++) {
      const placed = SEED_EPOCH - rng.int(1, 180) * DAY - rng.int(0, 86_000) * 1000;
      const cart = emptyCart(`crt_order_${number}`, customer, rng.chance(0.2) ? 'Please call before delivery.' : null, placed);
      cart.cart_items = rng.sample(pool, rng.int(1, 4)).map((x) => line(x.product.id, x.variant.id, rng.int(1, 3), x.variant.subscription.length > 0 && rng.chance(0.3)));
      cart.credit_balance_used = rng.chance(0.2) ? 100 : 0;
      const priced = priceCart(world, cart, placed);
      let order = orderFromCart(priced, { orderNumber: `SO-2025-00${number++}`, userId: customer.id, cartId: null, at: iso(placed) });
      const status = STATUS_MIX[(i + rng.int(0, STATUS_MIX.length - 1)) % STATUS_MIX.length];
      // Walk the flow so payment fields follow the same rules as a live status change.
      const path = status === 'cancelled' ? (rng.chance(0.5) ? ['cancelled'] : ['confirmed', 'cancelled']) : status === 'returned' ? ['confirmed', 'processing', 'shipped', 'delivered', 'returned'] : ['confirmed', 'processing', 'shipped', 'delivered'].slice(0, ['draft', 'confirmed', 'processing', 'shipped', 'delivered'].indexOf(status));
      let at = placed;
      for (const step of path) {
        at += rng.int(1, 48) * 3600 * 1000;
        order = withStatus(order, step, iso(at));
      }
      orders.push(order);
    }
  }
  return orders;
}

// ---- dates ----------------------------------------------------------------------------------------------

const dayStart = (ms: number) => ms - (((ms % DAY) + DAY) % DAY);
const DATED_KEY = /_(at|date)$/;
const DATED_VALUE = /^(\d{4})-(\d{2})-(\d{2})(?=$|T)/;

/**
 * A copy of the records with every date (fields named `*_at` / `*_date`) moved by `days`, time and offset
 * kept. A copy, never in place: seeded records share objects with this module's constants.
 */
export function shiftDates<T>(value: T, days: number): T {
  if (Array.isArray(value)) return value.map((item) => shiftDates(item, days)) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    const m = typeof field === 'string' && DATED_KEY.test(key) ? DATED_VALUE.exec(field) : null;
    out[key] = m ? new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]) + days * DAY).toISOString().slice(0, 10) + (field as string).slice(10) : shiftDates(field, days);
  }
  return out as T;
}
