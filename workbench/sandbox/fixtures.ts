// Fixture files (`--data <dir>`): one JSON array per resource (products.json, categories.json,
// customers.json, carts.json, orders.json, countries.json, customer-groups.json, coupons.json,
// locations.json) replacing the seeded resource of that name. Each record is validated at load against
// the spec's schema of its resource (Product, Variant, Category, CustomerDetail, SavedCard, Cart, Order,
// Country, Pricing, ...; compiled with the workbench's Ajv from the storefront document's one read) plus the few
// fields the sandbox keeps beside the contract, and the references between records are checked. An error
// names the file, the record (index and id) and the field.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { contractModel } from '../contract/model.js';
import { getAjv } from '../mock/ajv.js';
import { MAX_JSON_DEPTH, inspectUserJson } from '../http/object-paths.js';
import { RESOURCES, dataKey, type ResourceName, type WorldData } from './types.js';
import { describeError } from 'storefront-contract/validators';

export class FixtureError extends Error {
  readonly name = 'FixtureError';
}

/** A component schema by name (`Product`), dereferenced: set by compileValidators from the storefront document's one read. */
let ref: (name: string) => object = () => {
  throw new Error('sandbox: fixture schemas are read by compileValidators()');
};
const nullable = (schema: object) => ({ anyOf: [schema, { type: 'null' }] });

/** A cart item as journaled: which variant, how many, on subscription or not; its details are the catalog's. */
const STORED_CART_ITEM = {
  type: 'object',
  required: ['product_id', 'variant_id', 'quantity'],
  properties: { product_id: { type: 'string' }, variant_id: { type: 'string' }, quantity: { type: 'number', minimum: 0 }, free_quantity: { type: 'number', minimum: 0 }, is_free_item: { type: 'boolean' }, on_subscription: { type: 'boolean' } },
};

const BUNDLE_REF = { type: 'object', required: ['product_id', 'variant_id', 'quantity'], properties: { product_id: { type: 'string' }, variant_id: { type: 'string' }, quantity: { type: 'number', minimum: 1 } } };

/** What each file's records must be: the spec's schema, and the sandbox's own fields beside it. */
const recordSchemas = (): Record<ResourceName, object> => ({
  categories: ref('Category'),
  // Variants and bundle items are checked on their own (Variant, BundleRef) so the error names them.
  products: ref('Product'),
  'customer-groups': {
    type: 'object',
    required: ['id', 'name', 'is_default', 'prices'],
    properties: {
      id: { type: 'string', minLength: 1 },
      name: { type: 'string' },
      is_default: { type: 'boolean' },
      prices: {
        type: 'array',
        items: {
          type: 'object',
          required: ['product_id', 'variant_id', 'pricing'],
          properties: { product_id: { type: 'string' }, variant_id: { type: ['string', 'null'] }, pricing: ref('Pricing'), promotion: nullable(ref('Promotion')), subscription: { type: 'array', items: ref('Subscription') } },
        },
      },
    },
  },
  countries: ref('Country'),
  customers: {
    allOf: [ref('CustomerDetail'), { type: 'object', required: ['cards'], properties: { address: nullable(ref('Address')), cards: { type: 'array', items: ref('SavedCard') }, created_at: { type: 'string', format: 'date-time' } } }],
  },
  carts: { allOf: [ref('Cart'), { type: 'object', properties: { customer_id: { type: ['string', 'null'] }, customer_group_id: { type: ['string', 'null'] }, user_id: { type: ['string', 'null'] } } }] },
  orders: { allOf: [ref('Order'), { type: 'object', required: ['user_id'], properties: { user_id: { type: 'string', minLength: 1 }, cart_id: { type: ['string', 'null'] } } }] },
  coupons: {
    type: 'object',
    required: ['id', 'name', 'coupon_type', 'coupon_code', 'discount_type'],
    properties: {
      id: { type: 'string', minLength: 1 },
      name: { type: 'string' },
      coupon_type: { type: 'string' },
      coupon_code: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
      discount_type: { enum: ['percentage', 'fixed'] },
      discount_percent: { type: 'number', minimum: 0, maximum: 100 },
      discount_fixed_amount: { type: 'number', minimum: 0 },
      max_discount: { type: ['number', 'null'], minimum: 0 },
      min_cart_total: { type: ['number', 'null'], minimum: 0 },
      category_ids: { type: 'array', items: { type: 'string' } },
      expires_at: { type: ['string', 'null'], format: 'date-time' },
      scope_label: { type: ['string', 'null'] },
    },
  },
  locations: {
    type: 'object',
    required: ['id', 'name', 'city', 'pincode'],
    properties: { id: { type: 'string', minLength: 1 }, name: { type: 'string' }, city: { type: 'string' }, pincode: { type: 'string', pattern: '^[0-9]{6}$' } },
  },
});

