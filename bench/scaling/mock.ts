// Mock scaling rows: the sandbox (`npm start`, its own 100-product page, strict bearer token) and a bare
// node:http server sending the same bytes, each under autocannon at 10, 100 and 1,000 connections.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../scripts/lib/repo.js';
import { BARE_SERVER, BENCH_STORE_KEY, body, exited, freePort, sandboxToken, start, stop, type Side } from '../suites/mock.js';

const require = createRequire(import.meta.url);
// autocannon ships no types; only run() and its result fields below are used.
const autocannon = require('autocannon') as (opts: Record<string, unknown>) => Promise<any>;

export const MOCK_CONNECTIONS = [10, 100, 1000];
const DURATION_S = 4;
const PAGE = '/api/v1/bench-store/storefront/catalog/products?limit=100';

export interface MockRow {
  side: string;
  connections: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

async function load(url: string, token: string, connections: number): Promise<Omit<MockRow, 'side' | 'connections'>> {
  const opts = { url, connections, pipelining: 1, headers: { authorization: `Bearer ${token}` } };
  await autocannon({ ...opts, duration: 1 }); // warm-up, not recorded
  const r = await autocannon({ ...opts, duration: DURATION_S });
  return { rps: Math.round(r.requests.average), p50Ms: r.latency.p50, p99Ms: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
}

export async function mockRows(): Promise<MockRow[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'scaling-mock-'));
  let sandbox: Side | undefined;
  let bare: Side | undefined;
  try {
    const [sandboxPort, barePort] = await Promise.all([freePort(), freePort()]);
    const args = ['--import', 'tsx', path.join(repoRoot, 'cli/storefront-contract.ts'), 'mock', '--port', String(sandboxPort), '--host', '127.0.0.1', '--quiet'];
    sandbox = await start('sandbox (npm start)', args, sandboxPort, PAGE, { path: '/api/v1/bench-store/storefront/auth/anonymous', method: 'POST', headers: BENCH_STORE_KEY });
    const token = await sandboxToken(sandboxPort);
    const pageFile = path.join(dir, 'page.json');
    await writeFile(pageFile, await body(sandbox.url, token));
    bare = await start('bare node:http, same bytes', ['-e', BARE_SERVER, pageFile, String(barePort)], barePort, PAGE);
    const rows: MockRow[] = [];
    for (const connections of MOCK_CONNECTIONS) {
      for (const side of [bare, sandbox]) {
        process.stderr.write(`scaling: mock ${side.label}, ${connections} connections\n`);
        rows.push({ side: side.label, connections, ...(await load(side.url, token, connections)) });
      }
    }
    return rows;
  } finally {
    stop(sandbox);
    stop(bare);
    await Promise.all([exited(sandbox), exited(bare)]);
    await rm(dir, { recursive: true, force: true });
  }
}
