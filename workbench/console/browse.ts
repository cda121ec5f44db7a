// The console's view of a store's world: products (variants, each customer group's price, stock), carts
// (lines, totals, coupon), orders, customers, searched by text and paged, each record with the storefront
// calls that return it (the page shows them as curl and as a typed-client line, and can run them). Read from
// the sandbox's records through exportResource, the back office's own fixture form, so what the console
// shows is what GET /__simulator/stores/{store_id}/world/{resource} gives.
import { fail, type ErrorReply } from '../http/errors.js';
import type { BodyReply } from '../http/extension.js';
import { exportResource } from '../sandbox/back-office.js';
import type { Sandbox } from '../sandbox/sandbox.js';

export const BROWSABLE = ['products', 'carts', 'orders', 'customers'] as const;
export type Browsable = (typeof BROWSABLE)[number];
const MAX_LIMIT = 50;

/** A storefront operation that returns (part of) a record, as the page prints and runs it. */
export interface StorefrontCall {
  operationId: string;
  method: 'GET';
  /** The template inside the storefront's base path, as the typed client names it. */
  path: string;
  params: { path?: Record<string, string>; query?: Record<string, string> };
}

export interface BrowseRow {
  id: string;
  title: string;
  subtitle: string;
  /** Small facts the list shows (status, totals, counts). */
  facts: Record<string, string | number | boolean | null>;
  /** Product rows: one line per variant, with stock and each customer group's selling price. */
  variants?: Array<{ id: string; name: string; sku: string; stock: number; prices: Record<string, number | null> }>;
  /** Cart rows: their lines. */
  lines?: Array<{ product_id: string; variant_id: string; name: string; quantity: number; total: number | null }>;
  calls: StorefrontCall[];
  record: unknown;
}

export interface BrowsePage {
  resource: Browsable;
  total: number;
  offset: number;
  limit: number;
  rows: BrowseRow[];
}

type Json = Record<string, any>;

export function browse(sandbox: Sandbox, storeId: string, resource: string, query: URLSearchParams): BodyReply<BrowsePage> | ErrorReply {
  const kind = BROWSABLE.find((r) => r === resource);
  if (!kind) return fail(404, 'not_found', `No browsable resource ${resource.slice(0, 50)}; browse ${BROWSABLE.join(', ')}.`, [{ location: 'path', name: 'resource', message: `must be one of ${BROWSABLE.join(', ')}` }]);
  const offset = integer(query.get('offset'), 0);
  const limit = integer(query.get('limit'), 20);
  if (offset === undefined || offset < 0) return fail(400, 'invalid_parameter', "Query parameter 'offset' must be a whole number >= 0.", [{ location: 'query', name: 'offset', message: 'must be a whole number >= 0' }]);
  if (limit === undefined || limit < 1 || limit > MAX_LIMIT) return fail(400, 'invalid_parameter', `Query parameter 'limit' must be a whole number from 1 to ${MAX_LIMIT}.`, [{ location: 'query', name: 'limit', message: `must be from 1 to ${MAX_LIMIT}` }]);
  const text = (query.get('q') ?? '').trim().toLowerCase().slice(0, 200);
  const world = sandbox.world(storeId);
  const records = exportResource(sandbox, world, kind) as Json[];
  // A record matches when any of its values (ids, names, SKUs, statuses, e-mails...) contains the text.
  const matching = text ? records.filter((r) => JSON.stringify(r).toLowerCase().includes(text)) : records;
  const rows = matching.slice(offset, offset + limit).map((record) => {
    switch (kind) {
      case 'products':
        return productRow(record, world);
      case 'carts':
        return cartRow(record);
      case 'orders':
        return orderRow(record);
      case 'customers':
        return customerRow(record);
    }
  });
  return { status: 200, body: { resource: kind, total: matching.length, offset, limit, rows } };
}

function integer(raw: string | null, fallback: number): number | undefined {
  if (raw === null || raw === '') return fallback;
  return /^\d{1,6}$/.test(raw) ? Number(raw) : undefined;
}

function productRow(p: Json, world: ReturnType<Sandbox['world']>): BrowseRow {
  const prices = new Map<string, Map<string, number>>();
  for (const group of world.groups as Json[]) {
    const byVariant = new Map<string, number>();
    for (const price of (group.prices ?? []) as Json[]) if (price.product_id === p.id) byVariant.set(price.variant_id, price.pricing?.selling_price);
    prices.set(group.id, byVariant);
  }
  const variants = ((p.variants ?? []) as Json[]).map((v) => ({
    id: v.id,
    name: v.name ?? '',
    sku: v.sku ?? '',
    stock: world.stock(v as never),
    prices: Object.fromEntries([...prices].map(([group, byVariant]) => [group, byVariant.get(v.id) ?? v.pricing?.selling_price ?? null])),
  }));
  const category = (p.category_ids as string[] | undefined)?.[0];
  return {
    id: p.id,
    title: p.name,
    subtitle: `${p.sku ?? ''} · ${variants.length} variant${variants.length === 1 ? '' : 's'}`,
    facts: { type: p.product_type, active: p.active, selling_price: p.pricing?.selling_price ?? null, on_promotion: p.on_promotion },
    variants,
    calls: [
      ...variants.slice(0, 3).map((v) => ({ operationId: 'getVariant', method: 'GET' as const, path: '/catalog/products/{product_id}/variants/{variant_id}', params: { path: { product_id: p.id, variant_id: v.id } } })),
      ...(category ? [{ operationId: 'listProducts', method: 'GET' as const, path: '/catalog/products', params: { query: { category_id: category, limit: '20' } } }] : []),
    ],
    record: p,
  };
}

function cartRow(c: Json): BrowseRow {
  const lines = ((c.cart_items ?? []) as Json[]).map((i) => ({ product_id: i.product_id, variant_id: i.variant_id, name: i.name ?? i.product_name ?? i.variant_id, quantity: i.quantity, total: i.total ?? i.subtotal ?? null }));
  return {
    id: c.id,
    title: c.id,
    subtitle: `${c.customer_id ?? 'anonymous'} · ${c.cart_items_count ?? lines.length} item(s)`,
    facts: { active: c.active, status: c.status ?? null, grand_total: c.grand_total, currency: c.currency?.code ?? c.currency ?? null, coupon: c.coupon_code ?? null },
    lines,
    calls: [{ operationId: 'getPosCart', method: 'GET', path: '/pos/carts/{id}', params: { path: { id: c.id } } }],
    record: c,
  };
}

function orderRow(o: Json): BrowseRow {
  return {
    id: o.order_number,
    title: o.order_number,
    subtitle: `${o.status} · ${o.payment_status} · ${o.order_items_count} item(s)`,
    facts: { status: o.status, payment_status: o.payment_status, grand_total: o.grand_total, order_date: o.order_date, modified_at: o.modified_at, user_id: o.user_id },
    calls: [{ operationId: 'listOrders', method: 'GET', path: '/orders', params: { query: { user_id: o.user_id, limit: '20' } } }],
    record: o,
  };
}

function customerRow(c: Json): BrowseRow {
  return {
    id: c.id,
    title: `${c.first_name} ${c.last_name}`,
    subtitle: `${c.id} · ${c.email ?? c.phone ?? ''}`,
    facts: { email: c.email ?? null, phone: c.phone ?? null, cards: (c.cards ?? []).length, created_at: c.created_at },
    calls: [{ operationId: 'listCustomerCards', method: 'GET', path: '/customers/{customer_id}/cards', params: { path: { customer_id: c.id } } }],
    record: c,
  };
}
