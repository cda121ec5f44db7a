// What a scenario driver uses to make traffic through the recording proxy: one call per step, named
// with the `x-conformance-step` header so the recording's entries carry step names for the bindings.
import { request } from 'undici';
import { STEP_HEADER } from '../recorder/proxy.js';

export interface StepRequest {
  method: 'GET' | 'POST';
  /** Path inside the storefront API, e.g. `/catalog/products`. */
  path: string;
  query?: Record<string, string | number | boolean | Array<string | number>>;
  headers?: Record<string, string>;
  /** A JSON body (sent with Content-Type: application/json unless `headers` says otherwise). */
  json?: unknown;
  /** A raw body, sent as is. */
  raw?: string;
}

export interface StepReply {
  status: number;
  body: any;
}

export interface Session {
  /** Credentials the driver may use; they are redacted by the recorder. */
  apiKey: string;
  restrictedApiKey: string;
  step(name: string, req: StepRequest): Promise<StepReply>;
}

export function createSession(proxyUrl: string, storeId: string, keys: { apiKey: string; restrictedApiKey: string }): Session {
  const base = `${proxyUrl}/api/v1/${encodeURIComponent(storeId)}/storefront`;
  return {
    ...keys,
    async step(name, req) {
      const url = new URL(base + req.path);
      for (const [k, v] of Object.entries(req.query ?? {})) {
        for (const item of Array.isArray(v) ? v : [v]) url.searchParams.append(k, String(item));
      }
      const headers: Record<string, string> = { accept: 'application/json', [STEP_HEADER]: name, ...(req.headers ?? {}) };
      let body: string | undefined;
      if (req.json !== undefined) {
        body = JSON.stringify(req.json);
        headers['content-type'] ??= 'application/json';
      } else if (req.raw !== undefined) {
        body = req.raw;
      }
      const reply = await request(url, { method: req.method, headers, body });
      const text = await reply.body.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // keep text
      }
      return { status: reply.statusCode, body: parsed };
    },
  };
}

export interface ScenarioDriver {
  name: string;
  description: string;
  drive(session: Session): Promise<void>;
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** Throws when a step did not get the status the scenario is about (the recording would be wrong). */
export function expectStatus(step: string, reply: StepReply, status: number): StepReply {
  if (reply.status !== status) throw new Error(`scenario step ${step}: expected ${status}, got ${reply.status}: ${JSON.stringify(reply.body).slice(0, 300)}`);
  return reply;
}
