// Issue 39 item 5: the sandbox renders its answers from the schemas' property lists, not from a field list
// kept by hand. A property is derived from the world (render.ts names those) or copied from the record; a
// property the record holds but the schema does not list is never shown; a property added to a schema is
// shown as soon as a record holds it, with no other touch. The lists are read from the contract here the
// way the docs read it, so a schema change is seen by this test as by the sandbox.
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { mergeAllOf } from '../../workbench/contract/schema.js';
import { compile } from '../../workbench/mock/ajv.js';
import { AssetUrls } from '../../workbench/sandbox/asset-urls.js';
import { DERIVED, renderBundleItem, renderCategory, renderProduct, renderProductVariant, renderSimilar, renderVariant } from '../../workbench/sandbox/render.js';
import { generateWorld } from '../../workbench/sandbox/seed.js';
import { RENDERED_SHAPES, loadTemplates, templates, type RenderedShape } from '../../workbench/sandbox/templates.js';
import type { ProductRecord, VariantRecord } from '../../workbench/sandbox/types.js';
import { World } from '../../workbench/sandbox/world.js';

const STORE = 'render-store';
const SCHEMAS = path.join(import.meta.dirname, '../../spec/openapi/components/schemas');
/** Each rendered schema, dereferenced from its own file in spec/ (not through the contract model the sandbox reads). */
const schemas = Object.fromEntries(
  await Promise.all(RENDERED_SHAPES.map(async (name) => [name, (await $RefParser.dereference(path.join(SCHEMAS, `${name}.yaml`))) as Record<string, unknown>] as const))
) as Record<RenderedShape, Record<string, unknown>>;
const schemaProperties = (name: RenderedShape) => Object.keys((mergeAllOf(schemas[name]).properties as object) ?? {});

let world: World;
let product: ProductRecord;
let bundle: ProductRecord;
let variant: VariantRecord;

beforeAll(async () => {
  await loadTemplates();
  const assets = new AssetUrls('http://sandbox.test', STORE);
  world = new World(STORE, generateWorld({ seed: 1, storeId: STORE, catalogSize: 12, assets }, {}), assets);
  product = [...world.products.values()].find((p) => p.variants.length > 1)!;
  bundle = [...world.products.values()].find((p) => p.bundle_items.length > 0)!;
  variant = product.variants[0];
  expect(product && bundle && variant, 'the seeded world has a product with variants and a bundle').toBeTruthy();
});

/** Every shape rendered, with the record each copies from. */
const renders = (inventory: boolean): Array<[RenderedShape, Record<string, unknown>, object]> => {
  const ctx = { inventory };
  const item = bundle.bundle_items[0];
  const ref = world.variantOf(item.product_id, item.variant_id)!;
  const category = world.categories.get(product.category_ids[0])!;
  return [
    ['Product', renderProduct(world, product, ctx) as never, product],
    ['ProductVariant', renderProductVariant(world, product, variant, ctx) as never, variant],
    ['Variant', renderVariant(world, product, variant, ctx) as never, variant],
    ['Category', renderCategory(world, category) as never, category],
    ['SimilarProduct', renderSimilar(world, product, variant, ctx) as never, variant],
    ['BundleItem', renderBundleItem(world, item.product_id, item.variant_id, item.quantity, ctx) as never, ref.variant],
  ];
};

describe('issue 39 item 5: answers rendered from the schema', () => {
  it('reads every rendered shape from the contract, in the schema order', () => {
    for (const shape of RENDERED_SHAPES) expect(templates().shapes[shape], shape).toEqual(schemaProperties(shape));
  });

  it('derives only properties its schema lists (a stale derivation is named)', () => {
    for (const shape of RENDERED_SHAPES) {
      const unknown = [...DERIVED[shape]].filter((name) => !schemaProperties(shape).includes(name));
      expect(unknown, `${shape}: render.ts derives properties the schema does not list`).toEqual([]);
    }
  });

  it.each([true, false])('renders each shape valid against its schema, in its order, the rest copied from the record (inventory %s)', (inventory) => {
    for (const [shape, answer, record] of renders(inventory)) {
      const valid = compile(schemas[shape]);
      expect(valid(answer) ? [] : valid.errors, shape).toEqual([]);
      const order = schemaProperties(shape).filter((name) => name in answer);
      expect(Object.keys(answer), `${shape}: keys in the schema's order`).toEqual(order);
      expect('inventory' in answer, `${shape}: inventory only when asked`).toBe(inventory && shape !== 'Category');
      for (const name of Object.keys(answer)) {
        if (DERIVED[shape].has(name)) continue;
        expect(answer[name], `${shape}.${name} is the record's own value`).toBe((record as Record<string, unknown>)[name]);
      }
    }
  });

  it('shows a property a record holds only when its schema lists it: adding it to the schema is the only touch', () => {
    const extra = 'x_render_probe';
    (product as Record<string, unknown>)[extra] = 'kept beside the record';
    (variant as Record<string, unknown>)[extra] = 'kept beside the variant';
    try {
      for (const [shape, answer] of renders(false)) expect(answer, shape).not.toHaveProperty(extra);
      // What `npm run generate` and a restart give the sandbox when Product.yaml and Variant.yaml gain the property.
      const shapes = templates().shapes as Record<RenderedShape, string[]>;
      const before = { ...shapes };
      for (const shape of ['Product', 'Variant'] as const) shapes[shape] = [...shapes[shape], extra];
      try {
        const shown = Object.fromEntries(renders(false).map(([shape, answer]) => [shape, answer[extra]]));
        expect(shown).toEqual({
          Product: 'kept beside the record',
          Variant: 'kept beside the variant',
          ProductVariant: undefined,
          Category: undefined,
          SimilarProduct: undefined,
          BundleItem: undefined,
        });
      } finally {
        Object.assign(shapes, before);
      }
    } finally {
      delete (product as Record<string, unknown>)[extra];
      delete (variant as Record<string, unknown>)[extra];
    }
  });

  it('leaves out an optional property the record does not hold, and keeps what the sandbox stores beside the contract out', () => {
    const seller = product.variants.find((v) => v.seller_id !== undefined) ?? variant;
    const answer = renderVariant(world, product, seller, {
      inventory: false,
    }) as unknown as Record<string, unknown>;
    expect(answer).not.toHaveProperty('seller_id');
    expect(answer).not.toHaveProperty('inventory');
    const similar = renderSimilar(world, product, { ...variant, seller_id: undefined, seller_detail: undefined }, { inventory: false }) as unknown as Record<string, unknown>;
    expect(similar.seller_id, 'a listed nullable property the record lacks is null, as the schema requires').toBeNull();
  });
});
