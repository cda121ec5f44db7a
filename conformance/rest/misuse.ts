// Before replaying: is the target the storefront API at all? A certifier pointed at a web site or at the
// wrong root would otherwise report dozens of failures and no hint. Two probes the contract answers
// without credentials (a 401 envelope, section 5) tell the common mistakes apart; anything else is left
// to the rules, since a server with real defects must be judged, not refused.
import { request } from 'undici';
import { apiBaseUrl } from '../../src/contract/paths.js';

interface Probe {
  status: number;
  contentType: string;
}

async function probe(url: string, method: 'GET' | 'POST', timeoutMs: number): Promise<Probe | undefined> {
  try {
    const reply = await request(url, { method, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    await reply.body.dump();
    return { status: reply.statusCode, contentType: String(reply.headers['content-type'] ?? '') };
  } catch {
    return undefined; // reachability is judged separately (reachable.ts)
  }
}

/** One line naming the mistake and the fix, or undefined when the target looks like a storefront API. */
export async function misuseReason(baseUrl: string, storeId: string, timeoutMs = 5000): Promise<string | undefined> {
  const base = apiBaseUrl(baseUrl, 'storefront', storeId);
  const probes = await Promise.all([probe(`${base}/common/countries`, 'GET', timeoutMs), probe(`${base}/auth/anonymous`, 'POST', timeoutMs)]);
  const answered = probes.filter((p): p is Probe => p !== undefined);
  if (answered.length === 0) return undefined;
  if (answered.every((p) => /text\/html/i.test(p.contentType))) {
    return `${base} answers HTML, not the API: --base-url must be the API server's root (the certifier adds /api/v1/{store_id}/storefront), not a web site`;
  }
  if (answered.every((p) => p.status === 404)) {
    return `nothing under ${base} answers the storefront API (404 on every probe): check --base-url (the service root) and --store-id (the store's id on that server)`;
  }
  return undefined;
}
