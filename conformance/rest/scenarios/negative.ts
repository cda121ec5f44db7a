// Negative traffic: no credentials on every operation, a wrong key and a wrong token, a key without the
// storefront scope, invalid parameters, malformed, oversized and non-JSON bodies, unknown ids.
// `Prefer: code=...` asks the mock (which holds no data) for the status a real server gives for an
// unknown id or an unscoped key; servers that do not know the preference ignore it (RFC 7240).
import { bearer, expectStatus, type ScenarioDriver, type StepRequest } from './session.js';

const OVERSIZED_BYTES = 2 * 1024 * 1024;

function oversized(): string {
  return `{"padding":"${'x'.repeat(OVERSIZED_BYTES)}"}`;
}

export const negative: ScenarioDriver = {
  name: 'negative',
  description: 'Requests the contract rejects: missing and wrong credentials, invalid parameters and bodies, unknown ids.',
  async drive(s) {
    const anonymous: Array<[string, number, StepRequest]> = [
      ['anon-without-key', 401, { method: 'POST', path: '/auth/anonymous' }],
      ['anon-wrong-key', 401, { method: 'POST', path: '/auth/anonymous', headers: { 'x-api-key': 'wrong key' } }],
      ['pos-login-without-key', 401, { method: 'POST', path: '/pos/auth/login/phone', json: { location_id: 'loc_MUM01', phone: '9876543210', country_code: '+91' } }],
      ['fulfillment-options-without-token', 401, { method: 'POST', path: '/shipping/fulfillment-options', json: { cart_id: 'crt_8N2F6Q', delivery_pincode: '400001' } }],
      ['get-cart-without-token', 401, { method: 'GET', path: '/pos/carts/crt_8N2F6Q' }],
      ['get-variant-without-token', 401, { method: 'GET', path: '/catalog/products/prd_7Q2K9X/variants/var_4M8T2C' }],
      ['list-cards-without-token', 401, { method: 'GET', path: '/customers/cst_9XK2PL/cards' }],
      ['evaluate-coupons-without-token', 401, { method: 'GET', path: '/pos/carts/crt_8N2F6Q/evaluate-coupons' }],
      ['list-countries-without-token', 401, { method: 'GET', path: '/common/countries' }],
      ['list-products-without-token', 401, { method: 'GET', path: '/catalog/products', query: { page: 1, limit: 2 } }],
      ['list-similar-without-token', 401, { method: 'GET', path: '/pos/catalog/products/similar', query: { product_id: 'prd_7Q2K9X' } }],
      ['list-orders-without-token', 401, { method: 'GET', path: '/orders', query: { user_id: 'usr_6D1E0R' } }],
      ['create-customer-without-token', 401, { method: 'POST', path: '/customers', json: { business: {}, address: {} } }],
      ['list-products-wrong-token', 401, { method: 'GET', path: '/catalog/products', headers: bearer('not-a-token-this-server-issued') }],
    ];
    for (const [name, status, req] of anonymous) expectStatus(name, await s.step(name, req), status);

    const anon = expectStatus('anon', await s.step('anon', { method: 'POST', path: '/auth/anonymous', headers: { 'x-api-key': s.apiKey } }), 200);
    const auth = bearer(anon.body.content.access_token);
    const userId: string = anon.body.content.user.id;
    const key = { 'x-api-key': s.apiKey };
    const login = { location_id: 'loc_MUM01', phone: '9876543210', country_code: '+91' };
    const json = { ...auth, 'content-type': 'application/json' };
    const rejected: Array<[string, number, StepRequest]> = [
      ['list-products-page-0', 400, { method: 'GET', path: '/catalog/products', query: { page: 0, limit: 2 }, headers: auth }],
      ['list-products-limit-0', 400, { method: 'GET', path: '/catalog/products', query: { page: 1, limit: 0 }, headers: auth }],
      ['list-products-limit-not-integer', 400, { method: 'GET', path: '/catalog/products', query: { page: 1, limit: 'ten' }, headers: auth }],
      ['list-products-bad-sort', 400, { method: 'GET', path: '/catalog/products', query: { sort_by: 'price up' }, headers: auth }],
      ['list-similar-page-0', 400, { method: 'GET', path: '/pos/catalog/products/similar', query: { product_id: 'prd_7Q2K9X', page: 0 }, headers: auth }],
      ['list-orders-without-user-id', 400, { method: 'GET', path: '/orders', query: { page: 1, limit: 10 }, headers: auth }],
      ['list-orders-page-0', 400, { method: 'GET', path: '/orders', query: { user_id: userId, page: 0 }, headers: auth }],
      ['get-variant-bad-inventory', 400, { method: 'GET', path: '/catalog/products/prd_7Q2K9X/variants/var_4M8T2C', query: { inventory: 'maybe' }, headers: auth }],
      ['pos-login-bad-country-code', 400, { method: 'POST', path: '/pos/auth/login/phone', headers: key, json: { ...login, country_code: '91' } }],
      ['pos-login-malformed-body', 400, { method: 'POST', path: '/pos/auth/login/phone', headers: { ...key, 'content-type': 'application/json' }, raw: '{"phone":' }],
      ['pos-login-not-json', 415, { method: 'POST', path: '/pos/auth/login/phone', headers: { ...key, 'content-type': 'text/plain' }, raw: 'phone=9876543210' }],
      ['pos-login-oversized', 413, { method: 'POST', path: '/pos/auth/login/phone', headers: { ...key, 'content-type': 'application/json' }, raw: oversized() }],
      ['pos-login-unscoped-key', 403, { method: 'POST', path: '/pos/auth/login/phone', headers: { 'x-api-key': s.restrictedApiKey, prefer: 'code=403' }, json: login }],
      ['create-customer-missing-address', 400, { method: 'POST', path: '/customers', headers: auth, json: { business: { name: 'No Address Ltd' } } }],
      ['create-customer-not-json', 415, { method: 'POST', path: '/customers', headers: { ...auth, 'content-type': 'text/plain' }, raw: 'name=Kumar' }],
      ['create-customer-oversized', 413, { method: 'POST', path: '/customers', headers: json, raw: oversized() }],
      ['fulfillment-options-missing-cart', 400, { method: 'POST', path: '/shipping/fulfillment-options', headers: auth, json: { delivery_pincode: '400001' } }],
      ['fulfillment-options-not-json', 415, { method: 'POST', path: '/shipping/fulfillment-options', headers: { ...auth, 'content-type': 'text/plain' }, raw: 'cart_id=crt' }],
      ['fulfillment-options-oversized', 413, { method: 'POST', path: '/shipping/fulfillment-options', headers: json, raw: oversized() }],
      ['fulfillment-options-unknown-cart', 404, { method: 'POST', path: '/shipping/fulfillment-options', headers: { ...auth, prefer: 'code=404' }, json: { cart_id: 'crt_unknown0', delivery_pincode: '400001' } }],
      ['get-variant-unknown', 404, { method: 'GET', path: '/catalog/products/prd_unknown0/variants/var_unknown0', headers: { ...auth, prefer: 'code=404' } }],
      ['get-cart-unknown', 404, { method: 'GET', path: '/pos/carts/crt_unknown0', headers: { ...auth, prefer: 'code=404' } }],
      ['evaluate-coupons-unknown-cart', 404, { method: 'GET', path: '/pos/carts/crt_unknown0/evaluate-coupons', headers: { ...auth, prefer: 'code=404' } }],
      ['list-cards-unknown-customer', 404, { method: 'GET', path: '/customers/cst_unknown0/cards', headers: { ...auth, prefer: 'code=404' } }],
    ];
    for (const [name, status, req] of rejected) expectStatus(name, await s.step(name, req), status);
  },
};
