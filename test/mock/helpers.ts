// Shared by the mock tests: start the real server on a free loopback port, call it over HTTP, and
// judge answers against the contract (Ajv 2020 compiled here from the dereferenced spec, independent
// of the mock's own validator).
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { createRequire } from 'node:module';
import net from 'node:net';
import { send, startMockServer } from '../helpers/adapter.js';
import type { Reply } from '../helpers/http-reply.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import { documents } from '../../scripts/lib/repo.js';
import type { MockServer, MockServerOptions } from '../../workbench/adapters/node-http.js';

const require = createRequire(import.meta.url);
const addFormats = require('ajv-formats') as (ajv: Ajv2020) => Ajv2020;

export const STORE = 'demo-store';
export const API_KEY = 'sk_test_4f9a1c2e';
export const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.mock.token';

export async function startMock(options: MockServerOptions = {}): Promise<MockServer> {
  return startMockServer({ port: 0, host: '127.0.0.1', quiet: true, ...options });
}

export type { Reply };

export async function call(
  base: string,
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Reply> {
  return send(`${base}${path}`, { method, headers: init.headers, body: init.body });
}

export function storefront(server: MockServer, store = STORE): string {
  return `${server.url}/api/v1/${store}/storefront`;
}

export const bearer = (token = TOKEN) => ({ authorization: `Bearer ${token}` });
export const apiKey = (key = API_KEY) => ({ 'x-api-key': key });
export const json = { 'content-type': 'application/json' };

export interface Contract {
  doc: any;
  operation(method: string, path: string): any;
  /** Validates a body against the documented response schema of that status; returns Ajv errors. */
  check(method: string, path: string, status: number, body: unknown): string[];
  firstExample(method: string, path: string, status: number): unknown;
  requestExample(method: string, path: string): unknown;
}

let contract: Promise<Contract> | undefined;

export function loadContract(): Promise<Contract> {
  contract ??= (async () => {
    const doc: any = await $RefParser.dereference(documents.storefront, { dereference: { circular: 'ignore' } });
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const cache = new Map<object, ValidateFunction>();
    const operation = (method: string, path: string) => {
      const op = doc.paths?.[path]?.[method.toLowerCase()];
      if (!op) throw new Error(`spec has no ${method} ${path}`);
      return op;
    };
    const content = (method: string, path: string, status: number) => {
      const response = operation(method, path).responses?.[String(status)];
      if (!response) throw new Error(`spec does not document ${status} for ${method} ${path}`);
      return response.content['application/json'];
    };
    return {
      doc,
      operation,
      check(method, path, status, body) {
        const schema = content(method, path, status).schema;
        let validate = cache.get(schema);
        if (!validate) {
          validate = ajv.compile(schema);
          cache.set(schema, validate);
        }
        return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
      },
      firstExample(method, path, status) {
        const c = content(method, path, status);
        return Object.values<any>(c.examples ?? {})[0]?.value ?? c.example;
      },
      requestExample(method, path) {
        const c = operation(method, path).requestBody?.content?.['application/json'];
        return c ? Object.values<any>(c.examples ?? {})[0]?.value ?? c.example : undefined;
      },
    };
  })();
  return contract;
}

export type Auth = 'apiKey' | 'bearer';

/** Every storefront endpoint of seed section 4, with a valid call. Path is the spec's template. */
export const ENDPOINTS: Array<{ name: string; method: string; template: string; path: string; auth: Auth; body?: boolean; status: number }> = [
  { name: 'createAnonymousUser', method: 'POST', template: '/auth/anonymous', path: '/auth/anonymous', auth: 'apiKey', status: 200 },
  { name: 'getFulfillmentOptions', method: 'POST', template: '/shipping/fulfillment-options', path: '/shipping/fulfillment-options', auth: 'bearer', body: true, status: 200 },
  { name: 'startPosPhoneLogin', method: 'POST', template: '/pos/auth/login/phone', path: '/pos/auth/login/phone', auth: 'apiKey', body: true, status: 200 },
  { name: 'getPosCart', method: 'GET', template: '/pos/carts/{id}', path: '/pos/carts/cart_1', auth: 'bearer', status: 200 },
  { name: 'getVariant', method: 'GET', template: '/catalog/products/{product_id}/variants/{variant_id}', path: '/catalog/products/prd_1/variants/var_1?inventory=true', auth: 'bearer', status: 200 },
  { name: 'listCustomerCards', method: 'GET', template: '/customers/{customer_id}/cards', path: '/customers/cst_1/cards', auth: 'bearer', status: 200 },
  { name: 'evaluateCartCoupons', method: 'GET', template: '/pos/carts/{id}/evaluate-coupons', path: '/pos/carts/cart_1/evaluate-coupons', auth: 'bearer', status: 200 },
  { name: 'listCountries', method: 'GET', template: '/common/countries', path: '/common/countries', auth: 'bearer', status: 200 },
  { name: 'listProducts', method: 'GET', template: '/catalog/products', path: '/catalog/products?page=1&limit=2&sort_by=%7B%22selling_price%22%3A%22asc%22%7D&category_id=a&category_id=b', auth: 'bearer', status: 200 },
  { name: 'listSimilarProducts', method: 'GET', template: '/pos/catalog/products/similar', path: '/pos/catalog/products/similar?product_id=prd_1&limit=2', auth: 'bearer', status: 200 },
  { name: 'listOrders', method: 'GET', template: '/orders', path: '/orders?user_id=usr_1&page=1&limit=10&status=draft', auth: 'bearer', status: 200 },
  { name: 'createCustomer', method: 'POST', template: '/customers', path: '/customers', auth: 'bearer', body: true, status: 201 },
];

/** Writes raw bytes, returns everything the server sent before closing (or timeoutMs of silence). */
export function rawExchange(port: number, data: string | Buffer, timeoutMs = 2000): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const finish = () => {
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('latin1'));
    };
    socket.setTimeout(timeoutMs, finish);
    socket.on('data', (c) => {
      chunks.push(c);
      // One answer is enough: stop once a full response (headers + declared body) has arrived.
      const text = Buffer.concat(chunks).toString('latin1');
      const m = /content-length: (\d+)/i.exec(text);
      const headEnd = text.indexOf('\r\n\r\n');
      if (m && headEnd >= 0 && Buffer.byteLength(text.slice(headEnd + 4), 'latin1') >= Number(m[1])) finish();
    });
    socket.on('error', finish);
    socket.on('close', finish);
    socket.write(data);
  });
}