let validators: Promise<{ record: Map<ResourceName, ValidateFunction>; variant: ValidateFunction; bundle: ValidateFunction; cartItem: ValidateFunction }> | undefined;

/** Compiles once, from the component schemas of the storefront document's one read (already dereferenced). */
function compileValidators() {
  validators ??= (async () => {
    const ajv = getAjv();
    const doc = await contractModel('storefront');
    ref = (name) => {
      const schema = doc.part(`components/schemas/${name}.yaml`);
      if (!schema || typeof schema !== 'object') throw new Error(`sandbox: the storefront document references no schema ${name}`);
      return schema;
    };
    const schemas = recordSchemas();
    const record = new Map<ResourceName, ValidateFunction>();
    for (const name of RESOURCES) record.set(name, ajv.compile(schemas[name]));
    return { record, variant: ajv.compile(ref('Variant')), bundle: ajv.compile(BUNDLE_REF), cartItem: ajv.compile(STORED_CART_ITEM) };
  })();
  return validators;
}

/** `/variants/0/pricing` + `selling_price` -> `variants[0].pricing.selling_price`. */
/** `variants[0].pricing.selling_price`: the error's place (the library's describeError) as a field name. */
function fieldOf(e: ErrorObject, prefix = ''): string {
  const joined = describeError(e).segments.reduce((s, p) => (/^\d+$/.test(p) ? `${s}[${p}]` : s ? `${s}.${p}` : p), '');
  return [prefix, joined].filter(Boolean).join(joined.startsWith('[') ? '' : '.') || '(record)';
}

function describe(e: ErrorObject): string {
  return describeError(e).message;
}

/** The most specific error: Ajv lists an anyOf's failures before the anyOf itself. */
function firstError(errors: ErrorObject[] | null | undefined): ErrorObject | undefined {
  return (errors ?? []).find((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf' && e.keyword !== 'allOf') ?? errors?.[0];
}

function recordLabel(file: string, index: number, record: unknown): string {
  const id = record && typeof record === 'object' ? ((record as Record<string, unknown>).id ?? (record as Record<string, unknown>).order_number) : undefined;
  return `${file}: record ${index}${typeof id === 'string' ? ` (id "${id}")` : ''}`;
}

export type Sources = Partial<Record<keyof WorldData, string>>;

/** Reads and validates every fixture file of `dir`; resources without a file are absent from the result. */
export async function loadFixtures(dir: string): Promise<{ data: Partial<WorldData>; sources: Sources }> {
  if (!existsSync(dir)) throw new FixtureError(`--data ${dir}: no such directory; give the folder of your fixture files (${RESOURCES.map((r) => `${r}.json`).join(', ')}, any of them)`);
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  const known = new Set(RESOURCES.map((r) => `${r}.json`));
  const unknown = files.filter((f) => !known.has(f));
  if (unknown.length) throw new FixtureError(`--data ${dir}: unknown fixture file ${unknown.join(', ')}; the files are ${[...known].join(', ')}`);
  const { record: schemas, variant, bundle } = await compileValidators();
  const data: Partial<WorldData> = {};
  const sources: Sources = {};
  for (const resource of RESOURCES) {
    const file = `${resource}.json`;
    const full = path.join(dir, file);
    if (!existsSync(full)) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(full, 'utf8'));
    } catch (e) {
      throw new FixtureError(`${file}: not valid JSON: ${(e as Error).message}`);
    }
    if (!Array.isArray(parsed)) throw new FixtureError(`${file}: must be a JSON array of records (got ${parsed === null ? 'null' : typeof parsed})`);
    const seen = new Set<string>();
    parsed.forEach((record, i) => {
      const label = recordLabel(file, i, record);
      const problem = inspectUserJson(record);
      if (problem?.kind === 'too-deep') throw new FixtureError(`${label}: field ${problem.path}: nested more than ${MAX_JSON_DEPTH} levels deep (the limit is ${MAX_JSON_DEPTH})`);
      const unsafe = problem?.path;
      if (unsafe !== undefined) throw new FixtureError(`${label}: field ${unsafe}: "${unsafe.split(/[.[]/).pop()}" is not an allowed property name`);
      const candidate = resource === 'products' && record && typeof record === 'object' ? { categories: [], ...(record as object), bundle_items: [] } : record;
      const check = schemas.get(resource)!;
      if (!check(candidate)) {
        const e = firstError(check.errors)!;
        throw new FixtureError(`${label}: field ${fieldOf(e)} ${describe(e)}`);
      }
      if (resource === 'products') {
        const p = record as { variants: unknown[]; bundle_items?: unknown[] };
        p.variants.forEach((v, j) => {
          if (!variant(v)) {
            const e = firstError(variant.errors)!;
            throw new FixtureError(`${label}: field ${fieldOf(e, `variants[${j}]`)} ${describe(e)}`);
          }
        });
        (p.bundle_items ?? []).forEach((b, j) => {
          if (!bundle(b)) {
            const e = firstError(bundle.errors)!;
            throw new FixtureError(`${label}: field ${fieldOf(e, `bundle_items[${j}]`)} ${describe(e)}`);
          }
        });
      }
      const id = (record as { id?: string; order_number?: string }).id ?? (record as { order_number?: string }).order_number!;
      if (seen.has(id)) throw new FixtureError(`${label}: field ${resource === 'orders' ? 'order_number' : 'id'} repeats an earlier record's`);
      seen.add(id);
    });
    const key = dataKey(resource);
    (data as Record<string, unknown>)[key] = normalize(resource, parsed);
    sources[key] = file;
  }
  return { data, sources };
}

