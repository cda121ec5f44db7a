// A consumer of every public entry of the library, as a strict app compiles it: test/client/
// tsconfig.types.json sets strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess and skipLibCheck
// false for this file and the other type tests (client-types.test.ts runs tsc). In this repository the
// entries resolve to the sources, so the sources themselves must compile under those flags; the
// packed-install test (test/package/installed.test.ts) compiles the same kind of consumer against the
// published .d.ts files.
import { createStorefrontClient, unwrap, type StorefrontClient } from 'storefront-contract';
import { basePath, type ErrorCode } from 'storefront-contract/contract';
import { createQueryHooks } from 'storefront-contract/react-query';
import { validateResponse, type ValidationIssue } from 'storefront-contract/validators';
import { createWebhookHandler, verifySignature } from 'storefront-contract/webhooks';
import { toExpressMiddleware } from 'storefront-contract/webhooks/express';
import { toFastifyPlugin } from 'storefront-contract/webhooks/fastify';
import { toFetchHandler } from 'storefront-contract/webhooks/fetch';
import { toNodeHandler } from 'storefront-contract/webhooks/node';

// The quickstart's options as they are: `process.env.X` is `string | undefined`.
const client: StorefrontClient = createStorefrontClient({
  baseUrl: process.env.STOREFRONT_URL ?? 'http://127.0.0.1:4010',
  storeId: 'demo-store',
  apiKey: process.env.STOREFRONT_API_KEY,
  accessToken: process.env.STOREFRONT_ACCESS_TOKEN,
  validate: process.env.CI ? 'strict' : undefined,
  signIn: () => client.signInAnonymously().then((s) => s.access_token),
});

export async function firstName(): Promise<string | undefined> {
  const { content } = await unwrap(client.GET('/catalog/products', { params: { query: { limit: 1 } } }));
  return content.products[0]?.name;
}

export const hooks = createQueryHooks(client);
export const issues: ValidationIssue[] = ((r) => (r.valid ? [] : r.errors))(validateResponse('storefront', 'listCountries', 200, {}));
export const code: ErrorCode = 'not_found';
export const base = basePath('storefront', 'demo-store');
const handler = createWebhookHandler({ secrets: [process.env.WEBHOOK_SECRET ?? 'whsec_dev'] });
export const adapters = [toNodeHandler(handler), toExpressMiddleware(handler), toFastifyPlugin(handler), toFetchHandler(handler)];
export const verdict = verifySignature('{}', 'sha256=00', ['whsec_dev']);
