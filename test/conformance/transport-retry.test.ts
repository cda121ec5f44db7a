// The keep-alive race, staged: a server that drops every second request on a kept-alive connection with no
// answer (what a server's idle time-out does when it fires as the next request goes out). The certifier's
// send() sends an idempotent request once more on a new connection and gets its answer; a POST is never
// sent twice by the certifier on its own: its transport failure is reported.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher, send } from '../../conformance/rest/http.js';

let server: http.Server;
let base: string;
const received: string[] = [];

beforeAll(async () => {
  const perSocket = new WeakMap<Socket, number>();
  server = http.createServer((req, res) => {
    const n = (perSocket.get(req.socket) ?? 0) + 1;
    perSocket.set(req.socket, n);
    received.push(`${req.method} #${n}`);
    req.resume();
    if (n >= 2) return req.socket.destroy();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

describe('a connection reset before any answer', () => {
  it('is sent once more for an idempotent request, on a new connection', async () => {
    received.length = 0;
    const dispatcher = createDispatcher(1);
    try {
      const first = await send({ method: 'GET', url: `${base}/a`, headers: {} }, dispatcher, true);
      const second = await send({ method: 'GET', url: `${base}/b`, headers: {} }, dispatcher, true);
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(second.body).toEqual({ ok: true });
      // The second GET went out on the kept-alive socket, was dropped, and was sent again on a new one.
      expect(received).toEqual(['GET #1', 'GET #2', 'GET #1']);
    } finally {
      await dispatcher.close();
    }
  });

  it('is the reported failure for a POST (never sent twice by the certifier on its own)', async () => {
    received.length = 0;
    const dispatcher = createDispatcher(1);
    try {
      await send({ method: 'POST', url: `${base}/a`, headers: { 'content-type': 'application/json' }, body: '{}' }, dispatcher, true);
      await expect(send({ method: 'POST', url: `${base}/b`, headers: { 'content-type': 'application/json' }, body: '{}' }, dispatcher, true)).rejects.toThrow();
      expect(received).toEqual(['POST #1', 'POST #2']);
    } finally {
      await dispatcher.close();
    }
  });
});