/** The stored form of a journaled record (sandbox.jsonl's `puts`). */
export type JournalRecordKind = 'product' | 'customer' | 'cart' | 'order';
const KIND_RESOURCE: Record<JournalRecordKind, ResourceName> = { product: 'products', customer: 'customers', cart: 'carts', order: 'orders' };

/**
 * A check of journaled records against the same schemas as the fixture files (in their stored form:
 * bundle items as references), for the journal's start-up read: the field at fault and why, or undefined.
 */
export async function journalRecordCheck(): Promise<(kind: JournalRecordKind, record: unknown) => string | undefined> {
  const { record: schemas, variant, bundle, cartItem } = await compileValidators();
  const each = (list: unknown, name: string, check: ValidateFunction): string | undefined => {
    if (!Array.isArray(list)) return `field ${name} must be array`;
    for (const [j, item] of list.entries()) {
      if (!check(item)) return `field ${fieldOf(firstError(check.errors)!, `${name}[${j}]`)} ${describe(firstError(check.errors)!)}`;
    }
    return undefined;
  };
  return (kind, record) => {
    const resource = KIND_RESOURCE[kind];
    const check = schemas.get(resource)!;
    // Stored forms: a product's bundle items and a cart's items are references, checked on their own below.
    const object = record !== null && typeof record === 'object' && !Array.isArray(record);
    const candidate = object && kind === 'product' ? { ...(record as object), bundle_items: [] } : object && kind === 'cart' ? { ...(record as object), cart_items: [] } : record;
    if (!check(candidate)) {
      const e = firstError(check.errors)!;
      return `field ${fieldOf(e)} ${describe(e)}`;
    }
    if (kind === 'cart') return each((record as { cart_items?: unknown }).cart_items, 'cart_items', cartItem);
    if (kind === 'product') {
      const p = record as { variants: unknown; bundle_items?: unknown };
      return each(p.variants, 'variants', variant) ?? each(p.bundle_items, 'bundle_items', bundle);
    }
    return undefined;
  };
}

const components = new Map<string, ValidateFunction>();

/**
 * A check of a value against one component schema of the storefront document (`CartAddress`), for the
 * back office's bodies: the first problem as the body field at fault (`billing_address.pincode`) and why,
 * or undefined. Compiled once per schema.
 */
