// Listening helpers shared by the example receivers: each example builds its app as a function (the
// tests start the same function on port 0) and listens only when run as a program.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

export interface RunningApp {
  /** The webhook endpoint, e.g. http://127.0.0.1:3000/webhooks. */
  url: string;
  close(): Promise<void>;
}

/** True when `moduleUrl` is the file node was started with (`npx tsx examples/receivers/node.ts`). */
export function isMain(moduleUrl: string): boolean {
  return process.argv[1] !== undefined && moduleUrl === pathToFileURL(process.argv[1]).href;
}

/** Listens on 127.0.0.1; `port` 0 picks a free one. */
export async function listen(server: Server, port: number, path = '/webhooks'): Promise<RunningApp> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function announce(app: RunningApp): void {
  console.log(`listening on ${app.url}`);
}
