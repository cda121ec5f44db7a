// The storefront contract against its seed (/work/shared/seed, sections 2 and 4), field by field:
// every endpoint with its method, path, operationId, security and parameters; every field of
// sections 2.1 to 2.16 with its stated type; the envelope on every response; pagination on the lists.
// A row failing here means the spec lost or changed something the seed states.
import { describe, expect, it } from 'vitest';
import { loadDereferenced } from '../../scripts/lib/load-spec.js';

type Schema = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

const doc = await loadDereferenced('storefront');

// ---------------------------------------------------------------------------------------- helpers

/** Every operation of the document, keyed by operationId. */
function operations(): Map<string, { method: string; path: string; op: Schema }> {
  const out = new Map();
  for (const [path, item] of Object.entries<Schema>(doc.paths)) {
    for (const method of METHODS) if (item[method]) out.set(item[method].operationId, { method, path, op: item[method] });
  }
  return out;
}
const ops = operations();

/** Every titled schema reachable from the document (component schemas carry title = component name). */
function titledSchemas(): Map<string, Schema> {
  const out = new Map<string, Schema>();
  const seen = new Set<unknown>();
  const visit = (node: unknown) => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    const n = node as Schema;
    if (typeof n.title === 'string' && !out.has(n.title) && (n.type || n.allOf || n.properties)) out.set(n.title, n);
    for (const child of Object.values(n)) visit(child);
  };
  visit(doc.paths);
  return out;
}
const schemas = titledSchemas();

function schema(title: string): Schema {
  const s = schemas.get(title);
  if (!s) throw new Error(`schema ${title} is not reachable from any storefront operation`);
  return s;
}

/** Properties and required names a schema guarantees, following allOf. */
function shape(s: Schema): { properties: Record<string, Schema>; required: Set<string> } {
  const properties: Record<string, Schema> = { ...(s.properties ?? {}) };
  const required = new Set<string>(s.required ?? []);
  for (const part of s.allOf ?? []) {
    const inner = shape(part);
    Object.assign(properties, inner.properties);
    for (const r of inner.required) required.add(r);
  }
  return { properties, required };
}

/** JSON types of a property, `null` excluded, and whether null is allowed. */
function typesOf(p: Schema): { types: string[]; nullable: boolean; branch: Schema } {
  const types = new Set<string>();
  let nullable = false;
  let branch: Schema = p;
  const add = (t: string) => (t === 'null' ? (nullable = true) : types.add(t));
  const branches = p.anyOf ?? p.oneOf;
  if (branches) {
    for (const b of branches) {
      const inner = typesOf(b);
      inner.types.forEach(add);
      if (inner.nullable) nullable = true;
      if (inner.types.length) branch = inner.branch;
    }
  } else if (p.type) {
    [p.type].flat().forEach(add);
  } else if (p.allOf || p.properties || p.additionalProperties) {
    add('object');
  }
  return { types: [...types].sort(), nullable, branch };
}

/** What the detail column of a field row means: format of a string, title of an object, item of an array. */
function detailOf(p: Schema, type: string): string | undefined {
  if (type === 'string') return p.format;
  if (type === 'object') return p.title ?? p.allOf?.[0]?.title;
  if (type === 'array') return p.items?.title ?? p.items?.type;
  return undefined;
}

// ------------------------------------------------------------------------------ endpoints (seed 4)

const endpoints: Array<[number, string, string, string, string, string[]]> = [
  [1, 'post', '/auth/anonymous', 'createAnonymousUser', 'storeApiKey', []],
  [2, 'post', '/shipping/fulfillment-options', 'getFulfillmentOptions', 'bearerAuth', []],
  [3, 'post', '/pos/auth/login/phone', 'startPosPhoneLogin', 'storeApiKey', ['storefront']],
  [4, 'get', '/pos/carts/{id}', 'getPosCart', 'bearerAuth', []],
  [5, 'get', '/catalog/products/{product_id}/variants/{variant_id}', 'getVariant', 'bearerAuth', []],
  [6, 'get', '/customers/{customer_id}/cards', 'listCustomerCards', 'bearerAuth', []],
  [7, 'get', '/pos/carts/{id}/evaluate-coupons', 'evaluateCartCoupons', 'bearerAuth', []],
  [8, 'get', '/common/countries', 'listCountries', 'bearerAuth', []],
  [9, 'get', '/catalog/products', 'listProducts', 'bearerAuth', []],
  [10, 'get', '/pos/catalog/products/similar', 'listSimilarProducts', 'bearerAuth', []],
  [11, 'get', '/orders', 'listOrders', 'bearerAuth', []],
  [12, 'post', '/customers', 'createCustomer', 'bearerAuth', []],
];

