// createMockServer: one node:http server on loopback serving the storefront and admin documents on
// their real paths. Used by `npm start` (cli.ts), the tests, the benchmark and the certifier.
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { basePathTemplate } from 'storefront-contract/contract';
import { docsSiteDir, documents } from '../contract/files.js';
import { DEFAULT_MAX_BODY_BYTES } from '../http/body.js';
import { fail, refuseSocket, writeError } from '../http/errors.js';
import type { WorkbenchExtension } from '../http/extension.js';
import { faultsExtension } from './fault-routes.js';
import { FaultRegistry, type StartRule } from './faults.js';
import { createFront } from './front.js';
import { createRequestLogger, type LogSink } from '../http/log.js';
import { PrismEngine } from './prism-engine.js';
import type { Mount } from './router.js';
import { loadDocumentModel } from './spec-model.js';
import { TokenRegistry } from './tokens.js';

export type { ControlRoute, WorkbenchExtension } from '../http/extension.js';

export interface MockServerOptions {
  /** 0 picks a free port. Default 4010. */
  port?: number;
  /** Default 127.0.0.1: the mock is a development tool and stays on loopback unless asked. */
  host?: string;
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
  /** Live operations and routes outside the contract (the webhook simulator), in order. */
  extensions?: WorkbenchExtension[];
  /** Folder served at /docs. Default docs/site. */
  docsRoot?: string;
  quiet?: boolean;
  /** Receives the log text instead of stderr (tests). */
  logSink?: LogSink;
  /** Load Prism at start instead of on the first request that needs it. */
  preloadPrism?: boolean;
  /** Serve pre-serialized default examples without Prism (default true; tests compare both). */
  cacheDefaults?: boolean;
  /**
   * Fault rules every store starts with (`--fault`, faults.ts; a wrong one throws FaultRuleError); the
   * back office adds more at /__simulator/stores/{store_id}/faults. `false` turns fault injection and
   * `Prefer: delay=` off altogether (the benchmark's baseline).
   */
  faults?: readonly StartRule[] | false;
}

export interface MockServer {
  url: string;
  port: number;
  /** `http://host:port/api/v1/{store_id}/storefront` and friends, for printing. */
  bases: { storefront: string; admin?: string; docs: string };
  close(): Promise<void>;
}

export async function createMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const host = options.host ?? '127.0.0.1';
  const logger = createRequestLogger({ quiet: options.quiet, sink: options.logSink, knownSecrets: [...(options.apiKeys ?? []), ...(options.secrets ?? [])] });
  const files = {
    storefront: options.specs?.storefront ?? documents.storefront,
    admin: options.specs?.admin === null ? undefined : options.specs?.admin ?? documents.admin,
  };

  const mounts = new Map<string, Mount>();
  const unavailable = new Map<string, string>();
  const engines = new Map<string, PrismEngine>();
  // The storefront document is required; a broken admin document only disables the admin mount,
  // because it is written separately and the storefront must stay usable meanwhile.
  mounts.set('storefront', { segment: 'storefront', document: await loadDocumentModel('storefront', files.storefront) });
  engines.set('storefront', new PrismEngine(files.storefront));
  if (files.admin) {
    try {
      if (!existsSync(files.admin)) throw new Error(`${path.relative(process.cwd(), files.admin)} does not exist yet`);
      mounts.set('admin', { segment: 'admin', document: await loadDocumentModel('admin', files.admin) });
      engines.set('admin', new PrismEngine(files.admin));
    } catch (e) {
      unavailable.set('admin', (e as Error).message.split('\n')[0].slice(0, 300));
      logger.info(`mock: admin API not mounted: ${unavailable.get('admin')}`);
    }
  } else {
    unavailable.set('admin', 'started without an admin document');
  }

  // Fault injection over every operation served; its back office is one more table of control routes.
  const faults = options.faults === false ? undefined : new FaultRegistry([...mounts.values()].flatMap((m) => m.document.operations), options.faults ?? []);

  const handle = createFront({
    mounts,
    unavailable,
    engines,
    extensions: [...(options.extensions ?? []), ...(faults ? [faultsExtension(faults)] : [])],
    faults,
    docsRoot: path.resolve(options.docsRoot ?? docsSiteDir),
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    dynamic: options.dynamic ?? false,
    strictAuth: options.strictAuth ?? false,
    apiKeys: options.apiKeys,
    tokens: new TokenRegistry(),
    logger,
    cacheDefaults: options.cacheDefaults ?? true,
  });

  const server = http.createServer(handle);
  // Every socket, including ones node:http no longer tracks (CONNECT, parser errors), so close()
  // can end them all instead of waiting for clients.
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // Requests node's parser rejects (bad request line, invalid header characters, oversized headers)
  // still get the envelope, then the connection is closed.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return socket.destroy();
    const tooBig = err.code === 'HPE_HEADER_OVERFLOW';
    const status = tooBig ? 431 : 400;
    refuseSocket(socket, fail(status, 'invalid_parameter', tooBig ? 'Request headers are too large.' : 'The request is not valid HTTP/1.1.'));
    logger.log('-', '(unparseable request)', status, 0);
  });

  // An Expect other than 100-continue gets node's bare 417 unless answered here: give it the envelope.
  server.on('checkExpectation', (req: http.IncomingMessage, res: http.ServerResponse) => {
    writeError(
      res,
      fail(417, 'expectation_failed', `Expect: ${String(req.headers.expect).slice(0, 100)} is not supported; only "Expect: 100-continue" is (or send no Expect header).`, [
        { location: 'header', name: 'Expect', message: 'only 100-continue is supported' },
      ], { connection: 'close' }),
    );
    logger.log(req.method ?? '-', req.url ?? '', 417, 0);
  });

  // CONNECT bypasses the request handler in node:http (it is meant for proxies); answer it too.
  server.on('connect', (req: http.IncomingMessage, socket: Socket) => {
    socket.on('error', () => {});
    refuseSocket(socket, fail(405, 'method_not_allowed', 'CONNECT is not supported: this is an API mock, not a proxy.', [], { allow: 'GET, POST, OPTIONS' }));
    logger.log('CONNECT', req.url ?? '', 405, 0);
  });

  if (options.preloadPrism || options.dynamic) for (const engine of engines.values()) void engine.load().catch(() => {});

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4010, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url,
    port,
    bases: {
      storefront: `${url}${basePathTemplate.storefront}`,
      admin: mounts.has('admin') ? `${url}${basePathTemplate.admin}` : undefined,
      docs: `${url}/docs`,
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // Keep-alive connections would hold close() open until they time out.
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      }),
  };
}
