// The contract's own message examples (spec/asyncapi/messages/*.yaml) are deliveries this kit must accept:
// their X-SVC-Signature is the HMAC of JSON.stringify(example body) keyed with x-example-signing-secret.
// A failure here means the kit and the spec disagree about signing, headers or schema.
import { describe, expect, it } from 'vitest';
import { loadDereferenced } from '../../scripts/lib/load-spec.js';
import { parseDelivery } from '../../src/webhooks/parse-delivery.js';

const doc = await loadDereferenced('webhooks');
const secret: string = doc['x-example-signing-secret'];
const examples = Object.values<Record<string, any>>(doc.components?.messages ?? {}).flatMap((message) =>
  (message.examples ?? []).map((example: Record<string, any>) => [`${message.name}: ${example.name}`, example] as const),
);

describe('spec message examples are accepted by parseDelivery', () => {
  it('the spec has signed examples to check', () => {
    expect(typeof secret).toBe('string');
    expect(examples.length).toBeGreaterThan(0);
  });

  it.each(examples)('%s', async (_name, example) => {
    const raw = Buffer.from(JSON.stringify(example.payload));
    const result = parseDelivery({ rawBody: raw, headers: example.headers, secrets: [secret] });
    expect(result).toMatchObject({ ok: true, status: 200 });
  });
});
