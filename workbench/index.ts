// createWorkbench: the local tools in one server, composed once. The storefront sandbox (a seeded,
// stateful world per store answering the storefront operations; Prism's engine behind `Prefer`
// controls), the webhook simulator (the live Admin webhook API, /__simulator, signed deliveries) and the
// sandbox's back office share one HTTP pipeline: routing, auth, body limits, validation, envelope, log.
// The sandbox's writes raise their webhooks through the simulator. `npm start` (workbench/cli.ts), the
// tests, the certifier and the benchmarks all start it this way. createWorkbenchHandler composes the same
// parts without a port: the engine's `handle(request: Request): Promise<Response>` itself, which the MSW
// adapter (msw/) and a client's fetch call.
import { basePathTemplate } from 'storefront-contract/contract';
import { FAULT_ROUTES } from './mock/fault-routes.js';
import { describeFaults } from './mock/faults.js';
import { createMockServer, type MockServer, type MockServerOptions } from './adapters/node-http.js';
import { createMockHandler } from './engine/compose.js';
import { withoutPrefix } from './engine/prefix.js';
import { fromInProcess } from './engine/exchange.js';
import { errorResponse, fail, type ErrorReply } from './http/errors.js';
import { ASSET_ROUTES, BACK_OFFICE_ROUTES, assetOrigin, createSandbox, type EventSink, type SandboxHandle, type SandboxOptions } from './sandbox/index.js';
import { createSimulator, type Simulator, type SimulatorOptions } from './simulator/index.js';
import { Clocks } from './clock/clocks.js';
import { openStoreDatabase, stampSchema, transactionOf, type StoreDatabase } from './store/database.js';
import { setting } from './store/settings.js';
import { SqliteWorldLog } from './store/world-log.js';
import { journalRecordCheck } from './sandbox/fixtures.js';
import { CLOCKS_SETTING, holdsJournal0_2, openDataDir } from './upgrade/index.js';
import { CLOCK_ROUTES, clockRoutes } from './clock/routes.js';
import { describeRoutes } from './http/control-routes.js';
import { RequestFeed } from './http/request-feed.js';
import { createConsole, isConsolePath, type ConsoleParts, type WorkbenchConsole } from './console/index.js';

export interface WorkbenchOptions extends Omit<MockServerOptions, 'extensions'> {
  /** The webhook simulator's options; `false` serves the Admin API from the spec's examples only. */
  webhooks?: SimulatorOptions | false;
  /**
   * The stateful sandbox behind the storefront API; `false` answers every storefront operation from the
   * spec's examples (the plain mock). Default: on, except with another storefront document (`specs`) or
   * in dynamic mode, where it would not match what is served. Its bearer auth is strict unless
   * `lenientAuth`; the mock's own `strictAuth` applies only without it. Each store opens with its own API
   * key (`sandboxApiKey(storeId, { seed })`) unless `apiKeyMode: 'any'`, or `apiKeys` fixes the keys.
   */
  sandbox?: SandboxOptions | false;
  /**
   * The console at /console (workbench/console): the live request log, the world, webhooks, events and
   * the back office in a page. Default on; `false` serves no console and keeps no request log.
   */
  console?: (Pick<ConsoleParts, 'stream'> & { /** Bytes of request and answer bodies its log keeps in all (default 2 MB; http/request-feed.ts). */ bodyBudget?: number }) | false;
}

export interface Workbench extends MockServer {
  /** Undefined when started with `webhooks: false`. */
  simulator?: Simulator;
  /** Undefined when the storefront is served from the spec's examples only. */
  sandbox?: SandboxHandle;
  /** Undefined when started with `console: false`. */
  console?: WorkbenchConsole;
  /** Lines for a start-up banner: where everything is. */
  describe(): string[];
}

export async function createWorkbench(options: WorkbenchOptions = {}): Promise<Workbench> {
  const { front: server, simulator, sandbox, console, database } = await compose(options, createMockServer, true);
  // The world's image URLs are absolute on this server's own address, known only now (port 0).
  sandbox?.sandbox.setAssetOrigin(assetOrigin(server.url));
  return {
    ...server,
    simulator,
    sandbox,
    console,
    describe: () => [
      `  storefront  ${server.bases.storefront}/...   e.g. ${server.url}${basePathTemplate.storefront.replace('{store_id}', 'demo-store')}/catalog/products`,
      `  admin       ${server.bases.admin ? `${server.bases.admin}/...` : '(not mounted: admin document missing or invalid)'}`,
      `  docs        ${server.bases.docs}`,
      ...(console ? [`  console     ${server.url}/console   (live request log, world, webhooks, events, back office)`] : []),
      ...(sandbox?.describe() ?? ['sandbox     off: every storefront answer is the spec\'s example']).map((line) => `  ${line}`),
      ...(simulator?.describe() ?? []).map((line) => `  ${line}`),
      ...(options.faults ? describeFaults(options.faults) : []).map((line) => `  ${line}`),
    ],
    close: async () => {
      await Promise.all([server.close(), simulator?.close()]);
      sandbox?.close();
      database.close();
    },
  };
}

