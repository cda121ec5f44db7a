// What TypeScript checks on the typed client, as the quickstart states it (docs/guides/quickstart.md,
// "What TypeScript checks"). Type-checked by test/docs/guides-run.test.ts, never run: every line under a
// `@ts-expect-error` must fail to compile (else "unused directive"), every other line must compile. When
// openapi-fetch starts (or stops) catching one of these, this file fails and the guide's table changes.
import { createStorefrontClient } from 'storefront-contract';

const client = createStorefrontClient({ baseUrl: 'http://127.0.0.1:4010', storeId: 'demo-store' });

export async function checked(): Promise<void> {
  // @ts-expect-error the path does not exist
  await client.GET('/catalog/product');
  // @ts-expect-error a required query parameter (user_id) is missing
  await client.GET('/orders', { params: { query: {} } });
  // @ts-expect-error a parameter of the wrong type
  await client.GET('/catalog/products', { params: { query: { page: '1' } } });
  // @ts-expect-error a required body field (country_code) is missing
  await client.POST('/pos/auth/login/phone', { body: { location_id: 'loc_BLR_IND', phone: '9876543210' } });
  // @ts-expect-error an object of only unknown keys
  await client.GET('/catalog/products', { params: { query: { pgae: 1 } } });
  const { data } = await client.GET('/common/countries');
  // @ts-expect-error a misspelled response field is `unknown` (the envelope's content allows any key): using it fails
  data?.content.countriess.map((c: unknown) => c);
}

export async function notChecked(): Promise<void> {
  // A misspelled optional parameter next to a correct one compiles.
  await client.GET('/catalog/products', { params: { query: { page: 1, limti: 5 } } });
  // So does an unknown body field beside the required ones.
  await client.POST('/pos/auth/login/phone', { body: { location_id: 'loc_BLR_IND', phone: '9876543210', country_code: '+91', debugg: true } });
  // Reading a misspelled response field compiles too: it is `unknown`, not an error.
  const { data } = await client.GET('/common/countries');
  const misspelled: unknown = data?.content.countriess;
  void misspelled;
}