describe('document (seed 4, 5, 9)', () => {
  it('serves every path under {base_url}/api/v1/{store_id}/storefront', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toHaveLength(1);
    expect(doc.servers[0].url).toBe('{base_url}/api/v1/{store_id}/storefront');
    expect(Object.keys(doc.servers[0].variables).sort()).toEqual(['base_url', 'store_id']);
  });

  it('has exactly the 12 seed endpoints', () => {
    expect([...ops.keys()].sort()).toEqual(endpoints.map((e) => e[3]).sort());
  });

  it('defines the two security schemes of seed 5', () => {
    expect(doc.components.securitySchemes.storeApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Api-Key' });
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toBeUndefined();
  });
});

describe.each(endpoints)('endpoint %i: %s %s', (_n, method, path, operationId, scheme, scopes) => {
  it(`is ${operationId}, secured by ${scheme}${scopes.length ? ` with scope ${scopes}` : ''}`, () => {
    const op = doc.paths[path]?.[method];
    expect(op, `${method.toUpperCase()} ${path}`).toBeDefined();
    expect(op.operationId).toBe(operationId);
    expect(op.security).toEqual([{ [scheme]: scopes }]);
    expect(op.tags?.length).toBe(1);
    expect(op.summary).toBeTruthy();
    expect(op.description).toBeTruthy();
  });
});

// ----------------------------------------------------------------------- parameters (seed 4, 4.1-4.3)

// [operationId, name, in, type, required, minimum, items type]
const parameters: Array<[string, string, string, string, boolean, number | undefined, string | undefined]> = [
  ['startPosPhoneLogin', 'debug_mode', 'query', 'boolean', false, undefined, undefined],
  ['getPosCart', 'id', 'path', 'string', true, undefined, undefined],
  ['getVariant', 'product_id', 'path', 'string', true, undefined, undefined],
  ['getVariant', 'variant_id', 'path', 'string', true, undefined, undefined],
  ['getVariant', 'x-customer-group-id', 'header', 'string', false, undefined, undefined],
  ['getVariant', 'inventory', 'query', 'boolean', false, undefined, undefined],
  ['listCustomerCards', 'customer_id', 'path', 'string', true, undefined, undefined],
  ['evaluateCartCoupons', 'id', 'path', 'string', true, undefined, undefined],
  ['listProducts', 'x-customer-group-id', 'header', 'string', false, undefined, undefined],
  ['listProducts', 'page', 'query', 'number', false, 1, undefined],
  ['listProducts', 'limit', 'query', 'integer', false, 1, undefined],
  ['listProducts', 'sort_by', 'query', 'string', false, undefined, undefined],
  ['listProducts', 'category_id', 'query', 'array', false, undefined, 'string'],
  ['listProducts', 'category_slug', 'query', 'array', false, undefined, 'string'],
  ['listProducts', 'inventory', 'query', 'boolean', false, undefined, undefined],
  ['listSimilarProducts', 'x-customer-group-id', 'header', 'string', false, undefined, undefined],
  ['listSimilarProducts', 'limit', 'query', 'integer', false, 1, undefined],
  ['listSimilarProducts', 'page', 'query', 'integer', false, 1, undefined],
  ['listSimilarProducts', 'product_id', 'query', 'array', false, undefined, 'string'],
  ['listSimilarProducts', 'sort_by', 'query', 'string', false, undefined, undefined],
  ['listOrders', 'page', 'query', 'number', false, 1, undefined],
  ['listOrders', 'limit', 'query', 'integer', false, 1, undefined],
  ['listOrders', 'sort_by', 'query', 'string', false, undefined, undefined],
  ['listOrders', 'status', 'query', 'array', false, undefined, 'string'],
  ['listOrders', 'user_id', 'query', 'string', true, undefined, undefined],
];

