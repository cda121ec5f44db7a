// Customer: create a customer, list its saved cards, list the user's orders with filters and sorts.
import { bearer, expectStatus, type ScenarioDriver } from './session.js';

export const customer: ScenarioDriver = {
  name: 'customer',
  description: 'Create a customer and read its saved cards; list the signed-in user\'s orders with status filters and a sort.',
  async drive(s) {
    const anon = expectStatus('anon', await s.step('anon', { method: 'POST', path: '/auth/anonymous', headers: { 'x-api-key': s.apiKey } }), 200);
    const auth = bearer(anon.body.content.access_token);
    const userId: string = anon.body.content.user.id;
    const created = expectStatus(
      'create-customer',
      await s.step('create-customer', {
        method: 'POST',
        path: '/customers',
        headers: auth,
        json: {
          business: { business_type: 'retail', name: 'Kumar Stores', pan_number: 'AAAPK1234C', gstin: '27AAAPK1234C1Z5' },
          address: {
            first_name: 'Asha',
            last_name: 'Kumar',
            country_code: '+91',
            phone: '9876543210',
            email: 'asha@example.com',
            address_line1: '12 MG Road',
            city: 'Mumbai',
            state: 'Maharashtra',
            country: 'India',
            pincode: '400001',
          },
        },
      }),
      201,
    );
    const customerId: string = created.body.content.customer_detail.id;
    expectStatus('list-cards', await s.step('list-cards', { method: 'GET', path: `/customers/${customerId}/cards`, headers: auth }), 200);
    expectStatus('list-orders', await s.step('list-orders', { method: 'GET', path: '/orders', query: { user_id: userId, page: 1, limit: 10 }, headers: auth }), 200);
    expectStatus(
      'list-orders-by-status',
      await s.step('list-orders-by-status', { method: 'GET', path: '/orders', query: { user_id: userId, page: 1, limit: 10, status: ['draft', 'pending'] }, headers: auth }),
      200,
    );
    expectStatus(
      'list-orders-sorted',
      await s.step('list-orders-sorted', { method: 'GET', path: '/orders', query: { user_id: userId, page: 1, limit: 10, sort_by: JSON.stringify({ order_date: 'desc' }) }, headers: auth }),
      200,
    );
  },
};
