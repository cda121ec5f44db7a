// Fulfillment options of a cart for a pincode (getFulfillmentOptions). Deterministic rules that reproduce
// the spec's GetFulfillmentOptionsOk for crt_8N2F6Q and 560038:
// - collect: stores whose pincode shares the first three digits, within 15 km; distance 1.8 km + 0.9 km
//   per unit of difference of the last three digits, ready in 45 min + 11.25 min per unit; only when
//   every line is in stock; the nearest is recommended;
// - deliver: any valid Indian pincode (six digits, not starting with 0 or 9) for a non-empty cart:
//   standard delivery at the cart's standard rate with two couriers, and same-day delivery when a store
//   is within 10 km and everything is in stock;
// - recommended: collect-in-store when a store is within 3 km, else delivery, else collect, else `unavailable`.
import { round2 } from './money.js';
import { standardShipping, type PricedCart } from './cart.js';
import type { FulfillmentOptions, Location } from './types.js';
import type { World } from './world.js';

const PINCODE = /^[1-8][0-9]{5}$/;
const METRO_PREFIXES = new Set(['110', '400', '560', '600', '500', '700', '411']);

export function fulfillmentOptions(world: World, priced: PricedCart, pincode: string): FulfillmentOptions {
  const valid = PINCODE.test(pincode);
  const nonEmpty = priced.lines.length > 0;
  const inStock = nonEmpty && priced.lines.every((l) => world.stock(l.ref.variant) >= l.item.quantity);
  const stores = valid && inStock ? nearby(world.locations, pincode) : [];
  const collect = stores.map((s, i) => ({ id: s.location.id, name: s.location.name, distance_km: s.distance, collect_eta_minutes: s.eta, is_recommended: i === 0 }));
  const deliverable = valid && nonEmpty;
  const metro = METRO_PREFIXES.has(pincode.slice(0, 3));
  const standard = standardShipping(priced.units);
  const shippingMethods: FulfillmentOptions['deliver']['shipping_methods'] = deliverable
    ? [
        {
          id: 'shm_STANDARD',
          name: 'Standard delivery',
          shipping_type: 'auto',
          shipping_amount: standard.toFixed(2),
          estimated_delivery_days: metro ? '2-4' : '4-7',
          courier_companies: [
            { id: 'cc_BLUEDART', name: 'Blue Dart', shipping_amount: standard, rating: 4.6, estimated_delivery_days: metro ? '2' : '4', is_recommended: true, is_hyperlocal: false, mode: 'air' },
            { id: 'cc_DELHIVERY', name: 'Delhivery Surface', shipping_amount: standard - 10, rating: 4.2, estimated_delivery_days: metro ? '4' : '7', is_recommended: false, is_hyperlocal: false, mode: 'surface' },
          ],
        },
      ]
    : [];
  if (deliverable && inStock && stores.some((s) => s.distance <= 10)) {
    shippingMethods.push({
      id: 'shm_SAMEDAY',
      name: 'Same-day delivery',
      shipping_type: 'hyperlocal',
      shipping_amount: '99.00',
      estimated_delivery_days: '0',
      courier_companies: [{ id: 'cc_DUNZO', name: 'Dunzo', shipping_amount: 99, rating: 4.1, estimated_delivery_days: '0', is_recommended: true, is_hyperlocal: true, mode: 'bike' }],
    });
  }
  const nearest = collect[0] ?? null;
  const recommended = nearest && nearest.distance_km <= 3 ? 'collect-in-store' : deliverable ? 'delivery' : nearest ? 'collect-in-store' : 'unavailable';
  return {
    summary: { collect_available: collect.length > 0, deliver_available: deliverable, recommended_fulfillment_type: recommended, recommended_store: nearest },
    collect,
    deliver: { is_serviceable: deliverable, shipping_methods: shippingMethods },
  };
}

function nearby(locations: readonly Location[], pincode: string): Array<{ location: Location; distance: number; eta: number }> {
  return locations
    .filter((l) => l.pincode.slice(0, 3) === pincode.slice(0, 3))
    .map((location) => {
      const delta = Math.abs(Number(location.pincode.slice(3)) - Number(pincode.slice(3)));
      return { location, distance: round2(1.8 + 0.9 * delta), eta: Math.round(45 + 11.25 * delta) };
    })
    .filter((s) => s.distance <= 15)
    .sort((a, b) => a.distance - b.distance);
}
