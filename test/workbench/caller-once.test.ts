// issue 39 item 2: the pipeline resolves the caller once (the store of the path, the key, the token and
// the holder the extension resolved it to) and hands it to the live operation as `caller`; the handler
// parses no credential header. Run on the engine itself (handle(Request) -> Response, no socket), with an
// extension that counts how often it is asked about the token. The sandbox's own use (a token reads only
// its customer under --ownership strict) is shown by test/sandbox/guards.test.ts, through the same path.
import { beforeAll, describe, expect, it } from 'vitest';
import { createMockHandler } from '../../workbench/engine/compose.js';
import type { Caller, WorkbenchExtension } from '../../workbench/http/extension.js';

const BASE = 'http://engine.test/api/v1/store-a/storefront';

describe('issue 39 item 2: the caller resolved once', () => {
  let handle: (request: Request) => Promise<Response>;
  const asked: string[] = [];
  const seen: Caller[] = [];
  beforeAll(async () => {
    const extension: WorkbenchExtension = {
      judgeToken: (_scheme, token, { storeId }) => {
        asked.push(token);
        if (token === 'refused') return 'refused by the test extension';
        return token === 'known' ? { identity: { user: 'u_1', store: storeId } } : undefined;
      },
      operations: new Map([['storefront.listCountries', { handle: (request) => (seen.push(request.caller), { status: 200, body: { ok: true } }) }]]),
    };
    ({ handle } = await createMockHandler({ specs: { admin: null }, quiet: true, extensions: [extension], faults: false }));
  });

  it('item 2: a live operation gets the store, the token and the holder its extension resolved; the token is judged once', async () => {
    asked.length = 0;
    seen.length = 0;
    const res = await handle(new Request(`${BASE}/common/countries`, { headers: { authorization: 'Bearer known' } }));
    expect(res.status).toBe(200);
    expect(asked).toEqual(['known']);
    expect(seen).toEqual([{ storeId: 'store-a', token: 'known', identity: { user: 'u_1', store: 'store-a' } }]);
  });

  it('item 2: a token no extension knows is accepted without a holder; a refused one never reaches the handler', async () => {
    seen.length = 0;
    expect((await handle(new Request(`${BASE}/common/countries`, { headers: { authorization: 'Bearer stranger' } }))).status).toBe(200);
    expect(seen).toEqual([{ storeId: 'store-a', token: 'stranger' }]);
    const refused = await handle(new Request(`${BASE}/common/countries`, { headers: { authorization: 'Bearer refused' } }));
    expect(refused.status).toBe(401);
    expect(seen).toHaveLength(1);
  });
});