/** How long an in-process workbench's close() waits for the requests in its pipeline to finish. */
export const CLOSE_DRAIN_MS = 5_000;

export type WorkbenchHandlerOptions = Omit<WorkbenchOptions, 'port' | 'host' | 'docsRoot' | 'preloadPrism'>;

/** The workbench in process: the same composition and pipeline as createWorkbench, called per request without a port. */
export interface WorkbenchHandler {
  /** One request through the pipeline (routing, auth, validation, the sandbox, the error writer); its answer. */
  handle(request: Request): Promise<Response>;
  /** Undefined when started with `webhooks: false`. */
  simulator?: Simulator;
  /** Undefined when the storefront is served from the spec's examples only. */
  sandbox?: SandboxHandle;
  close(): Promise<void>;
}

/**
 * The workbench without a server (MSW handlers, a client's `fetch`, any fetch runtime): createWorkbench's
 * parts composed the same way, as the engine's own `handle(request: Request): Promise<Response>`. No
 * /docs; quiet unless a `logSink` is given. `prefix`: a path the caller's base URL puts before `/api/...`.
 */
export async function createWorkbenchHandler(options: WorkbenchHandlerOptions & { prefix?: string; assetOrigin?: string } = {}): Promise<WorkbenchHandler> {
  const { prefix, assetOrigin: origin, ...rest } = options;
  const { front, simulator, sandbox, database } = await compose({ quiet: true, ...rest }, async (mock) => ({ ...(await createMockHandler(mock)), close: async () => {} }));
  // The world's image URLs: where the caller's requests reach this handler (its base URL).
  sandbox?.sandbox.setAssetOrigin(origin ?? 'http://127.0.0.1:4010');
  // close() ends what waits in the engine (a fault's delay), as closing a server ends its sockets, lets the
  // requests already in the pipeline finish (a write reading its body) for up to CLOSE_DRAIN_MS, and only
  // then closes the store under them; a request after close() is a network error, as a refused connection.
  const closing = new AbortController();
  const inFlight = new Set<Promise<Response>>();
  let closed = false;
  const handle = (request: Request): Promise<Response> => {
    if (closed) return Promise.resolve(Response.error());
    const refused = refuseWhatAServerWould(request);
    if (refused) return Promise.resolve(errorResponse(undefined, refused));
    const answer = front.handle(fromInProcess(request, closing.signal));
    inFlight.add(answer);
    const settle = () => inFlight.delete(answer);
    answer.then(settle, settle);
    return answer;
  };
  return {
    handle: withoutPrefix(handle, prefix),
    simulator,
    sandbox,
    close: async () => {
      closed = true;
      closing.abort();
      if (inFlight.size > 0) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([Promise.allSettled([...inFlight]), new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_DRAIN_MS)))]);
        clearTimeout(timer);
      }
      await simulator?.close();
      sandbox?.close();
      database.close();
    },
  };
}

/** A request line and headers larger than this are refused as node:http refuses them (its default `maxHeaderSize`). */
const MAX_HEADER_BYTES = 16 * 1024;
/** The methods fetch upper-cases itself; any other method reaches a server exactly as written. */
const NORMALIZED_BY_FETCH = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);

/**
 * What the node:http adapter's parser refuses before the engine sees it, refused the same way in process
 * (MSW, a client's fetch), so a front end's tests cannot pass on a request a real server refuses: a
 * method whose case a server would not accept (fetch sends `patch` as written; node answers 400), and a
 * request line and headers over node's 16 KB (431).
 */
function refuseWhatAServerWould(request: Request): ErrorReply | undefined {
  const method = request.method;
  if (!NORMALIZED_BY_FETCH.has(method) && method !== method.toUpperCase()) {
    return fail(400, 'invalid_parameter', `The method "${method.slice(0, 20)}" would not reach a server: methods are case-sensitive and fetch upper-cases only ${[...NORMALIZED_BY_FETCH].join(', ')}; send "${method.toUpperCase().slice(0, 20)}".`);
  }
  let bytes = request.url.length;
  if (bytes <= MAX_HEADER_BYTES) request.headers.forEach((value, name) => (bytes += name.length + value.length + 4));
  if (bytes > MAX_HEADER_BYTES) return fail(431, 'invalid_parameter', 'Request headers are too large.');
  return undefined;
}