describe('parameters', () => {
  it.each(parameters)('%s: %s in %s is %s (required %s, minimum %s, items %s)', (operationId, name, where, type, required, minimum, items) => {
    const param = ops.get(operationId)!.op.parameters?.find((p: Schema) => p.name === name && p.in === where);
    expect(param, `${operationId} ${where} ${name}`).toBeDefined();
    expect(param.schema.type).toBe(type);
    expect(param.required ?? false).toBe(required);
    expect(param.schema.minimum).toBe(minimum);
    expect(param.schema.items?.type).toBe(items);
    if (type === 'array') expect([param.style ?? 'form', param.explode ?? true]).toEqual(['form', true]);
  });

  it('gives every operation exactly the parameters listed here', () => {
    const listed = (id: string) => parameters.filter((p) => p[0] === id).map((p) => `${p[2]}:${p[1]}`).sort();
    for (const [id, { op }] of ops) {
      expect((op.parameters ?? []).map((p: Schema) => `${p.in}:${p.name}`).sort(), id).toEqual(listed(id));
    }
  });

  it('describes sort_by as JSON text mapping a field to asc or desc', () => {
    const sortBy = ops.get('listProducts')!.op.parameters.find((p: Schema) => p.name === 'sort_by');
    expect(sortBy.schema.contentMediaType).toBe('application/json');
    expect(sortBy.schema.contentSchema.additionalProperties.enum).toEqual(['asc', 'desc']);
  });

  it('states the customer-group rule on the x-customer-group-id header', () => {
    for (const id of ['listProducts', 'listSimilarProducts', 'getVariant']) {
      const header = ops.get(id)!.op.parameters.find((p: Schema) => p.name === 'x-customer-group-id');
      expect(header.description, id).toMatch(/default\s+customer\s+group/);
      expect(header.description, id).toMatch(/highest\s+applicable\s+price/);
    }
  });
});

// ----------------------------------------------------------------------------- request bodies (seed 4)

const requestBodies: Array<[string, string, string, string | undefined]> = [
  ['getFulfillmentOptions', 'delivery_pincode', 'string', undefined],
  ['getFulfillmentOptions', 'cart_id', 'string', undefined],
  ['startPosPhoneLogin', 'location_id', 'string', undefined],
  ['startPosPhoneLogin', 'phone', 'string', undefined],
  ['startPosPhoneLogin', 'country_code', 'string', undefined],
  ['createCustomer', 'business', 'object', 'Business'],
  ['createCustomer', 'address', 'object', 'Address'],
];

describe('request bodies', () => {
  it.each(requestBodies)('%s body has %s (%s %s)', (operationId, field, type, detail) => {
    const body = ops.get(operationId)!.op.requestBody;
    expect(body.required).toBe(true);
    const s = shape(body.content['application/json'].schema);
    expect(s.properties[field], field).toBeDefined();
    const { types } = typesOf(s.properties[field]);
    expect(types).toEqual([type]);
    expect(detailOf(s.properties[field], type)).toBe(detail);
  });

  it('has no body on createAnonymousUser and none on the GET operations', () => {
    for (const [id, { method, op }] of ops) {
      if (method === 'get' || id === 'createAnonymousUser') expect(op.requestBody, id).toBeUndefined();
    }
  });

  it('sends the create-customer address without verified flags', () => {
    const address = shape(schema('Address'));
    expect(address.properties.is_phone_verified).toBeUndefined();
    expect(address.properties.is_email_verified).toBeUndefined();
  });

  it('asks for a dial code with leading plus in startPosPhoneLogin', () => {
    const s = shape(ops.get('startPosPhoneLogin')!.op.requestBody.content['application/json'].schema);
    expect(new RegExp(s.properties.country_code.pattern).test('+91')).toBe(true);
    expect(new RegExp(s.properties.country_code.pattern).test('91')).toBe(false);
  });
});

// ------------------------------------------------------------------------ fields (seed 2.1 to 2.16)

