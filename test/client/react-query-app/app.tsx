// A small storefront app on storefront-contract/react-query, as docs/guides/browser-apps.md builds it:
// a product list, a variant's detail, and the failure of an unknown variant, routed by the URL's hash.
// react-query-app.test.ts bundles it (esbuild), serves it from its own origin and drives it in Chromium
// against the sandbox over HTTP. The sandbox's address and the store's public key are build-time
// variables (Vite's `import.meta.env.VITE_*`; the test defines the same names).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createStorefrontClient, StorefrontApiError, type StorefrontClient } from 'storefront-contract';
import { createQueryHooks } from 'storefront-contract/react-query';

const env = (import.meta as unknown as { env: Record<string, string> }).env;

// Signs in anonymously with the store's public key on the first call, and again (once) on a 401.
const client: StorefrontClient = createStorefrontClient({
  baseUrl: env.VITE_STOREFRONT_URL,
  storeId: env.VITE_STOREFRONT_STORE,
  apiKey: env.VITE_STOREFRONT_API_KEY,
  signIn: () => client.signInAnonymously().then((session) => session.access_token),
});
const api = createQueryHooks(client);

// A 4XX is the contract's answer (a wrong id, a bad parameter): asking again changes nothing.
const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: (count, error) => !(error instanceof StorefrontApiError && error.status < 500) && count < 2 } },
});

function useHash(): string {
  const [hash, setHash] = useState(window.location.hash);
  useEffect(() => {
    const update = () => setHash(window.location.hash);
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return hash;
}

function Failure({ error }: { error: Error }) {
  if (!(error instanceof StorefrontApiError)) return <div role="alert">{error.message}</div>;
  return (
    <div role="alert" className="failure">
      <h2>
        {error.status} {error.code}
      </h2>
      <p>{error.message}</p>
      <ul>
        {error.details.map((d) => (
          <li key={`${d.location}:${d.name}`}>
            {d.location} <code>{d.name}</code>: {d.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

function ProductList() {
  const { data, error, isPending } = api.useQuery('get', '/catalog/products', {
    params: { query: { category_slug: ['lips'], limit: 5, sort_by: JSON.stringify({ name: 'asc' }) } },
  });
  if (isPending) return <p role="status">Loading products…</p>;
  if (error) return <Failure error={error} />;
  return (
    <section>
      <h2>Lips ({data.content.pagination.total_records})</h2>
      <ul aria-label="Products">
        {data.content.products.map((product) => {
          const variant = product.variants[0];
          return (
            <li key={product.id}>
              {variant ? <a href={`#/products/${product.id}/${variant.id}`}>{product.name}</a> : product.name} <span className="price">₹{product.pricing.selling_price}</span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function VariantDetail({ productId, variantId }: { productId: string; variantId: string }) {
  const { data, error, isPending } = api.useQuery('get', '/catalog/products/{product_id}/variants/{variant_id}', {
    params: { path: { product_id: productId, variant_id: variantId } },
  });
  if (isPending) return <p role="status">Loading…</p>;
  if (error) return <Failure error={error} />;
  const { variant } = data.content;
  return (
    <article aria-label="Variant">
      <h2>{variant.name}</h2>
      <p className="sku">{variant.sku}</p>
      <p className="price">₹{variant.pricing.selling_price}</p>
      <p>{variant.stock_available ? 'In stock' : 'Out of stock'}</p>
    </article>
  );
}

function App() {
  const detail = /^#\/products\/([^/]+)\/([^/]+)$/.exec(useHash());
  return (
    <main>
      <h1>
        <a href="#/">Storefront</a>
      </h1>
      {detail ? <VariantDetail productId={decodeURIComponent(detail[1]!)} variantId={decodeURIComponent(detail[2]!)} /> : <ProductList />}
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <QueryClientProvider client={queryClient}>
    <App />
  </QueryClientProvider>,
);
