// A consumer of the package root: a storefront client with `validate` from argv[2], calling the
// operations named in argv[3..] against a fetch that answers each with a valid JSON body. Prints
// the status of each call.
import { createStorefrontClient, type ValidationMode } from '../../../src/index.js';

const bodies: Record<string, unknown> = {
  listCountries: { success: true, message: 'Countries fetched', content: { countries: [] } },
  createAnonymousUser: { success: false, message: 'Invalid API key', content: { error: { code: 'UNAUTHORIZED', details: [] } } },
};
const paths: Record<string, (client: ReturnType<typeof createStorefrontClient>) => Promise<{ response: Response }>> = {
  listCountries: (c) => c.GET('/common/countries'),
  createAnonymousUser: (c) => c.POST('/auth/anonymous'),
};

const [mode, ...operations] = process.argv.slice(2);
let current = '';
const client = createStorefrontClient({
  baseUrl: 'http://contract.test',
  storeId: 'demo-store',
  apiKey: 'key',
  accessToken: 'token',
  validate: mode as ValidationMode,
  fetch: async () => new Response(JSON.stringify(bodies[current]), { status: current === 'createAnonymousUser' ? 401 : 200, headers: { 'content-type': 'application/json' } }),
});
const statuses: number[] = [];
for (const operationId of operations) {
  current = operationId;
  statuses.push((await paths[operationId](client)).response.status);
}
console.log(JSON.stringify(statuses));