// One line per schema: `field:type[:detail]` where detail is a string's format, an object's schema
// title or an array's item (title or type). A field may list several types joined by `|`.
const S = 'string';
const fieldSpec: Record<string, string> = {
  Pagination: 'total_records:number total_pages:number limit:number next_page:number previous_page:number',
  User: `id:${S} is_anonymous:boolean is_logged_in:boolean first_name:${S} last_name:${S} phone:${S} email:${S}
    is_email_verified:boolean is_phone_verified:boolean profile_image_url:${S} created_at:${S}:date-time modified_at:${S}:date-time`,
  Address: `first_name:${S} last_name:${S} country_code:${S} phone:${S} email:${S} address_line1:${S} address_line2:${S}
    landmark:${S} pincode:${S} city:${S} state:${S} country:${S} tax_identification_number:${S} business_name:${S} id:${S}`,
  CartAddress: `first_name:${S} last_name:${S} country_code:${S} phone:${S} email:${S} address_line1:${S} address_line2:${S}
    landmark:${S} pincode:${S} city:${S} state:${S} country:${S} tax_identification_number:${S} business_name:${S} id:${S}
    is_phone_verified:boolean is_email_verified:boolean`,
  Business: `business_type:${S} name:${S} pan_number:${S} gstin:${S}`,
  CustomerDetail: `id:${S} first_name:${S} last_name:${S} country_code:${S} phone:${S} email:${S} is_phone_verified:boolean
    is_email_verified:boolean business:object:Business`,
  Currency: `name:${S} code:${S} symbol:${S}`,
  Cart: `id:${S} active:boolean customer_note:${S} status:${S} status_error_message:${S} expires_at:${S}:date-time
    metadata:object currency:object:Currency
    is_promotion_applied:boolean is_coupon_applied:boolean coupon_code:${S}
    coupon_discount_amount:number coupon_discount_percent:number promotion_discount_amount:number promotion_discount_percent:number
    subtotal:number items_tax_amount:number subtotal_including_tax:number total_tax:number grand_total:number
    credit_balance_used:number to_be_paid:number
    shipping_estimated_cost:number shipping_discount_amount:number shipping_amount:number shipping_tax_rate:number
    shipping_tax_amount:number shipping_amount_including_tax:number estimated_delivery_days:number
    handling_charge_excluding_tax:number handling_charge_tax_amount:number handling_charge_including_tax:number
    loyalty_points_redeemed:number loyalty_points_earned:number
    promotion_savings:number coupon_savings:number other_savings:number total_savings:number
    cart_items_count:number cart_items:array:CartItem
    billing_address:object:CartAddress shipping_address:object:CartAddress
    applied_promotions:array:AppliedPromotion applied_coupons:array:AppliedCoupon shipments:array:Shipment
    fulfillment_preference:object:FulfillmentPreference`,
  AppliedPromotion: `promotion_id:${S} promotion_type:${S} savings:number product_id:${S} variant_id:${S} product_name:${S}
    variant_name:${S} applied_sequence:number scope:${S}`,
  AppliedCoupon: `coupon_id:${S} coupon_type:${S} savings:number product_id:${S} variant_id:${S} product_name:${S} variant_name:${S}`,
  Shipment: `id:${S} shipping_provider_id:${S} shipping_provider_name:${S} courier_company_id:${S} courier_company_name:${S}
    shipping_amount:number shipping_tax_amount:number shipping_amount_including_tax:number shipment_items_count:number
    shipment_items:array:ShipmentItem`,
  ShipmentItem: `product_id:${S} product_name:${S} product_image_url:${S} variant_id:${S} variant_name:${S} sku:${S}
    quantity:number free_quantity:number is_free_item:boolean`,
  FulfillmentPreference: `fulfillment_type:${S} pickup_location_id:${S} preference_type:${S} pickup_location_name:${S}`,
  CartItem: `product_id:${S} variant_id:${S} sku:${S} slug:${S} product_name:${S} variant_name:${S} product_image_url:${S}
    product_type:${S} stock_available:boolean backorder:boolean on_subscription:boolean on_promotion:boolean
    is_free_item:boolean price_including_tax:boolean quantity:number free_quantity:number promotion_discount_amount:number
    coupon_discount_amount:number listing_price:number selling_price:number selling_price_excluding_tax:number
    min_order_quantity:number max_order_quantity:number incremental_quantity:number handling_charge_excluding_tax:number
    handling_charge_tax_rate:number handling_charge_including_tax:number tax_rate:number tax_amount:number tax_type:${S}
    associated_options:object:AssociatedOptions attributes:array:Attribute subscriptions:array:Subscription
    seller_id:${S} seller_detail:object:SellerDetail`,
  AssociatedOption: `name:${S} type:${S} value:object|string`,
  ColorValue: `name:${S} hexcode:${S}`,
  Attribute: `id:${S} name:${S} key:${S} type:${S} value:array:ColorValue`,
  Subscription: `id:${S} subscription_plan:${S} subscription_price:number billing_interval:number billing_limit:number
    order_interval:number order_limit:number minimum_quantity:number billing_trial_days:number billing_frequency:${S}
    order_frequency:${S} fulfill_separately:boolean`,
  SellerDetail: `id:${S} trade_name:${S} legal_name:${S} business_type:${S} tax_identification_number:${S}`,
  Pricing: `currency:${S} tax_type:${S} tax_rate:number price_including_tax:boolean listing_price:number selling_price:number
    selling_price_excluding_tax:number min_order_quantity:number max_order_quantity:number incremental_quantity:number`,
  Image: `id:${S} title:${S} alternate_text:${S} sort_order:number url_tiny:${S} url_thumbnail:${S} url_standard:${S} url_zoom:${S}`,
  Video: `title:${S} alternate_text:${S} sort_order:number video_duration:number video_preview_url:${S}
    video_stream_hls_url:${S} video_stream_dash_url:${S} image_thumbnail_url:${S}`,
  Promotion: `id:${S} starts_at:${S}:date-time expires_at:${S}:date-time details:object:PromotionDetails`,
  PromotionDetails: `promotion_type:${S} discount_type:${S} discount_percent:number discount_fixed_amount:number`,
  InventoryLot: `lot_batch:${S} manufacturer:${S} mfg_date:${S}:date exp_date:${S}:date stock_quantity:number`,
  VariantOption: `name:${S} key:${S} type:${S} value:array:string`,
  HandlingShipping: `handling_charges_including_tax:number handling_charges_excluding_tax:number tax_rate:number tax_type:${S}`,
  Seo: `slug:${S} title:${S} description:${S} keywords:array:string`,
  Category: `id:${S} name:${S} slug:${S} description:${S} parent_category_id:${S} product_count:number active:boolean`,
  Variant: `id:${S} product_id:${S} sku:${S} slug:${S} name:${S} product_name:${S} short_description:${S} description:${S}
    hsn_code:${S} product_type:${S} active:boolean stock_available:boolean on_promotion:boolean on_subscription:boolean
    is_default:boolean backorder:boolean associated_options:object:AssociatedOptions images:array:Image pricing:object:Pricing
    subscription:array:Subscription promotion:object:Promotion category_ids:array:string tags:array:string
    reviews_rating_sum:number reviews_count:number variant_options:array:VariantOption product_attributes:array:Attribute
    variant_attributes:array:Attribute videos:array:Video shipping:object:HandlingShipping seo:object:Seo metadata:object
    inventory:array:InventoryLot`,
  ProductVariant: `id:${S} product_id:${S} sku:${S} slug:${S} name:${S} product_name:${S} short_description:${S}
    product_type:${S} active:boolean stock_available:boolean on_promotion:boolean on_subscription:boolean is_default:boolean
    backorder:boolean associated_options:object:AssociatedOptions images:array:Image pricing:object:Pricing
    subscription:array:Subscription promotion:object:Promotion inventory:array:InventoryLot`,
  Product: `id:${S} sku:${S} name:${S} slug:${S} short_description:${S} product_type:${S} active:boolean stock_available:boolean
    on_subscription:boolean on_promotion:boolean has_variant:boolean backorder:boolean tags:array:string
    category_ids:array:string categories:array:Category reviews_rating_sum:number reviews_count:number
    attributes:array:Attribute pricing:object:Pricing variant_options:array:VariantOption promotion:object:Promotion
    images:array:Image subscription:array:Subscription variants:array:ProductVariant bundle_items:array:BundleItem
    inventory:array:InventoryLot`,
  SimilarProduct: `product_id:${S} variant_id:${S} sku:${S} slug:${S} product_name:${S} variant_name:${S} product_type:${S}
    short_description:${S} active:boolean stock_available:boolean on_subscription:boolean on_promotion:boolean backorder:boolean
    category_ids:array:string tags:array:string reviews_count:number reviews_rating_sum:number attributes:array:Attribute
    images:array:Image pricing:object:Pricing promotion:object:Promotion subscription:array:Subscription
    associated_options:object:AssociatedOptions seller_id:${S} seller_detail:object:SellerDetail
    shipping:object:HandlingShipping inventory:array:InventoryLot`,
  BundleItem: `quantity:number product_id:${S} variant_id:${S} sku:${S} slug:${S} product_name:${S} variant_name:${S}
    product_type:${S} short_description:${S} active:boolean stock_available:boolean on_subscription:boolean on_promotion:boolean
    backorder:boolean category_ids:array:string tags:array:string reviews_count:number reviews_rating_sum:number
    attributes:array:Attribute images:array:Image pricing:object:Pricing promotion:object:Promotion
    subscription:array:Subscription associated_options:object:AssociatedOptions seller_id:${S}
    seller_detail:object:SellerDetail shipping:object:HandlingShipping inventory:array:InventoryLot`,
  Order: `order_number:${S} order_date:${S}:date-time payment_success_date:${S}:date-time created_at:${S}:date-time
    modified_at:${S}:date-time status:${S} payment_status:${S} has_refund:boolean on_subscription:boolean grand_total:number
    loyalty_point_redeemed:number loyalty_point_earned:number credit_balance_used:number to_be_paid:number
    order_items_count:number customer_note:${S} currency:object:Currency order_items:array:OrderItem`,
  OrderItem: `product_id:${S} product_name:${S} product_image_url:${S} product_type:${S} sku:${S} slug:${S} variant_id:${S}
    variant_name:${S} subscription_plan:${S} subscription_frequency:${S} seller_id:${S} backorder:boolean on_promotion:boolean
    on_subscription:boolean is_free_item:boolean price_including_tax:boolean subscription_interval:number quantity:number
    free_quantity:number selling_price:number listing_price:number selling_price_excluding_tax:number
    promotion_discount_amount:number coupon_discount_amount:number tax_rate:number tax_amount:number
    handling_charge_excluding_tax:number handling_charge_tax_rate:number handling_charge_including_tax:number tax_type:${S}
    associated_options:object:AssociatedOptions attributes:array:Attribute seller_detail:object:SellerDetail`,
  Country: `id:${S} country_name:${S} country_code:${S} country_iso_code:${S} currency_code:${S} currency_symbol:${S}
    currency_name:${S} flag_icon_url:${S} country_alias:${S} continent:${S}`,
  SavedCard: `card_sub_type:${S} extended_card_type:${S} nickname:${S} provider_category:${S} vault_provider:${S}
    card_reference:${S} card_type:${S} card_issuer:${S} card_token:${S} health:${S} card_exp_month:${S} provider:${S}
    card_sub_type_category:${S} card_fingerprint:${S} gateway_bank_code:${S} card_exp_year:${S} name_on_card:${S}
    country_code:${S} card_number:${S} card_isin:${S} card_brand:${S} card_issuer_country:${S} mandate_support:boolean
    expired:boolean tokenize_support:boolean atm_pin_auth_support:boolean direct_otp_support:boolean
    metadata:object:SavedCardMetadata token:object:CardToken tokens:array:CardTokenEntry`,
  SavedCardMetadata: `origin_customer_id:${S} origin_merchant_id:${S}`,
  CardToken: `tokenization_status:${S} last_four_digits:${S} vault_provider:${S} par:${S} card_reference:${S}
    expiry_month:${S} card_fingerprint:${S} provision_token_id:${S} card_isin:${S} expiry_year:${S}
    support_token_transaction:boolean cvv_less_support:boolean token_supported_gateways:array:string
    cvv_less_supported_gateways:array:string cvv_less_details:array:CvvLessDetail`,
  CvvLessDetail: `gateway:${S} gateway_reference_ids:array:string`,
  CardTokenEntry: `tokenization_status:${S} last_four_digits:${S} provider_category:${S} vault_provider:${S} par:${S}
    card_reference:${S} card_token:${S} expiry_month:${S} card_fingerprint:${S} provision_token_id:${S} card_isin:${S}
    expiry_year:${S}`,
  ApplicableCoupon: `id:${S} name:${S} coupon_type:${S} coupon_code:array:string estimated_discount:number savings_message:${S}`,
  InapplicableCoupon: `id:${S} name:${S} reason:${S} suggestion:${S} coupon_type:${S} coupon_code:array:string`,
  FulfillmentOptions: `summary:object:FulfillmentSummary collect:array:StoreOption deliver:object:DeliveryOptions`,
  FulfillmentSummary: `collect_available:boolean deliver_available:boolean recommended_fulfillment_type:${S}
    recommended_store:object:StoreOption`,
  DeliveryOptions: `is_serviceable:boolean shipping_methods:array:ShippingMethod`,
  ShippingMethod: `id:${S} name:${S} shipping_type:${S} shipping_amount:${S} estimated_delivery_days:${S}
    courier_companies:array:CourierCompany`,
  StoreOption: `id:${S} name:${S} distance_km:number collect_eta_minutes:number is_recommended:boolean`,
  CourierCompany: `id:${S} name:${S} shipping_amount:number rating:number estimated_delivery_days:${S} is_recommended:boolean
    is_hyperlocal:boolean mode:${S}`,
};

