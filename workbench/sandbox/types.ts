// The records a sandbox world holds. Contract shapes come from the generated types (so the spec is the
// only place a field is written); the sandbox adds only what a real back end keeps beside them (who owns a
// cart or an order, a variant's seller, a customer's saved cards) and its own reference data (customer
// groups and their prices, coupons, store locations), which the contract does not describe.
import type { StorefrontComponents as components } from 'storefront-contract';

type S = components['schemas'];
export type Product = S['Product'];
export type ProductVariant = S['ProductVariant'];
export type Variant = S['Variant'];
export type Category = S['Category'];
export type Pricing = S['Pricing'];
export type Promotion = S['Promotion'];
export type Subscription = S['Subscription'];
export type InventoryLot = S['InventoryLot'];
export type Image = S['Image'];
export type Attribute = S['Attribute'];
export type SellerDetail = S['SellerDetail'];
export type SimilarProduct = S['SimilarProduct'];
export type BundleItem = S['BundleItem'];
export type Cart = S['Cart'];
export type CartItem = S['CartItem'];
export type CartAddress = S['CartAddress'];
export type Shipment = S['Shipment'];
export type Order = S['Order'];
export type OrderItem = S['OrderItem'];
export type Country = S['Country'];
export type SavedCard = S['SavedCard'];
export type CustomerDetail = S['CustomerDetail'];
export type Address = S['Address'];
export type User = S['User'];
export type Currency = S['Currency'];
export type ApplicableCoupon = S['ApplicableCoupon'];
export type AppliedCoupon = S['AppliedCoupon'];
export type AppliedPromotion = S['AppliedPromotion'];
export type InapplicableCoupon = S['InapplicableCoupon'];
export type FulfillmentOptions = S['FulfillmentOptions'];

/** A variant as stored: the full `Variant`, plus its marketplace seller (null when the store sells it). */
export type VariantRecord = Variant & { seller_id?: string | null; seller_detail?: SellerDetail | null };

/**
 * A product as stored (one entry of products.json): the contract's `Product` whose `variants` are full
 * `Variant` records with their inventory lots, and whose `bundle_items` name variants and quantities. Derived fields (categories, product-level pricing,
 * promotion, subscription, stock and inventory, bundle item details) are recomputed from the world when
 * the product is served, so they always agree with the rest of it.
 */
export type ProductRecord = Omit<Product, 'variants' | 'bundle_items'> & { variants: VariantRecord[]; bundle_items: BundleRef[] };

/** A bundle's item as stored: which variant and how many; its details are the catalog's. */
export interface BundleRef {
  product_id: string;
  variant_id: string;
  quantity: number;
}

/** One price of a customer group (customer-groups.json): for a variant, or for a product without variants. */
export interface GroupPrice {
  product_id: string;
  variant_id: string | null;
  pricing: Pricing;
  /** Replaces the record's promotion for this group (null: none); absent keeps the record's. */
  promotion?: Promotion | null;
  /** Replaces the record's subscription plans (rates) for this group; absent keeps the record's. */
  subscription?: Subscription[];
}

export interface CustomerGroup {
  id: string;
  name: string;
  /** Exactly one group is the default (the customer-group rule's fallback). */
  is_default: boolean;
  prices: GroupPrice[];
}

/** A customer (customers.json): the contract's `CustomerDetail`, its address and its saved cards. */
export type CustomerRecord = CustomerDetail & { address: Address | null; cards: SavedCard[]; created_at: string };

/**
 * A cart as stored (carts.json): a contract `Cart`. Amounts and item details are derived from the catalog
 * when served; what the file decides is which variants in what quantities (and whether on subscription),
 * the coupon code, credit, addresses, fulfillment preference and status. Beside the contract's fields:
 * `customer_id`, the owner (whose order the cart becomes), `customer_group_id`, whose prices apply, and
 * `user_id`, the shopper of a cart without a customer (an anonymous user; set by the back office).
 */
export type CartRecord = Cart & { customer_id?: string | null; customer_group_id?: string | null; user_id?: string | null };

/** An order as stored (orders.json): the contract's `Order` and whose it is. */
export type OrderRecord = Order & { user_id: string; cart_id: string | null };

/** A coupon (coupons.json). Evaluated against a cart by evaluateCartCoupons. */
export interface Coupon {
  id: string;
  name: string;
  coupon_type: string;
  coupon_code: string[];
  /** `percentage` of the eligible items' amount before tax, or a `fixed` amount off the cart. */
  discount_type: 'percentage' | 'fixed';
  discount_percent: number;
  discount_fixed_amount: number;
  /** Upper bound of a percentage discount; null: none. */
  max_discount: number | null;
  /** The cart's grand total must reach this; null: no minimum. */
  min_cart_total: number | null;
  /** Only items in these categories are eligible; empty: every item. */
  category_ids: string[];
  /** ISO date-time after which the coupon no longer applies; null: never expires. */
  expires_at: string | null;
  /** What the savings message calls the eligible items ("on lipsticks"); null: "on this order". */
  scope_label: string | null;
}

/** A store or warehouse where carts are collected (locations.json). */
export interface Location {
  id: string;
  name: string;
  city: string;
  pincode: string;
}

/** An identity issued by createAnonymousUser; the tokens are kept only as SHA-256 digests. */
export interface Identity {
  store_id: string;
  /**
   * The customer this token reads as under `--ownership strict` (register SF-036): set when the token
   * creates a customer, or when the back office signs a customer in. Absent: bound to no customer.
   */
  customer_id?: string;
  user: User;
  access_token_sha256: string;
  refresh_token_sha256: string;
}

/** Everything a store's world is made of, in the form of the fixture files (`--data <dir>`). */
export interface WorldData {
  categories: Category[];
  products: ProductRecord[];
  customer_groups: CustomerGroup[];
  countries: Country[];
  customers: CustomerRecord[];
  carts: CartRecord[];
  orders: OrderRecord[];
  coupons: Coupon[];
  locations: Location[];
}

export const RESOURCES = ['categories', 'products', 'customer-groups', 'countries', 'customers', 'carts', 'orders', 'coupons', 'locations'] as const;
export type ResourceName = (typeof RESOURCES)[number];

/** `customer-groups` -> `customer_groups`. */
export function dataKey(resource: ResourceName): keyof WorldData {
  return resource.replace('-', '_') as keyof WorldData;
}
