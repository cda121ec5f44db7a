// A Trigger driving the contract's Admin API (spec/openapi/admin.yaml): createWebhook registers the
// certifier's endpoint with a custom header and keeps the secret returned once; sendTestWebhook asks for
// test deliveries. When the sender is the webhook simulator (it answers GET /__simulator), business events
// are raised through its POST /__simulator/stores/{store_id}/events; otherwise test deliveries stand in for
// them (the contract delivers tests under the same rules: x-delivery-rules.testDeliveries).
import { apiBaseUrl } from 'storefront-contract/contract';
import { randomBytes } from 'node:crypto';
import type { RaiseKind, RaiseResult, SetupResult, Trigger } from './trigger.js';

export interface AdminTriggerOptions {
  /** Either the service root (`http://127.0.0.1:4010`) or the Admin API base (`.../api/v1/{store}/admin`). */
  adminUrl: string;
  adminToken: string;
  /** Store id, when adminUrl is the service root. Default `demo-store` (the spec's server default). */
  store?: string;
  event: string;
  fetch?: typeof globalThis.fetch;
}

const ADMIN_BASE = /^(.*)\/api\/v1\/([^/]+)\/admin\/?$/;
export const CUSTOM_HEADER = 'X-Certifier-Run';

export function resolveAdminUrl(adminUrl: string, store = 'demo-store'): { adminBase: string; root: string; store: string } {
  const u = new URL(adminUrl);
  const path = u.pathname.replace(/\/+$/, '');
  const m = ADMIN_BASE.exec(path);
  if (m) return { adminBase: `${u.origin}${path}`, root: `${u.origin}${m[1]}`, store: decodeURIComponent(m[2]) };
  return { adminBase: apiBaseUrl(`${u.origin}${path}`, 'admin', store), root: `${u.origin}${path}`, store };
}

type Json = Record<string, any>;

export function adminTrigger(options: AdminTriggerOptions): Trigger {
  const { adminBase, root, store } = resolveAdminUrl(options.adminUrl, options.store);
  const doFetch = options.fetch ?? globalThis.fetch;
  let webhookId: string | undefined;
  let simulator: boolean | undefined;
  let simulatorScale: number | undefined;

  async function call(method: string, url: string, body?: unknown): Promise<{ status: number; json: Json | undefined }> {
    const res = await doFetch(url, {
      method,
      headers: { authorization: `Bearer ${options.adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json: Json | undefined;
    try {
      json = JSON.parse(text) as Json;
    } catch {
      json = undefined;
    }
    return { status: res.status, json };
  }

  const messageOf = (json: Json | undefined) => (typeof json?.message === 'string' ? json.message.slice(0, 300) : 'no message');

  async function isSimulator(): Promise<boolean> {
    if (simulator !== undefined) return simulator;
    try {
      const { status, json } = await call('GET', `${root}/__simulator`);
      simulator = status === 200 && typeof json?.content?.time_scale === 'number';
      if (simulator) simulatorScale = json!.content.time_scale as number;
    } catch {
      simulator = false;
    }
    return simulator;
  }

  async function raiseTest(): Promise<RaiseResult> {
    const { status, json } = await call('POST', `${adminBase}/webhooks/${encodeURIComponent(webhookId!)}/test`, { event: options.event });
    if (status < 200 || status > 299) return { ok: false, status, note: `sendTestWebhook answered ${status}: ${messageOf(json)}` };
    return { ok: true, eventId: json?.content?.delivery?.event_id };
  }

  return {
    description: `Admin API at ${adminBase} (events via ${root}/__simulator when the sender is the simulator, else test deliveries)`,
    canTest: true,
    async detectTimeScale() {
      return (await isSimulator()) ? simulatorScale : undefined;
    },
    async setup(url): Promise<SetupResult> {
      const marker = randomBytes(12).toString('hex');
      let reply;
      try {
        reply = await call('POST', `${adminBase}/webhooks`, {
          url,
          events: [options.event],
          custom_headers: { [CUSTOM_HEADER]: marker },
          description: 'storefront-contract webhook certification (temporary; disabled by a 410 at the end)',
        });
      } catch (e) {
        throw new Error(`cannot reach the Admin API at ${adminBase}: ${(e as Error).message}`);
      }
      const secret = reply.json?.content?.secret;
      const id = reply.json?.content?.webhook?.id;
      if (reply.status !== 201 || typeof secret !== 'string' || typeof id !== 'string') {
        throw new Error(`createWebhook at ${adminBase}/webhooks answered ${reply.status} (${messageOf(reply.json)}); expected 201 with content.webhook.id and content.secret`);
      }
      webhookId = id;
      const notes = [`registered webhook ${id} for ${options.event} with custom header ${CUSTOM_HEADER}`];
      if (await isSimulator()) notes.push(`the sender is the webhook simulator (time scale ${simulatorScale}); events raised through /__simulator`);
      else notes.push('the sender is not the simulator: test deliveries stand in for business events (same delivery rules)');
      return { secret, customHeaders: { [CUSTOM_HEADER]: marker }, notes };
    },
    async raise(kind: RaiseKind): Promise<RaiseResult> {
      if (!webhookId) return { ok: false, note: 'not registered' };
      if (kind === 'test' || !(await isSimulator())) return raiseTest();
      const { status, json } = await call('POST', `${root}/__simulator/stores/${encodeURIComponent(store)}/events`, { event: options.event });
      if (status !== 202) return { ok: false, status, note: `simulator trigger answered ${status}: ${messageOf(json)}` };
      return { ok: true, eventId: json?.content?.event_id, note: `${json?.content?.deliveries?.length ?? '?'} delivery(ies) scheduled` };
    },
  };
}
