// Issue 37 item 2: a client created once (at module level, as an app creates it) with `signIn` keeps working
// across a sandbox that forgets its tokens, as the testing guide's `sandbox.reset()` after every test does:
// the next call is refused (401), signs in again, is sent again with the fresh token, and settles. Under
// msw/node the refused answer is a mocked Response whose `body.cancel()` never settles, so a session that
// awaited it hung there. Two of the three transports are here, each with the same `reset()`: real HTTP on
// loopback (a node:http server handing each request to the sandbox's engine, `sandbox.fetch`, which is the
// workbench's pipeline) and msw/node; the third, MSW's worker in Chromium, is in test/msw/chromium.test.ts. Over real HTTP the refused answer's connection is still
// released. Nothing is timed: a call that never settles fails by the test's timeout.
import { setupServer } from 'msw/node';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorefrontClient, type StorefrontClient } from 'storefront-contract';
import { createSandboxHandlers, type InProcessSandbox } from 'storefront-contract-tools/msw';
import { sandboxApiKey } from 'storefront-contract-tools';
import { hangGuard } from '../helpers/hang-guard.js';

const STORE = 'session-reset-store';
/** Where the msw/node client sends its requests: an address that resolves nowhere, so only MSW can answer. */
const MSW_BASE = 'http://session-reset.test';

/** A client that signs in anonymously whenever its session needs a token, and the tokens it got. */
function signingInClient(baseUrl: string) {
  const tokens: string[] = [];
  const client: StorefrontClient = createStorefrontClient({
    baseUrl,
    storeId: STORE,
    apiKey: sandboxApiKey(STORE),
    signIn: async () => {
      const { access_token } = await client.signInAnonymously();
      tokens.push(access_token);
      return access_token;
    },
  });
  return { client, tokens };
}

/** One call, the sandbox's reset, the next call: both answered, a sign-in each, two different tokens. */
async function callsAcrossReset({ client, tokens }: ReturnType<typeof signingInClient>, reset: () => Promise<void>) {
  const before = await client.GET('/common/countries');
  await reset();
  const after = await client.GET('/common/countries');
  expect([before.response.status, after.response.status]).toEqual([200, 200]);
  expect(after.data?.content.countries.length).toBeGreaterThan(0);
  expect(tokens).toHaveLength(2);
  expect(tokens[1]).not.toBe(tokens[0]);
}

// Made when this module loads, before any server.listen(): as the app's module under test makes it.
const mswApp = signingInClient(MSW_BASE);

describe('issue 37 item 2: a client with signIn across the sandbox reset settles and signs in again', () => {
  describe("over real HTTP on loopback (a node:http server in front of the sandbox's engine)", () => {
    let sandbox: InProcessSandbox;
    let server: http.Server;
    let url: string;
    beforeAll(async () => {
      sandbox = await createSandboxHandlers({ webhooks: false });
      server = http.createServer(async (req, res) => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const answer = await sandbox.fetch(new URL(req.url!, sandbox.baseUrl), {
          method: req.method!,
          headers: req.headers as Record<string, string>,
          body: chunks.length ? Buffer.concat(chunks) : null,
        });
        answer.headers.forEach((value, name) => res.setHeader(name, value));
        res.writeHead(answer.status).end(Buffer.from(await answer.arrayBuffer()));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      server?.closeAllConnections();
      await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
      await sandbox?.close();
    });

    it('item 2: the next call after reset() gets a fresh token and succeeds', async () => {
      await callsAcrossReset(signingInClient(url), () => sandbox.reset());
    }, hangGuard(30_000));

    it("item 2: the refused answer's connection is released, its body never read", async () => {
      // A 401 whose body never ends: only the client going away closes it.
      let released = false;
      const server = http.createServer((req, res) => {
        const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        if (req.url!.endsWith('/auth/anonymous')) return json({ success: true, message: 'ok', content: { user: {}, access_token: 'fresh', refresh_token: 'r' } });
        if (req.headers.authorization === 'Bearer fresh') return json({ success: true, message: 'Countries fetched', content: { countries: [] } });
        res.on('close', () => (released = !res.writableEnded));
        res.writeHead(401, { 'content-type': 'application/json' }).write('{"success":false,"message":"Unknown access token');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const client: StorefrontClient = createStorefrontClient({
          baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          storeId: STORE,
          apiKey: 'k',
          accessToken: 'stale',
          signIn: () => client.signInAnonymously().then((s) => s.access_token),
        });
        expect((await client.GET('/common/countries')).response.status).toBe(200);
        await expect.poll(() => released).toBe(true);
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });
  });

  describe('under msw/node (the guide\'s setup: sandbox.reset() after each test)', () => {
    let sandbox: InProcessSandbox;
    let server: ReturnType<typeof setupServer>;
    beforeAll(async () => {
      sandbox = await createSandboxHandlers({ baseUrl: MSW_BASE, webhooks: false });
      server = setupServer(...sandbox.handlers);
      server.listen({ onUnhandledRequest: 'error' });
    });
    afterAll(async () => {
      server?.close();
      await sandbox?.close();
    });

    it('item 2: the module-level client\'s next call after reset() gets a fresh token and succeeds', async () => {
      await callsAcrossReset(mswApp, () => sandbox.reset());
    }, hangGuard(30_000));
  });
});