const fieldRows: Array<[string, string, string, string | undefined]> = Object.entries(fieldSpec).flatMap(([title, spec]) =>
  spec
    .trim()
    .split(/\s+/)
    .map((token) => {
      const [field, type, detail] = token.split(':');
      return [title, field, type, detail] as [string, string, string, string | undefined];
    }),
);

// Request-only shapes have no `required` list; everything else is a response object (SF-011).
const REQUEST_ONLY = new Set(['Address', 'Business']);
// Listed fields that may be absent (SF-024: inventory only when asked for).
const OPTIONAL = new Set(['inventory']);

describe('fields of seed 2.1 to 2.16', () => {
  it.each(fieldRows)('%s.%s is %s %s', (title, field, type, detail) => {
    const s = shape(schema(title));
    const prop = s.properties[field];
    expect(prop, `${title}.${field}`).toBeDefined();
    const { types, branch } = typesOf(prop);
    expect(types).toEqual(type.split('|').sort());
    if (!type.includes('|')) expect(detailOf(branch, type)).toBe(detail);
    if (!REQUEST_ONLY.has(title) && !OPTIONAL.has(field)) expect(s.required.has(field), `${title}.${field} required`).toBe(true);
  });

  it('lists no field the seed does not state (per schema, beyond the fields above)', () => {
    for (const [title, spec] of Object.entries(fieldSpec)) {
      const listed = spec.trim().split(/\s+/).map((t) => t.split(':')[0]).sort();
      expect(Object.keys(shape(schema(title)).properties).sort(), title).toEqual(listed);
    }
  });

  it.each([
    ['User', 'is_email_verified', false],
    ['User', 'is_phone_verified', false],
    ['Subscription', 'fulfill_separately', false],
    ['Pricing', 'min_order_quantity', 1],
    ['Pricing', 'incremental_quantity', 1],
  ])('%s.%s defaults to %s', (title, field, value) => {
    expect(shape(schema(title)).properties[field].default).toBe(value);
  });

  it('keys AssociatedOptions by option key, each entry an AssociatedOption', () => {
    const s = schema('AssociatedOptions');
    expect(s.type).toBe('object');
    expect(s.additionalProperties.title).toBe('AssociatedOption');
    const value = s.additionalProperties.properties.value;
    expect(value.oneOf.map((b: Schema) => b.title ?? b.type).sort()).toEqual(['ColorValue', 'string']);
  });

  it('keeps the variant record of a product to the Variant fields minus the ones the seed removes', () => {
    const removed = ['description', 'hsn_code', 'videos', 'shipping', 'seo', 'metadata', 'tags', 'category_ids',
      'reviews_rating_sum', 'reviews_count', 'variant_options', 'product_attributes', 'variant_attributes'];
    const variant = Object.keys(shape(schema('Variant')).properties);
    const productVariant = Object.keys(shape(schema('ProductVariant')).properties);
    expect(productVariant.sort()).toEqual(variant.filter((f) => !removed.includes(f)).sort());
  });

  it('gives quantity to bundle items only', () => {
    expect(shape(schema('SimilarProduct')).properties.quantity).toBeUndefined();
    expect(shape(schema('BundleItem')).properties.quantity.type).toBe('number');
  });

  it('closes no enum on the string fields whose values the seed only shows', () => {
    const open: Array<[string, string]> = [
      ['Cart', 'status'], ['Order', 'status'], ['Order', 'payment_status'], ['CartItem', 'tax_type'], ['Pricing', 'tax_type'],
      ['AppliedPromotion', 'promotion_type'], ['AppliedCoupon', 'coupon_type'], ['CartItem', 'product_type'],
      ['Attribute', 'type'], ['AssociatedOption', 'type'], ['VariantOption', 'type'], ['Subscription', 'billing_frequency'],
      ['Subscription', 'order_frequency'], ['FulfillmentPreference', 'preference_type'],
      ['FulfillmentSummary', 'recommended_fulfillment_type'], ['ShippingMethod', 'shipping_type'], ['CourierCompany', 'mode'],
      ['PromotionDetails', 'promotion_type'], ['PromotionDetails', 'discount_type'], ['ApplicableCoupon', 'coupon_type'],
    ];
    for (const [title, field] of open) {
      const prop = shape(schema(title)).properties[field];
      expect(prop.enum, `${title}.${field}`).toBeUndefined();
      expect(prop.const, `${title}.${field}`).toBeUndefined();
    }
  });
});