/** The parts every workbench has, composed once: clocks, the simulator, the sandbox, then the pipeline over them (`start`). */
async function compose<F>(
  options: WorkbenchOptions,
  start: (mock: MockServerOptions) => Promise<F>,
  serve = false,
): Promise<{ front: F; simulator?: Simulator; sandbox?: SandboxHandle; console?: WorkbenchConsole; database: StoreDatabase }> {
  const { webhooks, sandbox: sandboxOptions, console: consoleOptions, ...mock } = options;
  // The console (served workbenches only: a page needs a port): its request log keeps the last requests,
  // with the workbench's keys and tokens redacted wherever they appear.
  const consoleParts: ConsoleParts | undefined =
    serve && consoleOptions !== false
      ? {
          feed: new RequestFeed(undefined, undefined, [...(mock.apiKeys ?? []), ...(mock.secrets ?? []), ...((webhooks && webhooks.adminTokens) || [])], isConsolePath, consoleOptions?.bodyBudget),
          stream: consoleOptions?.stream,
        }
      : undefined;
  const workbenchConsole = consoleParts && createConsole(consoleParts);
  const wantSandbox = sandboxOptions !== undefined ? sandboxOptions !== false : !mock.specs?.storefront && !mock.dynamic;
  // One store for every part (store/): the sandbox's writes and identities, every store's clock, the
  // simulator's subscriptions, events and attempts, in one database (workbench.sqlite in the data
  // directory, taken over from 0.2.x files once: upgrade/; in memory without one), so that a write and the
  // events it raises commit in one transaction.
  const dataDir = (webhooks && webhooks.dataDir) || (sandboxOptions && sandboxOptions.dataDir) || undefined;
  // The fixture schemas check a 0.2.x journal's records (compiled, about 0.5 s, only when there is one).
  const journal = wantSandbox && dataDir ? { check: holdsJournal0_2(dataDir) ? await journalRecordCheck() : undefined } : undefined;
  const database = dataDir ? openDataDir(dataDir, { log: sandboxOptions ? sandboxOptions.log : undefined, journal }) : openStoreDatabase();
  const clocks =
    (webhooks && webhooks.clocks) ||
    (sandboxOptions && sandboxOptions.clocks) ||
    Clocks.open({ kept: database.persistent ? setting(database.db, database.location, CLOCKS_SETTING) : undefined, wall: webhooks ? webhooks.now : undefined });
  const moreRoutes = {
    ...(wantSandbox ? { ...BACK_OFFICE_ROUTES, ...ASSET_ROUTES } : {}),
    ...(mock.faults === false ? {} : FAULT_ROUTES),
    ...describeRoutes(CLOCK_ROUTES),
    ...(workbenchConsole ? describeRoutes(workbenchConsole.extension.controlRoutes ?? []) : {}),
  };
  let simulator: Simulator | undefined;
  let sandbox: SandboxHandle | undefined;
  try {
    simulator = webhooks === false ? undefined : createSimulator({ ...(webhooks ?? {}), dataDir: undefined, database, clocks, moreRoutes });
    if (wantSandbox) {
      const given = sandboxOptions || {};
      const sim = simulator;
      const writeWith = sim ? sim.writeWith : transactionOf(database.db);
      sandbox = await createSandbox({
        ...given,
        dataDir: undefined,
        state: given.state ?? { log: new SqliteWorldLog(database.db, database.location), writeWith },
        clocks,
        // Keys given to the workbench (--api-key) open every store; the pipeline judges them before the sandbox.
        apiKeyMode: mock.apiKeys ? 'fixed' : given.apiKeyMode,
        events: given.events ?? (sim && raiseThrough(sim)),
        eventsSettled: given.eventsSettled ?? (sim && (() => sim.settled())),
      });
    }
    if (consoleParts) Object.assign(consoleParts, { simulator, sandbox: sandbox?.sandbox });
    const front = await start({
      ...mock,
      feed: consoleParts?.feed,
      secrets: [...(mock.secrets ?? []), ...((webhooks && webhooks.adminTokens) || [])],
      strictAuth: sandbox ? false : mock.strictAuth,
      // The sandbox's routes come first: the simulator answers every other /__simulator path.
      extensions: [
        ...(sandbox ? [sandbox.extension] : []),
        { controlRoutes: clockRoutes(clocks, simulator?.dueWork) },
        ...(workbenchConsole ? [workbenchConsole.extension] : []),
        ...(simulator ? [simulator.extension] : []),
      ],
    });
    stampSchema(database.db);
    return { front, simulator, sandbox, console: workbenchConsole, database };
  } catch (error) {
    sandbox?.close();
    await simulator?.close();
    database.close();
    throw error;
  }
}

/** The sandbox's events go through the simulator's trigger: validated against the event's schema, then delivered. */
function raiseThrough(simulator: Simulator): EventSink {
  return (storeId, event, properties, actor) => {
    const { reply, content } = simulator.service.trigger(storeId, { event, properties, replaceProperties: true, actor });
    if (!content) throw new Error(reply.error?.message ?? 'the event was not raised');
    return { event, event_id: content.event_id, deliveries: content.deliveries.length };
  };
}

export type { MockServer, MockServerOptions, SandboxHandle, SandboxOptions, Simulator, SimulatorOptions };
// The back office's typed client (outside the contract: set up carts, stock, orders, products in a test);
// also alone, browser-safe, as storefront-contract-tools/back-office.
export * from './back-office.js';

export { sandboxApiKey, type ApiKeyMode } from './sandbox/keys.js';

