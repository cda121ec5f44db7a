// node:http -> Fetch API bridge (what @hono/node-server and similar do), small enough to read: the body
// is streamed into the Request, and cancelling it stops reading without destroying the socket, so the
// handler can still answer 413.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

function toRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const url = `http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`;
  if (req.method === 'GET' || req.method === 'HEAD') return new Request(url, { method: req.method, headers });
  let onData: ((chunk: Buffer) => void) | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      onData = (chunk) => {
        controller.enqueue(new Uint8Array(chunk));
        if ((controller.desiredSize ?? 1) <= 0) req.pause();
      };
      req.on('data', onData);
      req.once('end', () => controller.close());
      req.once('error', (error) => controller.error(error));
    },
    pull() {
      req.resume();
    },
    cancel() {
      req.pause();
      if (onData) req.off('data', onData);
    },
  });
  return new Request(url, { method: req.method, headers, body, duplex: 'half' } as RequestInit);
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  res.end(Buffer.from(await response.arrayBuffer()));
}

export function createFetchServer(handle: (request: Request) => Promise<Response>): Server {
  return createServer((req, res) => {
    handle(toRequest(req))
      .then((response) => send(res, response))
      .catch(() => {
        res.statusCode = 500;
        res.end();
      });
  });
}
