// Price inputs the focused pricing tests (pricing.test.ts, cart-totals.test.ts) build their small worlds from.
import type { Subscription } from '../../workbench/sandbox/types.js';

/** A monthly subscription plan of a year (twelve bills, twelve orders) at `price` a month. */
export const plan = (id: string, price: number): Subscription => ({
  id,
  subscription_plan: 'Monthly refill',
  subscription_price: price,
  billing_interval: 1,
  billing_limit: 12,
  order_interval: 1,
  order_limit: 12,
  minimum_quantity: 1,
  billing_trial_days: 0,
  billing_frequency: 'month',
  order_frequency: 'month',
  fulfill_separately: false,
});
