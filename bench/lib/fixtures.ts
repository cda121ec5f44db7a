// Benchmark inputs built from the spec's own examples, so benchmarks measure contract-shaped data.
import { loadDereferenced } from '../../scripts/lib/load-spec.js';

/** The listProducts 200 example grown to `count` products (fresh ids), as a response body. */
export async function productListBody(count = 100): Promise<any> {
  const doc = await loadDereferenced('storefront');
  const examples = doc.paths['/catalog/products'].get.responses['200'].content['application/json'].examples;
  const base: any = structuredClone(Object.values<any>(examples)[0].value);
  const seed = base.content.products;
  const products = Array.from({ length: count }, (_, i) => {
    const p = structuredClone(seed[i % seed.length]);
    p.id = `${p.id}-${i}`;
    p.sku = `${p.sku}-${i}`;
    p.slug = `${p.slug}-${i}`;
    return p;
  });
  base.content.products = products;
  base.content.pagination = { ...base.content.pagination, total_records: count, total_pages: 1, limit: count, next_page: null, previous_page: null };
  return base;
}
