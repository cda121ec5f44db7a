// Memory scaling rows: does a workbench with a 512 MB heap (`node --max-old-space-size=512`, the CLI
// `storefront-contract mock` as a child, in memory: no --data-dir) stay up and answer under loads that
// used to grow its heap without bound? (1) 5,000 stores each written once (a back-office product
// rename: each store's world is built, written and, past --max-worlds, evicted), then a sample read
// back, the renamed product still renamed; (2) 2,000 fulfillment requests of the largest valid body
// (a pincode filling the 1 MB body limit), each answered 200; (3) the same 1 MB requests, 1,000 of them, with
// no console page open and then with one reading the live log (issue 37 item 21: the request log kept every
// body, 500 of them raised RSS from ~150 to 650 MB): the RSS growth from after a warm-up to the end, target
// under 64 MB. Each row's loop is bounded in count and time, loopback only; the child's RSS is sampled from
// /proc every 250 ms (peak and at the end).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { request } from 'undici';
import { repoRoot } from '../../scripts/lib/repo.js';
import { sandboxApiKey } from '../../workbench/index.js';
import { childRssMB } from '../lib/child-cpu.js';
import { openLiveLog } from '../lib/live-log.js';

export const HEAP_MB = 512;
const STORES = 5000;
const FULFILLMENT_REQUESTS = 2000;
const ROW_BUDGET_MS = 300_000;
const BODY_LIMIT = 1024 * 1024;
const LARGE_BODY_REQUESTS = 1000;
const LARGE_BODY_WARMUP = 50;
/** RSS growth allowed over 1,000 requests of 1 MB (issue 37 item 21). */
export const LARGE_BODY_GROWTH_TARGET_MB = 64;

export interface MemoryRow {
  load: string;
  requests?: number;
  answered?: number;
  seconds?: number;
  peakRssMB?: number;
  endRssMB?: number;
  /** The child was still up and answering at the end. */
  up?: boolean;
  /** RSS after the row's warm-up, and its growth from there to the end (rows that measure growth). */
  baselineRssMB?: number;
  growthMB?: number;
  targetMB?: number;
  note?: string;
}

async function startChild(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, '--import', 'tsx', path.join(repoRoot, 'cli/storefront-contract.ts'), 'mock', '--port', '0', '--quiet'], {
    cwd: repoRoot,
    env: { ...process.env, NODE_OPTIONS: '--conditions=sfc-source' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stderr!.on('data', (c) => process.stderr.write(`  workbench: ${c}`));
    child.stdout!.on('data', (c) => {
      out += c;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m && out.includes('world and back office')) resolve({ child, url: m[1] });
    });
    child.once('exit', (code) => reject(new Error(`workbench exited with ${code} before listening`)));
  });
}

async function json(url: string, method: 'GET' | 'POST' | 'PATCH', headers: Record<string, string>, body?: string): Promise<{ status: number; json: any }> {
  const res = await request(url, { method, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers }, body });
  const text = await res.body.text();
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.statusCode, json: parsed };
}

async function row(load: string, requests: number, run: (url: string, deadline: number, pid: number) => Promise<{ answered: number; note?: string; baselineRssMB?: number }>): Promise<MemoryRow> {
  process.stderr.write(`scaling: memory, ${load}\n`);
  const { child, url } = await startChild();
  let peak = childRssMB(child.pid!) ?? 0;
  const sampler = setInterval(() => (peak = Math.max(peak, childRssMB(child.pid!) ?? 0)), 250);
  let died = false;
  child.once('exit', () => (died = true));
  const started = Date.now();
  try {
    const { answered, note, baselineRssMB } = await run(url, started + ROW_BUDGET_MS, child.pid!);
    const seconds = Number(((Date.now() - started) / 1000).toFixed(1));
    const endRssMB = childRssMB(child.pid!);
    const up = !died && (await json(`${url}/__simulator/stores/demo-store/world`, 'GET', {}).then((r) => r.status === 200, () => false));
    const growth = baselineRssMB !== undefined && endRssMB !== undefined ? { baselineRssMB, growthMB: endRssMB - baselineRssMB, targetMB: LARGE_BODY_GROWTH_TARGET_MB } : {};
    return { load, requests, answered, seconds, peakRssMB: peak, endRssMB, up, note, ...growth };
  } catch (e) {
    return { load, requests, up: false, note: `${died ? 'the workbench died: ' : ''}${String((e as Error).message).split('\n')[0].slice(0, 160)}`, peakRssMB: peak };
  } finally {
    clearInterval(sampler);
    if (!died) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }
}

/** Issue 39: "RSS flat for 10,000 touched stores". */
const TOUCHED_STORES = 10_000;
const TOUCHED_SAMPLE_EVERY = 1_000;
/** Flat: RSS growth from the 2,000th store to the last, past the held worlds' bound (--max-worlds 64). */
const TOUCHED_FROM = 2_000;
export const TOUCHED_GROWTH_TARGET_MB = 32;
const TOUCHED_BUDGET_MS = 600_000;

export interface TouchedStoresRow {
  stores: number;
  seconds: number;
  rssMB: number | undefined;
}

/**
 * 10,000 stores touched once each, as an app opens a store: a sign-in with the store's own key (an
 * identity kept in the store) and one 5-product page (the store's world built, past --max-worlds 64 the
 * least recently used dropped). The child's RSS is read after every 1,000th store.
 */
