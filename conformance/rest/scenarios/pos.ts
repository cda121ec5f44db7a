// POS: phone login (plain and debug mode), a cart, its coupons and fulfillment options.
import { bearer, expectStatus, type ScenarioDriver } from './session.js';

/** The cart the recording uses; on another server pass `--input cart_id=<a cart of that store>`. */
export const RECORDED_CART_ID = 'crt_8N2F6Q';

export const pos: ScenarioDriver = {
  name: 'pos',
  description: 'Point of sale: phone login, read a cart, evaluate its coupons, look up its fulfillment options.',
  async drive(s) {
    const anon = expectStatus('anon', await s.step('anon', { method: 'POST', path: '/auth/anonymous', headers: { 'x-api-key': s.apiKey } }), 200);
    const auth = bearer(anon.body.content.access_token);
    const login = { location_id: 'loc_MUM01', phone: '9876543210', country_code: '+91' };
    expectStatus('pos-login', await s.step('pos-login', { method: 'POST', path: '/pos/auth/login/phone', headers: { 'x-api-key': s.apiKey }, json: login }), 200);
    expectStatus(
      'pos-login-debug',
      await s.step('pos-login-debug', { method: 'POST', path: '/pos/auth/login/phone', query: { debug_mode: 'true' }, headers: { 'x-api-key': s.apiKey, prefer: 'example=StartPosPhoneLoginOkDebugMode' }, json: login }),
      200,
    );
    const cart = expectStatus('get-cart', await s.step('get-cart', { method: 'GET', path: `/pos/carts/${RECORDED_CART_ID}`, headers: auth }), 200);
    const cartId: string = cart.body.content.cart.id;
    expectStatus('evaluate-coupons', await s.step('evaluate-coupons', { method: 'GET', path: `/pos/carts/${cartId}/evaluate-coupons`, headers: auth }), 200);
    expectStatus(
      'fulfillment-options',
      await s.step('fulfillment-options', { method: 'POST', path: '/shipping/fulfillment-options', headers: auth, json: { cart_id: cartId, delivery_pincode: '400001' } }),
      200,
    );
  },
};
