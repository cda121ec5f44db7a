// The pure pieces of the docs build, without a browser: field rows of the event tables (allOf merged),
// the provenance badges handed to Redoc, and the post-processing of Redoc's page.
import { describe, expect, it } from 'vitest';
import { PROVENANCE } from '../../scripts/docs/provenance.js';
import { applyBadges, finishRedocPage } from '../../scripts/docs/references.js';
import { fieldRows, typeLabel } from '../../scripts/docs/schema-rows.js';
import { redocRoute } from '../../scripts/docs/search-index.js';

const envelope = {
  type: 'object',
  required: ['event', 'payload'],
  properties: {
    event: { type: 'string', description: 'Event name.' },
    payload: { type: 'object', required: ['properties'], properties: { properties: { type: 'object' } } },
  },
};

describe('event field rows', () => {
  it('merges allOf: the envelope narrowed to one event reads as one object, nested fields included', () => {
    const message = {
      allOf: [
        envelope,
        { type: 'object', properties: { event: { const: 'order.created' }, payload: { properties: { properties: { type: 'object', required: ['order_number'], properties: { order_number: { type: 'string' } } } } } } },
      ],
    };
    const rows = fieldRows(message, { event: 'order.created', payload: { properties: { order_number: 'SO-1' } } });
    expect(rows.map((r) => [r.path, r.type, r.required, r.example])).toEqual([
      ['event', '"order.created"', true, '"order.created"'],
      ['payload', 'object', true, undefined],
      ['payload.properties', 'object', true, undefined],
      ['payload.properties.order_number', 'string', true, '"SO-1"'],
    ]);
    expect(rows[0].description).toBe('Event name.');
  });

  it.each([
    ['nullable anyOf', { anyOf: [{ type: 'object', properties: {} }, { type: 'null' }] }, 'object | null'],
    ['type list with null', { type: ['string', 'null'], format: 'date-time' }, 'string (date-time) | null'],
    ['array of objects', { type: 'array', items: { type: 'object' } }, 'array of object'],
    ['enum', { type: 'string', enum: ['a', 'b'] }, 'string, one of "a", "b"'],
    ['oneOf', { oneOf: [{ type: 'object', properties: {} }, { type: 'string' }] }, 'object or string'],
  ])('types a %s', (_name, schema, want) => {
    expect(typeLabel(schema)).toBe(want);
  });

  it('keeps provenance on the row of a stamped field and names additionalProperties keys', () => {
    const rows = fieldRows({ type: 'object', properties: { shade: { type: 'string', [PROVENANCE]: { kind: 'stated' } } }, additionalProperties: { type: 'string' } }, { shade: 'red', X: 'y' });
    expect(rows.map((r) => [r.path, r.provenance?.kind, r.example])).toEqual([
      ['shade', 'stated', '"red"'],
      ['{key}', undefined, '"y"'],
    ]);
  });
});

describe('Redoc pages', () => {
  it('appends badges (plain words for servers) and drops the machine markers', () => {
    const doc: any = {
      servers: [{ url: 'x', description: 'A server.', [PROVENANCE]: { kind: 'designed', entry: { id: 'AD-001', title: 'Base path', anchor: 'ad-001-base-path' } } }],
      components: { schemas: { A: { description: 'A thing.', 'x-contract-source': 'seed', [PROVENANCE]: { kind: 'stated' } } } },
    };
    applyBadges(doc);
    expect(doc.servers[0].description).toBe('A server. Designed here (register AD-001).');
    expect(doc.components.schemas.A).toEqual({ description: 'A thing.\n\n*Stated by the platform.*' });
  });

  it('serves Redoc from assets, turns server-rendered sidebar paths into hash routes and inserts the header', () => {
    const html = `<head><!-- site-head --><link rel="modulepreload" href="https://cdn.redocly.com/redoc/v3.0.1/bundles/redoc.standalone.js" integrity="sha384-old" crossorigin="anonymous" /></head>
<body><!-- site-header --><a class="x" href="/catalog" data-discover="true">Catalog</a><a href="/" data-discover="true">Home</a>
<script type="module">import { hydrate } from "https://cdn.redocly.com/redoc/v3.0.1/bundles/redoc.standalone.js";</script></body>`;
    const out = finishRedocPage(html, '<header>H</header>', '<link rel="stylesheet" href="../assets/header.css">', 'sha384-new');
    expect(out).not.toContain('cdn.redocly.com');
    expect(out).toContain('integrity="sha384-new"');
    expect(out).toContain('href="#/catalog" data-discover="true"');
    expect(out).toContain('href="#/" data-discover="true"');
    expect(out).toContain('<body><header>H</header>');
    expect(out).not.toContain('<!--');
  });

  it.each([
    ['Catalog', 'listProducts', '#/catalog/listproducts'],
    ['Webhook deliveries', 'retryWebhookDelivery', '#/webhook-deliveries/retrywebhookdelivery'],
  ])('routes %s %s to %s', (tag, op, want) => {
    expect(redocRoute(tag, op)).toBe(want);
  });
});
