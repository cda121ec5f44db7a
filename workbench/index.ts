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
import { inProcessHandler } from './adapters/in-process.js';
import { ASSET_ROUTES, BACK_OFFICE_ROUTES, assetOrigin, createSandbox, type EventSink, type SandboxHandle, type SandboxOptions } from './sandbox/index.js';
import { createSimulator, type Simulator, type SimulatorOptions } from './simulator/index.js';
import { Clocks } from './clock/clocks.js';
import { foreignTables, holdDataDir, openStoreDatabase, releasedOnClose, stampSchema, transactionOf, type StoreDatabase } from './store/database.js';
import { setting } from './store/settings.js';
import { SqliteWorldLog } from './store/world-log.js';
import { journalRecordCheck } from './sandbox/fixtures.js';
import { CLOCKS_SETTING, holdsJournal0_2, openDataDir } from './upgrade/index.js';
import { CLOCK_ROUTES, clockRoutes } from './clock/routes.js';
import { describeRoutes } from './http/control-routes.js';
import { RequestFeed } from './http/request-feed.js';
import { createConsole, isConsolePath, type ConsoleParts, type WorkbenchConsole } from './console/index.js';
import { createAgentToolbox, type AgentToolbox, type AgentToolFactory } from './agents/index.js';
import { MCP_PATH, withMcpEndpoint } from './adapters/mcp-http.js';
import { isLoopbackName } from './http/local-origin.js';
import type { FetchHandler } from './adapters/node-http.js';

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
  /**
   * The agent tools (./agents/) over MCP's Streamable HTTP at /mcp (loopback callers only, like the control
   * routes). Default on; `false` serves no /mcp. `extraTools`: more tools (the clone's diff and lint).
   */
  mcp?: { extraTools?: readonly AgentToolFactory[] } | false;
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
  /** The agent tools over this workbench's engine in process (what /mcp serves; `storefront-contract mcp` serves them over stdio). Undefined with `mcp: false`. */
  agents?: () => Promise<AgentToolbox>;
}

export async function createWorkbench(options: WorkbenchOptions = {}): Promise<Workbench> {
  const { mcp, ...rest } = options;
  let origin = '';
  let agents: (() => Promise<AgentToolbox>) | undefined;
  // The agent tools drive this machine's sandbox and certify servers on it (and, in a clone, run its dev
  // tools): served only when the workbench listens on loopback, never to a network.
  const onLoopback = isLoopbackName(options.host ?? '127.0.0.1');
  const around =
    mcp === false || !onLoopback
      ? undefined
      : (engine: FetchHandler) => {
          // One toolbox for /mcp and the in-process callers (stdio), built on first use over the engine itself.
          let toolbox: Promise<AgentToolbox> | undefined;
          agents = () => {
            toolbox ??= createAgentToolbox({
              link: { fetch: engine, origin: () => origin, adminToken: (options.webhooks && options.webhooks.adminTokens?.[0]) || undefined, apiKey: options.apiKeys?.[0] },
              extraTools: mcp?.extraTools,
            });
            toolbox.catch(() => (toolbox = undefined));
            return toolbox;
          };
          return withMcpEndpoint(engine, agents);
        };
  const { front: server, simulator, sandbox, console, database } = await compose(rest, (mock) => createMockServer({ ...mock, around }), true);
  origin = server.url;
  // The world's image URLs are absolute on this server's own address, known only now (port 0).
  sandbox?.sandbox.setAssetOrigin(assetOrigin(server.url));
  return {
    ...server,
    simulator,
    sandbox,
    console,
    agents,
    describe: () => [
      `  storefront  ${server.bases.storefront}/...   e.g. ${server.url}${basePathTemplate.storefront.replace('{store_id}', 'demo-store')}/catalog/products`,
      `  admin       ${server.bases.admin ? `${server.bases.admin}/...` : '(not mounted: admin document missing or invalid)'}`,
      `  docs        ${server.bases.docs}`,
      ...(console ? [`  console     ${server.url}/console   (live request log, world, webhooks, events, back office)`] : []),
      ...(agents ? [`  mcp         ${server.url}${MCP_PATH}   (the contract, the sandbox and certification as MCP tools for coding agents; stdio: storefront-contract mcp)`] : []),
      ...(mcp !== false && !onLoopback ? [`  mcp         off: --host ${options.host} is not loopback (the agent tools act on this machine); an agent here uses storefront-contract mcp --url ${server.url}`] : []),
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
  // The in-process adapter (adapters/in-process.ts): refusals a server makes, the in-process mark, the drain on close.
  const inProcess = inProcessHandler(front.handle);
  return {
    handle: withoutPrefix(inProcess.handle, prefix),
    simulator,
    sandbox,
    close: async () => {
      await inProcess.drain();
      await simulator?.close();
      sandbox?.close();
      database.close();
    },
  };
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
  // One workbench serves a data directory (store/database.ts `holdDataDir`): a second one is refused in one line.
  const release = dataDir ? holdDataDir(dataDir) : undefined;
  let database: StoreDatabase;
  try {
    // The fixture schemas check a 0.2.x journal's records (compiled, about 0.5 s, only when there is one).
    const journal = wantSandbox && dataDir ? { check: holdsJournal0_2(dataDir) ? await journalRecordCheck() : undefined } : undefined;
    database = dataDir ? releasedOnClose(openDataDir(dataDir, { log: sandboxOptions ? sandboxOptions.log : undefined, journal }), release!) : openStoreDatabase();
  } catch (e) {
    release?.();
    throw e;
  }
  let clocks: Clocks;
  try {
    clocks =
      (webhooks && webhooks.clocks) ||
      (sandboxOptions && sandboxOptions.clocks) ||
      Clocks.open({ kept: database.persistent ? setting(database.db, database.location, CLOCKS_SETTING) : undefined, wall: webhooks ? webhooks.now : undefined });
  } catch (error) {
    database.close();
    throw foreignTables(database.location, error) ?? error;
  }
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
    // A table of the same name made by another program: one line naming the file, not SQLite's "no such column".
    throw foreignTables(database.location, error) ?? error;
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

