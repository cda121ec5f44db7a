// createWorkbench: the local tools in one server, composed once. The storefront mock (Prism's engine
// behind the workbench pipeline) and the webhook simulator (the live Admin webhook API, /__simulator,
// signed deliveries) share one HTTP pipeline: routing, auth, body limits, validation, envelope, log.
// `npm start` (workbench/cli.ts), the tests, the certifier and the benchmarks all start it this way.
import { basePathTemplate } from '../src/contract/paths.js';
import { createMockServer, type MockServer, type MockServerOptions } from './mock/server.js';
import { createSimulator, type Simulator, type SimulatorOptions } from './simulator/index.js';

export interface WorkbenchOptions extends Omit<MockServerOptions, 'extensions'> {
  /** The webhook simulator's options; `false` serves the Admin API from the spec's examples only. */
  webhooks?: SimulatorOptions | false;
}

export interface Workbench extends MockServer {
  /** Undefined when started with `webhooks: false`. */
  simulator?: Simulator;
  /** Lines for a start-up banner: where everything is. */
  describe(): string[];
}

export async function createWorkbench(options: WorkbenchOptions = {}): Promise<Workbench> {
  const { webhooks, ...mock } = options;
  const simulator = webhooks === false ? undefined : createSimulator(webhooks ?? {});
  let server: MockServer;
  try {
    server = await createMockServer({
      ...mock,
      secrets: [...(mock.secrets ?? []), ...((webhooks && webhooks.adminTokens) || [])],
      extensions: simulator ? [simulator.extension] : [],
    });
  } catch (error) {
    await simulator?.close();
    throw error;
  }
  return {
    ...server,
    simulator,
    describe: () => [
      `  storefront  ${server.bases.storefront}/...   e.g. ${server.url}${basePathTemplate.storefront.replace('{store_id}', 'demo-store')}/catalog/products`,
      `  admin       ${server.bases.admin ? `${server.bases.admin}/...` : '(not mounted: admin document missing or invalid)'}`,
      `  docs        ${server.bases.docs}`,
      ...(simulator?.describe() ?? []).map((line) => `  ${line}`),
    ],
    close: async () => {
      await Promise.all([server.close(), simulator?.close()]);
    },
  };
}

export type { MockServer, MockServerOptions, Simulator, SimulatorOptions };
