// `storefront-contract-tools/msw` in Node (vitest, jest, any Node test runner with `msw/node`): the whole
// workbench in process (createWorkbenchHandler: the same composition as `storefront-contract mock`, the
// sandbox, the webhook simulator, Prism behind `Prefer` controls, the back office) as MSW request
// handlers. The browser build (browser.ts) has the same exports. Guide: docs/guides/testing-with-the-sandbox.md.
import { createWorkbenchHandler, type WorkbenchHandlerOptions } from '../index.js';
import { DEFAULT_BASE_URL, inProcessSandbox, normalizeBaseUrl, pathPrefix, type InProcessSandbox } from './handlers.js';

export { DEFAULT_BASE_URL, type InProcessSandbox };

export interface SandboxHandlersOptions extends Omit<WorkbenchHandlerOptions, 'prefix'> {
  /** The base URL the app's client uses (`createStorefrontClient({ baseUrl })`). Default http://127.0.0.1:4010. */
  baseUrl?: string;
}

/**
 * The sandbox as MSW handlers, in process: `setupServer(...(await createSandboxHandlers()).handlers)`.
 * Options are the workbench's (`sandbox: { seed, lenientAuth, ownership, ... }`, `apiKeys`, `webhooks`).
 */
export async function createSandboxHandlers(options: SandboxHandlersOptions = {}): Promise<InProcessSandbox> {
  const { baseUrl = DEFAULT_BASE_URL, ...workbench } = options;
  const base = normalizeBaseUrl(baseUrl);
  return inProcessSandbox(base, async () => {
    // Image URLs of the world point at the base URL, where these handlers answer them.
    const handler = await createWorkbenchHandler({ ...workbench, prefix: pathPrefix(base), assetOrigin: base });
    return { ...handler, apiKey: (storeId) => handler.sandbox?.sandbox.apiKey(storeId) ?? null };
  });
}
