// Type tests of createWorkbenchClient (storefront-contract/workbench), compiled by client-types.test.ts
// under the app flags: a path the workbench API's document lacks, a body field of the wrong type and a
// missing path parameter do not compile (expect-error directives, which fail when unused); the right call
// does, and its answer reads as the document's.
import { createWorkbenchClient, type WorkbenchClient } from 'storefront-contract/workbench';

const client: WorkbenchClient = createWorkbenchClient({ baseUrl: 'http://127.0.0.1:4010' });
const store = { path: { store_id: 'demo-store' } };

export async function calls(): Promise<void> {
  const moved = await client.POST('/stores/{store_id}/inventory', { params: store, body: { product_id: 'prd_7Q2K9X', stock_quantity: 7 } });
  if (moved.data) moved.data.success satisfies boolean;
  if (moved.error) moved.error.content.error.code satisfies string;
  const clock = await client.GET('/stores/{store_id}/clock', { params: store });
  if (clock.data) clock.data.content.wall_clock satisfies boolean;

  // @ts-expect-error: no such path in the workbench API
  void client.GET('/stores/{store_id}/nothing-here', { params: store });
  // @ts-expect-error: stock_quantity is a number
  void client.POST('/stores/{store_id}/inventory', { params: store, body: { product_id: 'p', stock_quantity: 'seven' } });
  // @ts-expect-error: the store is a path parameter the call must give
  void client.GET('/stores/{store_id}/clock', {});
}
