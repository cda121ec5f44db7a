// createMockHandler: the workbench's one pipeline (pipeline.ts) composed over the contract's documents, as one
// fetch-standard function, `handle(request: Request): Promise<Response>`, without a server. The node:http
// adapter (createMockServer) puts it on a port; createWorkbenchHandler (../index.ts) and the MSW handlers
// (../msw/) call the very same `handle` in process. Nothing here listens or reads files on the request
// path (/docs reads through the `docs` port), so the browser build of the sandbox (../msw/browser.ts)
// composes it too.
import path from 'node:path';
import { documentExists, documents } from '../contract/files.js';
import { DEFAULT_MAX_BODY_BYTES } from '../http/body.js';
import type { WorkbenchExtension } from '../http/extension.js';
import { createRequestLogger, type LogSink, type RequestLogger } from '../http/log.js';
import type { RequestFeed } from '../http/request-feed.js';
import { faultsExtension } from '../mock/fault-routes.js';
import { FaultRegistry, type StartRule } from '../mock/faults.js';
import { createFront } from './pipeline.js';
import { PrismEngine, UnavailablePrism, type AnswerEngine } from '../mock/prism-engine.js';
import type { Mount } from '../mock/router.js';
import { loadDocumentModel } from '../mock/spec-model.js';
import type { SiteFiles } from '../mock/static-docs.js';
import { TokenRegistry } from '../mock/tokens.js';

export interface MockHandlerOptions {
  /** Prism dynamic (faker) bodies instead of the named examples. */
  dynamic?: boolean;
  /** Only access tokens issued by this mock's POST /auth/anonymous open Bearer operations. */
  strictAuth?: boolean;
  /** Values never printed in the request log, wherever they appear (API keys are added to them). */
  secrets?: readonly string[];
  /** The only store API keys accepted (X-Api-Key). Default: any well-formed key. */
  apiKeys?: readonly string[];
  /** Request bodies above this many bytes get 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Document files; `admin: null` serves no admin API. Defaults: spec/openapi/*.yaml. */
  specs?: { storefront?: string; admin?: string | null };
  /** With `specs.admin: null`: why, for the admin API's 404. */
  adminAbsent?: string;
  /** Live operations and routes outside the contract (the webhook simulator), in order. */
  extensions?: WorkbenchExtension[];
  /** The built docs site served at /docs (adapters/node-files.ts `folderFiles(docsSiteDir)`); default: no /docs. */
  docs?: SiteFiles;
  quiet?: boolean;
  /** Receives the log text instead of stderr (tests). */
  logSink?: LogSink;
  /** Serve pre-serialized default examples without Prism (default true; tests compare both). */
  cacheDefaults?: boolean;
  /**
   * Why Prism cannot run here (the browser build): `Prefer` controls are then refused with this reason
   * (400 naming the header) instead of loading Prism. Default: Prism, loaded on first need.
   */
  withoutPrism?: string;
  /**
   * Fault rules every store starts with (`--fault`, faults.ts; a wrong one throws FaultRuleError); the
   * back office adds more at /__simulator/stores/{store_id}/faults. `false` turns fault injection and
   * `Prefer: delay=` off altogether (the benchmark's baseline).
   */
  faults?: readonly StartRule[] | false;
  /** Keeps every request (bounded) for the console's live log (http/request-feed.ts); default: none kept. */
  feed?: RequestFeed;
}

export interface MockHandler {
  /** The pipeline: every adapter (node:http, MSW, a fetch runtime) calls it. */
  handle(request: Request): Promise<Response>;
  mounts: ReadonlyMap<string, Mount>;
  engines: ReadonlyMap<string, AnswerEngine>;
  logger: RequestLogger;
}

export async function createMockHandler(options: MockHandlerOptions = {}): Promise<MockHandler> {
  const logger = createRequestLogger({ quiet: options.quiet, sink: options.logSink, knownSecrets: [...(options.apiKeys ?? []), ...(options.secrets ?? [])] });
  const files = {
    storefront: options.specs?.storefront ?? documents.storefront,
    admin: options.specs?.admin === null ? undefined : options.specs?.admin ?? documents.admin,
  };
  const engineFor = (file: string): AnswerEngine => (options.withoutPrism ? new UnavailablePrism(options.withoutPrism) : new PrismEngine(file));

  const mounts = new Map<string, Mount>();
  const unavailable = new Map<string, string>();
  const engines = new Map<string, AnswerEngine>();
  // The storefront document is required; a broken admin document only disables the admin mount,
  // because it is written separately and the storefront must stay usable meanwhile.
  mounts.set('storefront', { segment: 'storefront', document: await loadDocumentModel('storefront', files.storefront) });
  engines.set('storefront', engineFor(files.storefront));
  if (files.admin) {
    try {
      if (!documentExists(files.admin)) throw new Error(`${path.relative(process.cwd(), files.admin)} does not exist yet`);
      mounts.set('admin', { segment: 'admin', document: await loadDocumentModel('admin', files.admin) });
      engines.set('admin', engineFor(files.admin));
    } catch (e) {
      unavailable.set('admin', (e as Error).message.split('\n')[0].slice(0, 300));
      logger.info(`mock: admin API not mounted: ${unavailable.get('admin')}`);
    }
  } else {
    unavailable.set('admin', options.adminAbsent ?? 'started without an admin document');
  }

  // Fault injection over every operation served; its back office is one more table of control routes.
  const faults = options.faults === false ? undefined : new FaultRegistry([...mounts.values()].flatMap((m) => m.document.operations), options.faults ?? []);

  const handle = createFront({
    mounts,
    unavailable,
    engines,
    extensions: [...(options.extensions ?? []), ...(faults ? [faultsExtension(faults)] : [])],
    faults,
    docs: options.docs,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    dynamic: options.dynamic ?? false,
    strictAuth: options.strictAuth ?? false,
    apiKeys: options.apiKeys,
    tokens: new TokenRegistry(),
    logger,
    cacheDefaults: options.cacheDefaults ?? true,
    feed: options.feed,
  });
  return { handle, mounts, engines, logger };
}
