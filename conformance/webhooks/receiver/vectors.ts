// The receiver kit's negative vectors (conformance/vectors/webhook-vectors.ts), adapted to travel over HTTP to a
// receiver holding another secret. They are reused, not copied, so the kit and the certifier judge the
// same inputs. Adaptation:
// - vectors about the receiver's own configuration (no secret, a parsed body, a custom maxBodyBytes) do
//   not apply over the wire and are left out;
// - vectors whose signature is meant to be valid are re-signed with the target's secret;
// - each is grouped by what it tests: a header/body mismatch, authentic but bad content, a forgery a
//   receiver verifying re-serialised JSON would accept (raw-bytes), or a bad signature.
import { createHmac } from 'node:crypto';
import { deliveryRules } from 'storefront-contract';
import { signPayload } from 'storefront-contract/webhooks';
import { deliveryVectors } from '../../vectors/webhook-vectors.js';
import { SECRET } from '../../vectors/webhook-fixtures.js';
import type { ProbeGroup } from '../observations.js';
import type { ProbeRequest } from './send.js';

export interface WireVector {
  name: string;
  group: ProbeGroup;
  probe: ProbeRequest;
}

const signatureHeader = deliveryRules.signature.header.toLowerCase();

/** True when a receiver that re-serialises the parsed body before verifying would accept these bytes. */
export function fooledByReserialisation(raw: Buffer, signature: unknown, secret: string): boolean {
  if (typeof signature !== 'string' || !signature.startsWith('sha256=')) return false;
  let text: string;
  try {
    text = JSON.stringify(JSON.parse(raw.toString('utf8')));
  } catch {
    return false;
  }
  if (text === raw.toString('utf8')) return false;
  return createHmac('sha256', secret).update(text).digest('hex') === signature.slice(7);
}

function toWireHeaders(headers: Record<string, unknown>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || value === null) continue;
    out[name] = Array.isArray(value) ? value.map(String) : String(value);
  }
  return out;
}

export function wireVectors(secret: string): WireVector[] {
  const out: WireVector[] = [];
  for (const v of deliveryVectors()) {
    if (v.want.status === 200) continue; // positives: the certifier sends its own, one per event type
    if (!(v.rawBody instanceof Uint8Array) || v.maxBodyBytes !== undefined) continue;
    if (v.secrets.length !== 1 || v.secrets[0] !== SECRET) continue;
    const raw = Buffer.from(v.rawBody);
    const headers: Record<string, unknown> = Object.fromEntries(Object.entries(v.headers).map(([k, val]) => [k.toLowerCase(), val]));
    if (v.signatureValid) headers[signatureHeader] = signPayload(raw, secret);
    else if (typeof headers[signatureHeader] === 'string' && headers[signatureHeader] === signPayload(raw, secret)) continue; // valid for this secret by chance
    const reason = 'reason' in v.want ? v.want.reason : '';
    const group: ProbeGroup =
      reason === 'header-mismatch' ? 'header-mismatch'
      : v.signatureValid ? 'bad-content'
      : fooledByReserialisation(raw, headers[signatureHeader], secret) ? 'raw-bytes'
      : 'bad-signature';
    out.push({ name: `kit vector ${v.name}`, group, probe: { body: raw, headers: toWireHeaders(headers) } });
  }
  return out;
}
