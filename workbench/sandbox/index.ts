// The stateful sandbox behind the storefront API: createSandbox() builds it and returns the workbench
// extension that plugs it into the pipeline (the twelve storefront operations answered live from a seeded
// world per store, the back office under /__simulator/stores/{store_id}/..., and strict bearer auth), plus
// the lines the start-up banner prints. createWorkbench() (workbench/index.ts) composes it with the
// webhook simulator, which delivers the events its writes raise. See README.md in this folder.
import type { WorkbenchExtension } from '../http/extension.js';
import { backOfficeRoutes, BACK_OFFICE_ROUTES, summary } from './back-office.js';
import { assetRoutes, ASSET_ROUTES } from './images.js';
import { sandboxOperations } from './operations.js';
import { Sandbox, type SandboxOptions } from './sandbox.js';

export { Sandbox, BACK_OFFICE_ROUTES, ASSET_ROUTES, type SandboxOptions };
export { assetOrigin } from './asset-urls.js';
export type { EventActor, EventSink, RaisedEvent } from './events.js';
export { FixtureError } from './fixtures.js';

export interface SandboxHandle {
  sandbox: Sandbox;
  extension: WorkbenchExtension;
  /** A few lines for the start-up banner: the seeded ids of a store, where the world is kept, how auth behaves. */
  describe(storeId?: string): string[];
  close(): void;
}

/** The workbench extension of a sandbox: live storefront operations, back-office routes, token judgement. */
export function sandboxExtension(sandbox: Sandbox): WorkbenchExtension {
  return {
    operations: sandboxOperations(sandbox),
    controlRoutes: backOfficeRoutes(sandbox),
    // The world's images, which pages on any origin load (images.ts says why they are not under /__simulator).
    assetRoutes: assetRoutes(sandbox),
    // Back-office answers and storefront writes wait for the events they raise to be durable.
    settled: () => sandbox.settled(),
    // Every storefront bearer operation, answered by the sandbox or by Prism (`Prefer`): a token opens
    // only the store that issued it.
    judgeToken: (schemeId, token, { api, storeId }) => {
      if (api !== 'storefront' || schemeId !== 'bearerAuth') return undefined;
      const identity = sandbox.identities.resolve(token);
      if (identity && identity.store_id !== storeId && !sandbox.lenientAuth) {
        return `this access token was issued for store "${identity.store_id}": get one for this store from POST /auth/anonymous`;
      }
      if (identity) return true;
      // Lenient: leave it to the workbench, which accepts any well-formed token.
      if (sandbox.lenientAuth) return undefined;
      return 'unknown access token: the sandbox accepts only tokens it issued (POST /auth/anonymous with X-Api-Key); start it with --lenient-auth to accept any';
    },
  };
}

export async function createSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const sandbox = await Sandbox.create(options);
  return {
    sandbox,
    extension: sandboxExtension(sandbox),
    describe(storeId = 'demo-store') {
      const s = summary(sandbox, storeId);
      const ids = (list: Array<{ id: string }>, n = 6) => `${list.slice(0, n).map((x) => x.id).join(' ')}${list.length > n ? ` (+${list.length - n})` : ''}`;
      const users = s.users_with_orders.slice(0, 4).map((u) => `${u.user_id} (${u.orders})`).join(' ');
      return [
        `sandbox     seed ${sandbox.seed}, store ${storeId}: ${s.counts.products} products in ${s.counts.categories} categories, ${s.counts.customers} customers, ${s.counts.carts} carts, ${s.counts.orders} orders (${sandbox.persistent ? `kept in ${sandbox.journal.location}` : 'in memory: --data-dir to keep it'})`,
        `            carts ${ids(s.carts)}`,
        `            customers ${ids(s.customers)}; orders of ${users}`,
        `            groups ${s.customer_groups.map((g) => `${g.id}${g.is_default ? ' (default)' : ''}`).join(' ')}; coupons ${s.coupons.map((c) => c.codes[0]).join(' ')}`,
        `            ${sandbox.lenientAuth ? 'any well-formed bearer token is accepted (--lenient-auth)' : 'bearer tokens: only those issued by POST /auth/anonymous (--lenient-auth to accept any)'}`,
        `            ${sandbox.ownership === 'strict' ? "ownership strict: a token reads only its customer's cards, orders and carts (POST /__simulator/stores/{store_id}/customers/{customer_id}/sign-in)" : "ownership open: any token of the store reads any customer's cards, orders and carts (--ownership strict to restrict)"}`,
        `            world and back office: GET /__simulator/stores/${storeId}/world (outside the contract)`,
      ];
    },
    close: () => sandbox.close(),
  };
}
