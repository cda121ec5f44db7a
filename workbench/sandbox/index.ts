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
      if (identity) {
        // A token lives `--token-lifetime` on its store's clock (register SF-039).
        const expiry = sandbox.tokenExpiry(identity);
        if (sandbox.now(identity.store_id) >= expiry) {
          return `this access token expired at ${new Date(expiry).toISOString()} (tokens live ${lifetime(sandbox.tokenLifetimeMs)} on the store's clock): get a new one from POST /auth/anonymous`;
        }
        // The holder, resolved here once: the operations read it as `request.caller.identity`.
        return { identity };
      }
      // Lenient: leave it to the workbench, which accepts any well-formed token.
      if (sandbox.lenientAuth) return undefined;
      return 'unknown access token: the sandbox accepts only tokens it issued (POST /auth/anonymous with X-Api-Key); start it with --lenient-auth to accept any';
    },
    // Every storefront operation with X-Api-Key: in per-store mode only the store's own sandbox key opens it.
    judgeApiKey: (_schemeId, key, { api, storeId }) => {
      if (api !== 'storefront' || sandbox.apiKeyMode !== 'per-store') return undefined;
      if (sandbox.isApiKeyOf(storeId, key)) return true;
      return `unknown store API key: not the key of store "${storeId}" (each store of the sandbox has its own test key: GET /__simulator/stores/${storeId}/keys; --any-api-key accepts any)`;
    },
  };
}

/** The banner's line on API keys. Printing the store's key is deliberate: it is a sandbox test key (keys.ts). */
function keyLine(sandbox: Sandbox, storeId: string): string {
  if (sandbox.apiKeyMode === 'fixed') return '            store API key: only the one given with --api-key or STOREFRONT_API_KEY, for every store (not shown)';
  if (sandbox.apiKeyMode === 'any') return `            store API key: any well-formed key (${sandbox.lenientAuth ? '--lenient-auth' : '--any-api-key'}); ${storeId}'s own is ${sandbox.apiKey(storeId)}`;
  return `            store API key of ${storeId}: ${sandbox.apiKey(storeId)} (a sandbox test key, printed on purpose: it opens only this store, the same with this seed on every run; another store's: GET /__simulator/stores/{store_id}/keys)`;
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
        `sandbox     seed ${sandbox.seed}, store ${storeId}: ${s.counts.products} products in ${s.counts.categories} categories, ${s.counts.customers} customers, ${s.counts.carts} carts, ${s.counts.orders} orders (${sandbox.persistent ? `kept in ${sandbox.log.location}` : 'in memory: --data-dir to keep it'})`,
        `            carts ${ids(s.carts)}`,
        `            customers ${ids(s.customers)}; orders of ${users}`,
        `            groups ${s.customer_groups.map((g) => `${g.id}${g.is_default ? ' (default)' : ''}`).join(' ')}; coupons ${s.coupons.map((c) => c.codes[0]).join(' ')}`,
        keyLine(sandbox, storeId),
        `            ${sandbox.lenientAuth ? 'any well-formed bearer token is accepted (--lenient-auth)' : `bearer tokens: only those issued by POST /auth/anonymous, for ${lifetime(sandbox.tokenLifetimeMs)} (--lenient-auth to accept any)`}`,
        `            clock: each store on the wall clock until POST /__simulator/stores/${storeId}/clock sets, freezes or advances it (outside the contract)`,
        `            ${sandbox.ownership === 'strict' ? "ownership strict: a token reads only its customer's cards, orders and carts (POST /__simulator/stores/{store_id}/customers/{customer_id}/sign-in)" : "ownership open: any token of the store reads any customer's cards, orders and carts (--ownership strict to restrict)"}`,
        `            world and back office: GET /__simulator/stores/${storeId}/world (outside the contract)`,
      ];
    },
    close: () => sandbox.close(),
  };
}

/** `1 day`, `2 h`, `90 s`: a token lifetime for messages. */
function lifetime(ms: number): string {
  const s = ms / 1000;
  if (s % 86_400 === 0) return `${s / 86_400} day${s === 86_400 ? '' : 's'}`;
  if (s % 3600 === 0) return `${s / 3600} h`;
  return `${s} s`;
}
