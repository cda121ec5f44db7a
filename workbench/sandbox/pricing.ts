// The customer-group rule (seed 4.1, the `x-customer-group-id` header of listProducts, getVariant and
// listSimilarProducts): a valid group id with data for the item gives that group's pricing, promotion and
// subscription rates; otherwise the default group's data; when the default group has none either, the
// highest applicable price (the highest selling price among the item's own price and every group's).
import type { CustomerGroup, GroupPrice, Pricing, Promotion, Subscription } from './types.js';

export interface PriceInputs {
  pricing: Pricing;
  promotion: Promotion | null;
  subscription: Subscription[];
}

export interface ResolvedPrice extends PriceInputs {
  /** Which branch of the rule gave the answer (shown in /__simulator/... and used by the tests). */
  source: 'group' | 'default-group' | 'highest';
  groupId: string | null;
}

/** What keys a product-level price (no variant): any text that is no variant id. */
// Stryker disable next-line StringLiteral: '' or any other text that is no variant id keys product-level prices the same
const PRODUCT_LEVEL = '';
const key = (productId: string, variantId: string | null) => `${productId}\u0000${variantId ?? PRODUCT_LEVEL}`;

export class PriceBook {
  readonly groups = new Map<string, CustomerGroup>();
  readonly defaultGroupId: string | null;
  private readonly entries = new Map<string, Map<string, GroupPrice>>();
  private readonly byItem = new Map<string, Array<{ groupId: string; price: GroupPrice }>>();

  constructor(groups: readonly CustomerGroup[]) {
    for (const group of groups) {
      this.groups.set(group.id, group);
      const prices = new Map<string, GroupPrice>();
      for (const price of group.prices) {
        const k = key(price.product_id, price.variant_id);
        prices.set(k, price);
        const list = this.byItem.get(k) ?? [];
        list.push({ groupId: group.id, price });
        this.byItem.set(k, list);
      }
      this.entries.set(group.id, prices);
    }
    this.defaultGroupId = groups.find((g) => g.is_default)?.id ?? null;
  }

  /** True when the id names a group of this store (the rule's "valid customer group id"). */
  has(groupId: string | undefined): boolean {
    return groupId !== undefined && this.groups.has(groupId);
  }

  resolve(productId: string, variantId: string | null, own: PriceInputs, groupId?: string): ResolvedPrice {
    const k = key(productId, variantId);
    if (groupId !== undefined) {
      const hit = this.entries.get(groupId)?.get(k);
      if (hit) return apply(own, hit, 'group', groupId);
    }
    if (this.defaultGroupId !== null) {
      const hit = this.entries.get(this.defaultGroupId)?.get(k);
      if (hit) return apply(own, hit, 'default-group', this.defaultGroupId);
    }
    let best: ResolvedPrice = { ...own, source: 'highest', groupId: null };
    for (const { groupId: g, price } of this.byItem.get(k) ?? []) {
      if (price.pricing.selling_price > best.pricing.selling_price) best = apply(own, price, 'highest', g);
    }
    return best;
  }
}

function apply(own: PriceInputs, price: GroupPrice, source: ResolvedPrice['source'], groupId: string): ResolvedPrice {
  return {
    pricing: price.pricing,
    promotion: price.promotion !== undefined ? price.promotion : own.promotion,
    subscription: price.subscription ?? own.subscription,
    source,
    groupId,
  };
}
