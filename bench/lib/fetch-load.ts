// A storefront page requested many times through any fetch-like function (undici over HTTP, the engine
// called directly, MSW's intercepted fetch): the shared load loop of the bench suites that compare them.
import { sandboxApiKey } from '../../workbench/index.js';
import type { Tally } from './alternate.js';

export type Fetch = (url: string, init?: { headers?: Record<string, string>; method?: string }) => Promise<{ status: number; text(): Promise<string> }>;

/** An access token for the bench store, signed in anonymously through `fetch` at `base`. */
export async function token(fetch: Fetch, base: string): Promise<string> {
  const res = await fetch(`${base}/api/v1/bench-store/storefront/auth/anonymous`, { method: 'POST', headers: { 'x-api-key': sandboxApiKey('bench-store') } });
  return (JSON.parse(await res.text()) as { content: { access_token: string } }).content.access_token;
}

/** `requests` requests of `url`, `concurrency` in flight; any non-200 fails the run. */
export function side(fetch: Fetch, url: string, auth: string, requests: number, concurrency: number): () => Promise<Tally> {
  return async () => {
    let next = 0;
    const started = performance.now();
    const worker = async () => {
      while (next < requests) {
        next++;
        const res = await fetch(url, { headers: { authorization: `Bearer ${auth}` } });
        await res.text();
        if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return { n: requests, ms: performance.now() - started };
  };
}