// ----------------------------------------------------------------- envelope and content (seed 2.1, 4)

const contentKeys: Record<string, string[]> = {
  createAnonymousUser: ['user', 'access_token', 'refresh_token'],
  getFulfillmentOptions: ['summary', 'collect', 'deliver'],
  startPosPhoneLogin: ['otp_token', 'otp_action'],
  getPosCart: ['cart'],
  getVariant: ['variant'],
  listCustomerCards: ['cards'],
  evaluateCartCoupons: ['applicable_coupons', 'inapplicable_coupons'],
  listCountries: ['countries'],
  listProducts: ['products', 'pagination'],
  listSimilarProducts: ['products', 'pagination'],
  listOrders: ['orders', 'pagination'],
  createCustomer: ['customer_detail'],
};

const responses = [...ops].flatMap(([id, { op }]) =>
  Object.entries<Schema>(op.responses).map(([status, response]) => [id, status, response] as [string, string, Schema]),
);

describe('responses', () => {
  it.each(responses)('%s %s carries the envelope {success, message, content}', (_id, status, response) => {
    const s = shape(response.content['application/json'].schema);
    for (const field of ['success', 'message', 'content']) expect(s.required.has(field), field).toBe(true);
    expect(s.properties.success.type).toBe('boolean');
    expect(s.properties.success.const).toBe(status.startsWith('2'));
    expect(s.properties.message.type).toBe('string');
    expect(typesOf(s.properties.content).types).toEqual(['object']);
  });

  it.each(Object.entries(contentKeys))('%s returns content keys %j', (id, keys) => {
    const op = ops.get(id)!.op;
    const success = Object.keys(op.responses).filter((s) => s.startsWith('2'));
    expect(success).toHaveLength(1);
    const content = shape(shape(op.responses[success[0]].content['application/json'].schema).properties.content);
    for (const key of keys) expect(content.required.has(key), `${id} content.${key}`).toBe(true);
  });

  it.each([
    ['createAnonymousUser', 'user', 'object', 'User'],
    ['createAnonymousUser', 'access_token', 'string', undefined],
    ['createAnonymousUser', 'refresh_token', 'string', undefined],
    ['startPosPhoneLogin', 'otp_token', 'string', undefined],
    ['startPosPhoneLogin', 'otp_action', 'string', undefined],
    ['getPosCart', 'cart', 'object', 'Cart'],
    ['getVariant', 'variant', 'object', 'Variant'],
    ['listCustomerCards', 'cards', 'array', 'SavedCard'],
    ['evaluateCartCoupons', 'applicable_coupons', 'array', 'ApplicableCoupon'],
    ['evaluateCartCoupons', 'inapplicable_coupons', 'array', 'InapplicableCoupon'],
    ['listCountries', 'countries', 'array', 'Country'],
    ['listProducts', 'products', 'array', 'Product'],
    ['listSimilarProducts', 'products', 'array', 'SimilarProduct'],
    ['listOrders', 'orders', 'array', 'Order'],
    ['createCustomer', 'customer_detail', 'object', 'CustomerDetail'],
  ])('%s content.%s is %s %s', (id, key, type, detail) => {
    const op = ops.get(id)!.op;
    const status = Object.keys(op.responses).find((s) => s.startsWith('2'))!;
    const content = shape(shape(op.responses[status].content['application/json'].schema).properties.content);
    const { types, branch } = typesOf(content.properties[key]);
    expect(types).toEqual([type]);
    expect(detailOf(branch, type)).toBe(detail);
  });

  it('returns the fulfillment options of 2.16 as the content of getFulfillmentOptions', () => {
    const op = ops.get('getFulfillmentOptions')!.op;
    expect(shape(op.responses['200'].content['application/json'].schema).properties.content.title).toBe('FulfillmentOptions');
  });

  it.each(['listProducts', 'listSimilarProducts', 'listOrders'])('%s returns content.pagination', (id) => {
    const op = ops.get(id)!.op;
    const content = shape(shape(op.responses['200'].content['application/json'].schema).properties.content);
    expect(content.required.has('pagination')).toBe(true);
    expect(content.properties.pagination.title).toBe('Pagination');
  });

  it('answers failures with success false and a machine-readable error', () => {
    const error = schema('ErrorEnvelope');
    expect(error.properties.success.const).toBe(false);
    expect(shape(error.properties.content).required.has('error')).toBe(true);
  });
});
