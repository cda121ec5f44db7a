// Before replaying: is the target the storefront API of this store at all? A certifier pointed at a web
// site, at the wrong root or at another store would otherwise report dozens of failures and no hint.
// Three probes tell the common mistakes apart: two the contract answers without credentials (a 401
// envelope, section 5) and the anonymous login with the store API key. Anything else is left to the
// rules, since a server with real defects must be judged, not refused.
import { request } from 'undici';
import { apiBaseUrl } from 'storefront-contract/contract';

interface Probe {
  status: number;
  contentType: string;
  /** The body is the storefront error envelope (`success: false`, a `message` string; section 2.1, 7). */
  errorEnvelope: boolean;
}

const MAX_PROBE_BODY = 64 * 1024;

async function probe(url: string, method: 'GET' | 'POST', headers: Record<string, string>, timeoutMs: number): Promise<Probe | undefined> {
  try {
    const reply = await request(url, { method, headers, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    const contentType = String(reply.headers['content-type'] ?? '');
    let errorEnvelope = false;
    if (/json/i.test(contentType) && Number(reply.headers['content-length'] ?? 0) <= MAX_PROBE_BODY) {
      try {
        const body = (await reply.body.json()) as { success?: unknown; message?: unknown } | null;
        errorEnvelope = body?.success === false && typeof body.message === 'string';
      } catch {
        // not JSON after all: not the envelope
      }
    } else await reply.body.dump();
    return { status: reply.statusCode, contentType, errorEnvelope };
  } catch {
    return undefined; // reachability is judged separately (reachable.ts)
  }
}

/** One line naming the mistake and the fix, or undefined when the target looks like this store's storefront API. */
export async function misuseReason(baseUrl: string, storeId: string, apiKey?: string, timeoutMs = 5000): Promise<string | undefined> {
  const base = apiBaseUrl(baseUrl, 'storefront', storeId);
  const probes = await Promise.all([
    probe(`${base}/common/countries`, 'GET', {}, timeoutMs),
    probe(`${base}/catalog/products`, 'GET', {}, timeoutMs),
    probe(`${base}/auth/anonymous`, 'POST', apiKey ? { 'x-api-key': apiKey } : {}, timeoutMs),
  ]);
  const answered = probes.filter((p): p is Probe => p !== undefined);
  if (answered.length === 0) return undefined;
  if (answered.every((p) => /text\/html/i.test(p.contentType))) {
    return `${base} answers HTML, not the API: --base-url must be the API server's root (the certifier adds /api/v1/{store_id}/storefront), not a web site`;
  }
  // The storefront API answers, in its own envelope, that this store is not there (or not this key's):
  // even the anonymous login with the store API key is refused with 404/403.
  if (answered.every((p) => (p.status === 404 || p.status === 403) && p.errorEnvelope)) {
    const statuses = [...new Set(answered.map((p) => p.status))].join('/');
    return `store ${storeId} not found at ${baseUrl} (${statuses} with the error envelope on every storefront probe, the API-key login included): pass --store-id <the store's id on that server>`;
  }
  if (answered.every((p) => p.status === 404)) {
    return `nothing under ${base} answers the storefront API (404 on every probe): check --base-url (the service root) and --store-id (the store's id on that server)`;
  }
  return undefined;
}
