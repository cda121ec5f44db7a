// The faulty servers of certification: the mock behind one transforming proxy (helpers.ts) whose single
// defect is switched per case, one case per REST rule, each naming the rule that catches it and the
// operation it breaks. Certifying each must fail (faulty-servers.test.ts); the validating proxy, between a
// replayed client session and each of them, must report what one exchange shows (proxy.test.ts).
import { request } from 'undici';
import { errorBody, TEST_API_KEY, type Transform } from './helpers.js';

export interface FaultyCase {
  transform: () => Promise<Transform> | Transform;
  want: { rule: string; operationId: string };
  strict?: boolean;
  generate?: number;
}

/** The cases against the mock at `mockUrl()` (one of them asks it for a valid token when it runs). */
export function faultyCases(mockUrl: () => string): Array<[string, FaultyCase]> {
  const is = (req: { method: string }, inner: string, method: string, path: string) => req.method === method && inner === path;

  /** A valid bearer token of the mock, for the server that does not enforce auth. */
  async function mockToken(): Promise<string> {
    const reply = await request(`${mockUrl()}/api/v1/demo-store/storefront/auth/anonymous`, { method: 'POST', headers: { 'x-api-key': TEST_API_KEY } });
    return ((await reply.body.json()) as any).content.access_token;
  }

  const VARIANT_PATH = /^\/catalog\/products\/[^/]+\/variants\/[^/]+$/;

  const cases: Array<[string, FaultyCase]> = [
    [
      'a number field served as a string',
      {
        transform: () => ({
          response(res, req, inner) {
            if (is(req, inner, 'GET', '/catalog/products') && res.status === 200) {
              const pricing = (res.body as any).content.products[0].pricing;
              pricing.selling_price = String(pricing.selling_price);
            }
          },
        }),
        want: { rule: 'response-schema', operationId: 'listProducts' },
      },
    ],
    [
      'a required field missing',
      {
        transform: () => ({
          response(res, req, inner) {
            if (req.method === 'GET' && VARIANT_PATH.test(inner) && res.status === 200) delete (res.body as any).content.variant.hsn_code;
          },
        }),
        want: { rule: 'response-schema', operationId: 'getVariant' },
      },
    ],
    [
      'success: true on an error',
      {
        transform: () => ({
          response(res) {
            if (res.status >= 400 && res.body && typeof res.body === 'object') (res.body as any).success = true;
          },
        }),
        want: { rule: 'envelope', operationId: 'listProducts' },
      },
    ],
    [
      'auth not enforced',
      {
        transform: async () => {
          const token = await mockToken();
          return {
            request(req) {
              if (!req.headers['authorization'] && !req.headers['x-api-key']) {
                const key = /\/auth\/anonymous$|\/pos\/auth\/login\/phone$/.test(req.url.pathname);
                if (key) req.headers['x-api-key'] = TEST_API_KEY;
                else req.headers['authorization'] = `Bearer ${token}`;
              }
            },
          };
        },
        want: { rule: 'auth-enforced', operationId: 'listCountries' },
      },
    ],
    [
      'page 0 accepted',
      {
        transform: () => ({
          request(req) {
            if (req.url.searchParams.get('page') === '0') req.url.searchParams.set('page', '1');
          },
        }),
        want: { rule: 'invalid-input-rejected', operationId: 'listProducts' },
      },
    ],
    [
      'wrong content type',
      {
        transform: () => ({
          response(res, req, inner) {
            if (is(req, inner, 'GET', '/common/countries')) res.headers['content-type'] = 'text/html; charset=utf-8';
          },
        }),
        want: { rule: 'content-type-json', operationId: 'listCountries' },
      },
    ],
    [
      'a 500 on one operation',
      {
        transform: () => ({
          response(res, req, inner) {
            if (req.method === 'GET' && /^\/pos\/carts\/[^/]+$/.test(inner) && res.status === 200) {
              res.status = 500;
              res.body = errorBody('internal_error', 'Cart service unavailable.');
            }
          },
        }),
        want: { rule: 'status-documented', operationId: 'getPosCart' },
      },
    ],
    [
      'broken pagination',
      {
        transform: () => ({
          response(res, req, inner) {
            if (is(req, inner, 'GET', '/orders') && res.status === 200) {
              const p = (res.body as any).content.pagination;
              p.total_pages = p.total_records + 1;
            }
          },
        }),
        want: { rule: 'pagination', operationId: 'listOrders' },
      },
    ],
    [
      'a page past the end that claims a next page',
      {
        transform: () => ({
          response(res, req, inner) {
            const content = (res.body as any)?.content;
            if (is(req, inner, 'GET', '/catalog/products') && res.status === 200 && content.products.length === 0) content.pagination.next_page = Number(req.url.searchParams.get('page')) + 1;
          },
        }),
        want: { rule: 'pagination-past-end', operationId: 'listProducts' },
      },
    ],
    [
      'a field of the recorded answer dropped where the schema allows it (advice: fails under --strict)',
      {
        transform: () => ({
          response(res, req, inner) {
            if (is(req, inner, 'POST', '/pos/auth/login/phone') && res.status === 200) delete (res.body as any).content.otp;
          },
        }),
        want: { rule: 'structural-drift', operationId: 'startPosPhoneLogin' },
        strict: true,
      },
    ],
    [
      'a variant other than the one the list named',
      {
        transform: () => ({
          response(res, req, inner) {
            if (req.method === 'GET' && VARIANT_PATH.test(inner) && res.status === 200) (res.body as any).content.variant.id = 'var_SOMEOTHER';
          },
        }),
        want: { rule: 'cross-call-consistency', operationId: 'getVariant' },
      },
    ],
    [
      'a list that refuses a filter the spec allows (generated requests)',
      {
        transform: () => ({
          request(req) {
            if (req.url.searchParams.get('inventory') === 'true') return { status: 400, headers: {}, body: errorBody('invalid_parameter', 'inventory is not supported') };
            return undefined;
          },
        }),
        want: { rule: 'generated-accepted', operationId: 'listProducts' },
        generate: 10,
      },
    ],
    [
      'a list that takes any page, even below 1 (generated requests)',
      {
        transform: () => ({
          request(req) {
            if (Number(req.url.searchParams.get('page')) < 1) req.url.searchParams.delete('page');
          },
        }),
        want: { rule: 'generated-refused', operationId: 'listOrders' },
        generate: 10,
      },
    ],
  ];
  return cases;
}
