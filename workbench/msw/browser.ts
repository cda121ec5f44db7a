// `storefront-contract-tools/msw` in the browser (MSW's worker, `setupWorker` from msw/browser): the
// storefront sandbox running in the page. The same parts as the Node entry, composed without what needs
// Node: the engine (engine/compose.ts: routing, security, parameter and body validation, the error
// writer), the sandbox's live operations and back office, the per-store clocks. Left out, with the
// reason each answers with:
// - the webhook simulator (SQLite, outgoing HTTP): a page cannot deliver webhooks, so the Admin API is not
//   mounted (its 404 says why), the simulator's /__simulator routes are 404, and the back office's answers
//   list no raised `events`;
// - Prism (Node only): a `Prefer` control gets a 400 naming the header;
// - files: the documents are embedded at build time (scripts/build-msw-browser.ts), `--data`/`--data-dir`
//   are refused.
// The build replaces Node's built-ins with small stand-ins (./browser/) and bundles this file with
// esbuild into dist/msw/browser.js, the `browser` condition of the export.
import { Clocks } from '../clock/clocks.js';
import { clockRoutes } from '../clock/routes.js';
import { createMockHandler } from '../engine/compose.js';
import { createSandbox, type SandboxOptions } from '../sandbox/index.js';
import { withoutPrefix } from '../engine/prefix.js';
import { inProcessHandler } from '../adapters/in-process.js';
import { DEFAULT_BASE_URL, inProcessSandbox, normalizeBaseUrl, pathPrefix, type InProcessSandbox, type SandboxEngine } from './handlers.js';

export { DEFAULT_BASE_URL, type InProcessSandbox };

/** What the browser build takes: the Node entry's options that need no file system, simulator or Prism. */
export interface BrowserSandboxOptions {
  /** The base URL the app's client uses (`createStorefrontClient({ baseUrl })`). Default http://127.0.0.1:4010. */
  baseUrl?: string;
  sandbox?: Pick<SandboxOptions, 'seed' | 'lenientAuth' | 'ownership' | 'catalogSize' | 'tokenLifetimeSeconds' | 'maxWorlds' | 'anchor'>;
  /** The only store API keys accepted (X-Api-Key). Default: any well-formed key. */
  apiKeys?: readonly string[];
  /** Request bodies above this many bytes get 413. Default 1 MiB. */
  maxBodyBytes?: number;
}

const NO_PRISM = 'Prefer controls are answered by Prism, which runs only in Node: use the Node handlers of storefront-contract-tools/msw (vitest) or `storefront-contract mock`';
const NO_ADMIN = "the sandbox's browser build serves the storefront API only: the Admin webhook API and webhook delivery need Node (the Node handlers of storefront-contract-tools/msw, or `storefront-contract mock`)";
const NEEDS_NODE: Record<string, string> = {
  dataDir: 'keeps writes in files',
  fixturesDir: 'reads fixture files',
};

/** The storefront sandbox in the page, as MSW handlers: `setupWorker(...(await createSandboxHandlers()).handlers)`. */
export async function createSandboxHandlers(options: BrowserSandboxOptions = {}): Promise<InProcessSandbox> {
  const { baseUrl = DEFAULT_BASE_URL, ...rest } = options;
  refuseNodeOnly(rest as Record<string, unknown>);
  const base = normalizeBaseUrl(baseUrl);
  return inProcessSandbox(base, () => startEngine(rest, base));
}

async function startEngine(options: Omit<BrowserSandboxOptions, 'baseUrl'>, base: string): Promise<SandboxEngine> {
  const prefix = pathPrefix(base);
  const clocks = Clocks.open();
  const sandbox = await createSandbox({ ...(options.sandbox ?? {}), clocks, log: (line) => console.warn(line) });
  // Image URLs of the world point at the base URL, where these handlers answer them.
  sandbox.sandbox.setAssetOrigin(base);
  try {
    const front = await createMockHandler({
      specs: { admin: null },
      adminAbsent: NO_ADMIN,
      withoutPrism: NO_PRISM,
      quiet: true,
      apiKeys: options.apiKeys,
      maxBodyBytes: options.maxBodyBytes,
      extensions: [sandbox.extension, { controlRoutes: clockRoutes(clocks, undefined) }],
    });
    // The in-process adapter, as in Node: a server's refusals, the in-process mark, the drain on close.
    const inProcess = inProcessHandler(front.handle);
    return {
      handle: withoutPrefix(inProcess.handle, prefix),
      apiKey: (storeId) => sandbox.sandbox.apiKey(storeId),
      close: async () => {
        await inProcess.drain();
        sandbox.close();
      },
    };
  } catch (error) {
    sandbox.close();
    throw error;
  }
}

/** Options of the Node entry that the browser build cannot honour: refused by name, not ignored. */
function refuseNodeOnly(options: Record<string, unknown>): void {
  const sandbox = options.sandbox;
  if (sandbox === false) throw new TypeError('createSandboxHandlers: `sandbox: false` (the examples-only mock) needs Prism, which runs only in Node; the browser build is the sandbox');
  for (const [name, why] of Object.entries(NEEDS_NODE)) {
    if (sandbox && typeof sandbox === 'object' && (sandbox as Record<string, unknown>)[name] !== undefined) {
      throw new TypeError(`createSandboxHandlers: sandbox.${name} ${why}, which the browser build cannot do; use the Node handlers (vitest) for it`);
    }
  }
  if (options.webhooks !== undefined && options.webhooks !== false) {
    throw new TypeError('createSandboxHandlers: `webhooks` needs the webhook simulator (SQLite, outgoing HTTP), which cannot run in a page; use the Node handlers (vitest) for webhooks');
  }
  for (const name of ['specs', 'dynamic', 'docsRoot']) {
    if (options[name] !== undefined) throw new TypeError(`createSandboxHandlers: \`${name}\` is not supported by the browser build (it serves the embedded storefront document, without Prism)`);
  }
}
