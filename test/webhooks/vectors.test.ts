// Every delivery vector through parseDelivery and through the handler core: right status and reason,
// nothing thrown, and the signature verdict agrees with @octokit/webhooks-methods wherever octokit
// accepts the input (a string body, a string header, non-empty both; a throw there is "no opinion").
import { verify as octokitVerify } from '@octokit/webhooks-methods';
import { describe, expect, it } from 'vitest';
import { createWebhookHandler } from '../../src/webhooks/handler.js';
import { getHeader } from '../../src/webhooks/headers.js';
import { parseDelivery } from '../../src/webhooks/parse-delivery.js';
import { verifySignature } from '../../src/webhooks/verify.js';
import { deliveryVectors, type DeliveryVector } from '../../conformance/vectors/webhook-vectors.js';


const vectors = deliveryVectors();
const table = vectors.map((v) => [v.name, v] as const);

/** octokit's verdict for the vector, or undefined when octokit does not accept the input. */
async function octokitVerdict(v: DeliveryVector): Promise<boolean | undefined> {
  const header = getHeader(v.headers, 'x-svc-signature');
  if (typeof header !== 'string' || !(v.rawBody instanceof Uint8Array || typeof v.rawBody === 'string')) return undefined;
  const bytes = Buffer.from(v.rawBody as Uint8Array | string);
  const text = bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes)) return undefined; // octokit hashes text; these bytes are not text
  let any = false;
  for (const secret of v.secrets) {
    try {
      if (await octokitVerify(secret, text, header)) any = true;
    } catch {
      return undefined;
    }
  }
  return v.secrets.length > 0 ? any : undefined;
}

describe('delivery vectors', () => {
  it('has at least 25 negative vectors', () => {
    expect(vectors.filter((v) => v.want.status !== 200).length).toBeGreaterThanOrEqual(25);
  });

  it.each(table)('%s: parseDelivery verdict', (_name, v) => {
    let result: ReturnType<typeof parseDelivery> | undefined;
    expect(() => {
      result = parseDelivery({ rawBody: v.rawBody, headers: v.headers as never, secrets: v.secrets, maxBodyBytes: v.maxBodyBytes });
    }).not.toThrow();
    if (v.want.status === 200) {
      expect(result).toMatchObject({ ok: true, status: 200 });
    } else {
      expect(result).toMatchObject({ ok: false, status: v.want.status, reason: v.want.reason });
    }
  });

  it.each(table)('%s: signature verdict agrees with octokit', async (_name, v) => {
    const ours = verifySignature(v.rawBody, getHeader(v.headers, 'x-svc-signature'), v.secrets);
    expect(ours.ok).toBe(v.signatureValid);
    const theirs = await octokitVerdict(v);
    if (theirs !== undefined) expect(ours.ok).toBe(theirs);
  });

  // createWebhookHandler refuses to start without a secret (handler.test.ts), so those vectors are parse-level only.
  const configured = table.filter(([, v]) => v.secrets.some(Boolean));
  it.each(configured)('%s: handler answers the same status', async (_name, v) => {
    const handler = createWebhookHandler({ secrets: v.secrets, maxBodyBytes: v.maxBodyBytes, on: {} });
    const reply = await handler.handle({ rawBody: v.rawBody, headers: v.headers as never, method: 'POST' });
    expect(reply.status).toBe(v.want.status);
    if (v.want.status !== 200) expect(JSON.parse(reply.body)).toMatchObject({ ok: false, reason: v.want.reason });
  });

  it('octokit had an opinion on most vectors (the agreement check is not vacuous)', async () => {
    const opinions = await Promise.all(vectors.map(octokitVerdict));
    expect(opinions.filter((o) => o !== undefined).length).toBeGreaterThanOrEqual(25);
    expect(opinions.filter((o) => o === false).length).toBeGreaterThanOrEqual(15);
  });
});
