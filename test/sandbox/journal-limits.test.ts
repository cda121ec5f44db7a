// The workbench's store under a REAL file size limit, and the 0.2.x journal's shape checks at the upgrade.
// The workbench CLI runs as a child under `prlimit --fsize` (Node ignores SIGXFSZ, so a WAL append past the
// limit fails with EFBIG): writes go on until one fails, the failed one must be a 503 with the envelope and
// Retry-After, and after a restart without the limit every acknowledged write is there. A 0.2.x journal
// entry of the right version and the wrong shape stops the start naming file, line and field.
import { spawnSync } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../helpers/cleanup.js';
import { mockCli, stopChild, type RunningMock } from '../helpers/mock-cli.js';
import { http, KEY, startSandbox } from './helpers.js';
import { hangGuard } from '../helpers/hang-guard.js';

const { tempDir } = cleanupAfterEach();
const mock = mockCli();
const dir = () => tempDir('journal-');

const HAS_PRLIMIT = spawnSync('prlimit', ['--version']).status === 0;

/** The CLI as a child (NODE_OPTIONS with the sfc-source condition is inherited), optionally under a file size limit. */
function cli(dataDir: string, fsizeBytes?: number): Promise<RunningMock> {
  const wrap =
    fsizeBytes === undefined
      ? undefined
      : HAS_PRLIMIT
        ? (node: string[]) => ['prlimit', `--fsize=${fsizeBytes}`, ...node]
        : (node: string[]) => ['bash', '-c', `ulimit -f ${Math.floor(fsizeBytes / 1024)}; exec "$@"`, 'bash', ...node];
  return mock.start(['--port', '0', '--quiet', '--data-dir', dataDir], 'world and back office', { wrap });
}

const customer = (i: number) => ({
  business: { business_type: 'salon', name: `Limit Salon ${i}`, pan_number: 'AAKFD1234M', gstin: '29AAKFD1234M1Z3' },
  address: { first_name: 'Lim', last_name: `It${i}`, country_code: '+91', phone: `98${String(i).padStart(8, '0')}`, email: `limit${i}@example.in` },
});

describe('a write the store cannot keep does not poison it', () => {
  it('under a real file size limit: the failed write is a 503 with Retry-After, and every acknowledged write survives a restart', async () => {
    const data = await dir();
    const file = path.join(data, 'workbench.sqlite');
    const warm = await cli(data);
    const anon = await http(`${warm.url}/api/v1/demo-store/storefront/auth/anonymous`, 'POST', { headers: KEY });
    expect(anon.status).toBe(200);
    const auth = { authorization: `Bearer ${anon.json.content.access_token}` };
    const seeded = await http(`${warm.url}/api/v1/demo-store/storefront/customers`, 'POST', { headers: auth, body: customer(0) });
    expect(seeded.status).toBe(201);
    await stopChild(warm.child);
    // The limit: a little above the database (the simulator's tables in it too); each write appends WAL pages.
    const limit = statSync(file).size + 512 * 1024;

    const first = await cli(data, limit);
    const base = `${first.url}/api/v1/demo-store/storefront`;
    const acknowledged: string[] = [seeded.json.content.customer_detail.id];
    let failed: Awaited<ReturnType<typeof http>> | undefined;
    for (let i = 1; i < 400 && !failed; i++) {
      const r = await http(`${base}/customers`, 'POST', { headers: auth, body: customer(i) });
      if (r.status === 201) acknowledged.push(r.json.content.customer_detail.id);
      else failed = r;
    }
    expect(failed, 'the file size limit was never reached').toBeDefined();
    expect(acknowledged.length, `${failed?.status} ${failed?.text}`).toBeGreaterThan(2);
    expect(failed!.status).toBe(503);
    expect(failed!.headers['retry-after']).toMatch(/^\d+$/);
    expect(failed!.json).toMatchObject({ success: false, content: { error: { code: 'service_unavailable', details: [] } } });
    expect(failed!.json.message).toMatch(/SQLITE_(FULL|IOERR)/);
    // The workbench still answers reads, and a second failed write is answered the same way.
    expect((await http(`${base}/customers/${acknowledged[0]}/cards`, 'GET', { headers: auth })).status).toBe(200);
    expect((await http(`${base}/customers`, 'POST', { headers: auth, body: customer(999) })).status).toBe(503);
    await stopChild(first.child);

    const second = await cli(data);
    const base2 = `${second.url}/api/v1/demo-store/storefront`;
    for (const id of acknowledged) expect((await http(`${base2}/customers/${id}/cards`, 'GET', { headers: auth })).status, id).toBe(200);
    // And the store takes writes again.
    expect((await http(`${base2}/customers`, 'POST', { headers: auth, body: customer(1000) })).status).toBe(201);
    await stopChild(second.child);
  }, hangGuard(120_000));
});

describe('0.2.x journal entries of the wrong shape', () => {
  const line = (o: unknown) => `${JSON.stringify(o)}\n`;
  const at = '2026-01-01T00:00:00Z';
  const cases: Array<[string, unknown, RegExp]> = [
    ['an unknown op', { v: 1, store: 'demo-store', at, op: 'delete' }, /line 2 .*field op must be one of/],
    ['puts not an array', { v: 1, store: 'demo-store', at, op: 'put', puts: {} }, /line 2 .*field puts must be an array/],
    ['an unknown kind', { v: 1, store: 'demo-store', at, op: 'put', puts: [{ kind: 'coupon', record: {} }] }, /line 2 .*field puts\[0\]\.kind must be one of/],
    ['a customer without its fields', { v: 1, store: 'demo-store', at, op: 'put', puts: [{ kind: 'customer', record: { id: 'cst_X' } }] }, /line 2 .*field puts\[0\]\.record\.\w+ is required/],
    ['a product whose variants are not a list', { v: 1, store: 'demo-store', at, op: 'put', puts: [{ kind: 'product', record: { id: 'prd_X', variants: 3 } }] }, /line 2 .*field puts\[0\]\.record\.\w+/],
    ['an identity without digests', { v: 1, store: 'demo-store', at, op: 'identity', identity: { store_id: 'demo-store', user: { id: 'usr_1' } } }, /line 2 .*field identity\.access_token_sha256/],
  ];

  it.each(cases)('%s stops the start (the upgrade) naming file, line and field', async (_name, entry, message) => {
    const data = await dir();
    const journal = path.join(data, 'sandbox.jsonl');
    writeFileSync(journal, line({ v: 1, store: 'demo-store', at, op: 'reset' }) + line(entry), { mode: 0o600 });
    const started = startSandbox({ webhooks: false, sandbox: { dataDir: data } });
    await expect(started).rejects.toThrow(/sandbox\.jsonl line 2 is a sandbox journal entry of the wrong shape/);
    await expect(started).rejects.toThrow(message);
  });
});
