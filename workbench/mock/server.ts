// createMockServer: one node:http server on loopback serving the storefront and admin documents on
// their real paths. Used by `npm start` (cli.ts), the tests, the benchmark and the certifier.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { basePathTemplate } from 'storefront-contract/contract';
import { fail, refuseSocket, writeError } from '../http/errors.js';
import { createMockHandler, type MockHandlerOptions } from './handler.js';

export type { ControlRoute, WorkbenchExtension } from '../http/extension.js';

export interface MockServerOptions extends Omit<MockHandlerOptions, 'docsRoot' | 'withoutPrism' | 'adminAbsent'> {
  /** 0 picks a free port. Default 4010. */
  port?: number;
  /** Default 127.0.0.1: the mock is a development tool and stays on loopback unless asked. */
  host?: string;
  /** Folder served at /docs. Default docs/site. */
  docsRoot?: string;
  /** Load Prism at start instead of on the first request that needs it. */
  preloadPrism?: boolean;
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
  // The pipeline itself (handler.ts): the same one createWorkbenchHandler calls in process.
  const { handle, mounts, engines, logger } = await createMockHandler(options);

  const server = http.createServer(handle);
  // Idle kept-alive connections stay open longer than clients' own pools keep them (undici 4 s, browsers
  // and most HTTP libraries under 60 s), so it is the client that retires an idle socket. With node's
  // 5 s default, a busy client could send a POST on a socket the server was closing at that instant and
  // get ECONNRESET: a request lost to a race the client cannot safely retry.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
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
