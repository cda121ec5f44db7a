// Sends one probe to the receiver with node:http, so repeated and odd header values go out exactly as
// built, and a receiver that answers 413 and closes while the body is still being written is read
// correctly (the answer counts, the broken pipe after it does not).
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';

export interface ProbeRequest {
  body: Buffer;
  headers: Record<string, string | string[]>;
}

export interface ProbeAnswer {
  status: number | null;
  transportError?: string;
  durationMs: number;
}

export function sendProbe(url: string, probe: ProbeRequest, timeoutMs: number): Promise<ProbeAnswer> {
  const started = performance.now();
  const target = new URL(url);
  const lib = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const done = (answer: Omit<ProbeAnswer, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...answer, durationMs: performance.now() - started });
    };
    const req = lib.request(target, {
      method: 'POST',
      headers: { ...probe.headers, 'content-length': String(probe.body.length), connection: 'close' },
      agent: false,
    });
    req.setTimeout(timeoutMs, () => {
      done({ status: null, transportError: `no answer within ${timeoutMs} ms` });
      req.destroy();
    });
    req.on('response', (res) => {
      done({ status: res.statusCode ?? null });
      res.resume();
    });
    req.on('error', (e: NodeJS.ErrnoException) => done({ status: null, transportError: e.code ?? e.message }));
    req.end(probe.body);
  });
}

/** Reads the processed-event counts from --probe-url: `{ "processed": { "<event_id>": n } }` or the bare map. */
export async function readProcessed(url: string): Promise<Map<string, number>> {
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
  const json = (await res.json()) as Record<string, unknown>;
  const map = (json.processed && typeof json.processed === 'object' ? json.processed : json) as Record<string, unknown>;
  const counts = new Map<string, number>();
  for (const [id, n] of Object.entries(map)) if (typeof n === 'number') counts.set(id, n);
  return counts;
}