export async function componentCheck(name: string): Promise<(value: unknown, field: string) => { name: string; message: string } | undefined> {
  await compileValidators();
  let check = components.get(name);
  if (!check) {
    check = getAjv().compile(ref(name));
    components.set(name, check);
  }
  const validate = check;
  return (value, field) => {
    if (validate(value)) return undefined;
    const e = firstError(validate.errors)!;
    return { name: fieldOf(e, field), message: describe(e) };
  };
}

/** Fixture form -> stored form: bundle items become references; optional sandbox fields get defaults. */
function normalize(resource: ResourceName, records: any[]): unknown[] {
  if (resource === 'products') {
    return records.map((p) => ({ ...p, categories: [], bundle_items: (p.bundle_items ?? []).map((b: any) => ({ product_id: b.product_id, variant_id: b.variant_id, quantity: b.quantity })) }));
  }
  if (resource === 'customers') return records.map((c) => ({ address: null, created_at: '2025-01-01T00:00:00Z', ...c }));
  if (resource === 'orders') return records.map((o) => ({ cart_id: null, ...o }));
  if (resource === 'coupons') {
    return records.map((c) => ({ discount_percent: 0, discount_fixed_amount: 0, max_discount: null, min_cart_total: null, category_ids: [], expires_at: null, scope_label: null, ...c }));
  }
  return records;
}

/** References between records, checked once the world is assembled; the error names the file that holds the record. */
export function checkReferences(data: WorldData, sources: Sources): void {
  const fileOf = (key: keyof WorldData) => sources[key] ?? `(seeded ${key.replace('_', '-')})`;
  const categories = new Set(data.categories.map((c) => c.id));
  const variants = new Map<string, string>();
  const products = new Set<string>();
  for (const p of data.products) {
    products.add(p.id);
    for (const v of p.variants) variants.set(v.id, p.id);
  }
  const fail = (key: keyof WorldData, i: number, record: unknown, field: string, message: string): never => {
    throw new FixtureError(`${recordLabel(fileOf(key), i, record)}: field ${field} ${message}`);
  };
  data.categories.forEach((c, i) => {
    if (c.parent_category_id !== null && !categories.has(c.parent_category_id)) fail('categories', i, c, 'parent_category_id', `names no category ("${c.parent_category_id}")`);
  });
  data.products.forEach((p, i) => {
    p.category_ids.forEach((id, j) => categories.has(id) || fail('products', i, p, `category_ids[${j}]`, `names no category ("${id}")`));
    p.variants.forEach((v, j) => v.product_id === p.id || fail('products', i, p, `variants[${j}].product_id`, `must be the product's id "${p.id}"`));
    p.bundle_items.forEach((b, j) => variants.get(b.variant_id) === b.product_id || fail('products', i, p, `bundle_items[${j}].variant_id`, `names no variant "${b.variant_id}" of product "${b.product_id}"`));
  });
  const defaults = data.customer_groups.filter((g) => g.is_default).length;
  if (data.customer_groups.length && defaults !== 1) {
    throw new FixtureError(`${fileOf('customer_groups')}: exactly one group must have is_default true (found ${defaults})`);
  }
  data.customer_groups.forEach((g, i) =>
    g.prices.forEach((price, j) => {
      if (price.variant_id === null ? !products.has(price.product_id) : variants.get(price.variant_id) !== price.product_id) {
        fail('customer_groups', i, g, `prices[${j}]`, `names no ${price.variant_id === null ? `product "${price.product_id}"` : `variant "${price.variant_id}" of product "${price.product_id}"`}`);
      }
    }),
  );
  data.carts.forEach((c, i) =>
    c.cart_items.forEach((item, j) => variants.get(item.variant_id) === item.product_id || fail('carts', i, c, `cart_items[${j}].variant_id`, `names no variant "${item.variant_id}" of product "${item.product_id}"`)),
  );
  data.orders.forEach((o, i) =>
    o.order_items.forEach((item, j) => products.has(item.product_id) || fail('orders', i, o, `order_items[${j}].product_id`, `names no product ("${item.product_id}")`)),
  );
  data.coupons.forEach((c, i) => c.category_ids.forEach((id, j) => categories.has(id) || fail('coupons', i, c, `category_ids[${j}]`, `names no category ("${id}")`)));
}