export async function touchedStoresRows(): Promise<{ samples: TouchedStoresRow[]; growthMB?: number; targetMB: number; up: boolean; note?: string }> {
  process.stderr.write(`scaling: stores, ${TOUCHED_STORES} stores touched once each\n`);
  const { child, url } = await startChild();
  let died = false;
  child.once('exit', () => (died = true));
  const started = Date.now();
  const samples: TouchedStoresRow[] = [];
  let failed = 0;
  let i = 0;
  try {
    for (; i < TOUCHED_STORES && Date.now() < started + TOUCHED_BUDGET_MS; i++) {
      const store = `touch-${i}`;
      const base = `${url}/api/v1/${store}/storefront`;
      const signIn = await json(`${base}/auth/anonymous`, 'POST', { 'x-api-key': sandboxApiKey(store) });
      const page = await json(`${base}/catalog/products?limit=5`, 'GET', { authorization: `Bearer ${signIn.json?.content?.access_token}` });
      if (signIn.status !== 200 || page.status !== 200) failed++;
      if ((i + 1) % TOUCHED_SAMPLE_EVERY === 0) {
        samples.push({ stores: i + 1, seconds: Number(((Date.now() - started) / 1000).toFixed(1)), rssMB: childRssMB(child.pid!) });
        process.stderr.write(`scaling: stores, ${i + 1} touched, RSS ${samples.at(-1)!.rssMB} MB\n`);
      }
    }
    const from = samples.find((r) => r.stores === TOUCHED_FROM)?.rssMB;
    const to = samples.at(-1)?.rssMB;
    const up = !died && (await json(`${url}/__simulator/stores/demo-store/world`, 'GET', {}).then((r) => r.status === 200, () => false));
    const notes = [i < TOUCHED_STORES ? `stopped by the time budget at ${i}` : '', failed ? `${failed} stores not answered 200` : ''].filter(Boolean);
    return { samples, growthMB: from !== undefined && to !== undefined ? to - from : undefined, targetMB: TOUCHED_GROWTH_TARGET_MB, up, note: notes.join('; ') || undefined };
  } finally {
    if (!died) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }
}

export async function memoryRows(): Promise<MemoryRow[]> {
  const rows: MemoryRow[] = [];
  rows.push(
    await row(`${STORES} stores each written once (back-office rename), every 50th read back`, STORES, async (url, deadline) => {
      let answered = 0;
      let i = 0;
      for (; i < STORES && Date.now() < deadline; i++) {
        const r = await json(`${url}/__simulator/stores/mem-${i}/products/prd_7Q2K9X`, 'PATCH', {}, JSON.stringify({ name: `Lipstick ${i}` }));
        if (r.status === 200) answered++;
      }
      let wrong = 0;
      for (let j = 0; j < i; j += 50) {
        const r = await json(`${url}/__simulator/stores/mem-${j}/world/products`, 'GET', {});
        if (r.json?.find?.((p: any) => p.id === 'prd_7Q2K9X')?.name !== `Lipstick ${j}`) wrong++;
      }
      return { answered, note: `${i < STORES ? `stopped by the time budget at ${i}; ` : ''}${Math.ceil(i / 50)} read back, ${wrong} wrong` };
    }),
  );
  rows.push(
    await row(`${FULFILLMENT_REQUESTS} fulfillment requests of the largest valid body (1 MB pincode)`, FULFILLMENT_REQUESTS, async (url, deadline) => {
      const send = await largeBodySender(url);
      let answered = 0;
      let i = 0;
      for (; i < FULFILLMENT_REQUESTS && Date.now() < deadline; i++) if ((await send(i)) === 200) answered++;
      return { answered, note: i < FULFILLMENT_REQUESTS ? `stopped by the time budget at ${i}` : undefined };
    }),
  );
  for (const page of [false, true]) {
    rows.push(
      await row(`1,000 requests of 1 MB body: RSS growth, ${page ? 'a console page reading the live log' : 'no console page open'}`, LARGE_BODY_REQUESTS, async (url, deadline, pid) => {
        const stream = page ? await openLiveLog(url) : undefined;
        try {
          const send = await largeBodySender(url);
          // A warm-up fills what a workbench keeps anyway (the log's ring of summaries, the allocator's arenas); then the baseline.
          for (let w = 0; w < LARGE_BODY_WARMUP; w++) await send(9_000_000 + w);
          const baselineRssMB = childRssMB(pid);
          let answered = 0;
          let i = 0;
          for (; i < LARGE_BODY_REQUESTS && Date.now() < deadline; i++) if ((await send(i)) === 200) answered++;
          const notes = [i < LARGE_BODY_REQUESTS ? `stopped by the time budget at ${i}` : '', stream ? `${stream.events()} log events read` : ''].filter(Boolean);
          return { answered, baselineRssMB, note: notes.join('; ') || undefined };
        } finally {
          stream?.close();
        }
      }),
    );
  }
  return rows;
}

/** Sends the i-th fulfillment request whose body fills the 1 MB limit (a distinct pincode each time); resolves with its status. */
async function largeBodySender(url: string): Promise<(i: number) => Promise<number>> {
  const base = `${url}/api/v1/demo-store/storefront`;
  const anon = await json(`${base}/auth/anonymous`, 'POST', { 'x-api-key': sandboxApiKey('demo-store') });
  const auth = { authorization: `Bearer ${anon.json.content.access_token}` };
  const shell = JSON.stringify({ cart_id: 'crt_8N2F6Q', delivery_pincode: '' });
  return async (i) => {
    // Distinct every time (so no answer is a repeat), and exactly as large as the body limit allows.
    const head = String(i).padStart(7, '0');
    const body = JSON.stringify({ cart_id: 'crt_8N2F6Q', delivery_pincode: head + '7'.repeat(BODY_LIMIT - shell.length - head.length) });
    return (await json(`${base}/shipping/fulfillment-options`, 'POST', auth, body)).status;
  };
}

