// issue 37 item 17: the spec's pattern for a custom header value and the server's check
// (workbench/simulator/custom-headers.ts) accept the same values, and that set is what HTTP can carry:
// every accepted value arrives at the receiver unchanged through the simulator's sender (undici), and
// every refused one is refused by undici or changed on the way. Both directions, on generated values
// (property) and on one value of each kind over real HTTP.
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { validateRequestBody } from '../../src/validators/index.js';
import { checkCustomHeaders, valueProblem } from '../../workbench/simulator/custom-headers.js';
import { admin, createWebhook, freshStore, startReceiver, startWorkbench, waitFor, type Bench, type Receiver } from './helpers.js';

const schema = parse(readFileSync(path.join(repoRoot, 'spec/openapi/components/schemas/CreateWebhookRequest.yaml'), 'utf8')).properties.custom_headers;
/** The value pattern as written in the spec, compiled as a JSON Schema validator does (`u`). */
const valuePattern = new RegExp(schema.additionalProperties.pattern, 'u');

/** Characters of every kind a value may hold: tab, space, visible ASCII, DEL, C0 and C1 controls, Latin-1, beyond. */
const character = fc.oneof(
  fc.constantFrom('\t', ' ', 'a', 'Z', '0', '!', '~', '"', ':'),
  fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)),
  fc.constantFrom('\u007f', '\u0080', '\u0085', '\u009f', '\u00a0', '\u00e9', '\u00ff', '\u0100', '\u20ac', '\u{1F600}', '\ufeff'),
  fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0x100, max: 0xffff }).map((c) => String.fromCharCode(c)),
);
const value = fc.array(character, { maxLength: 12 }).map((cs) => cs.join(''));

const body = (v: string) => ({ url: 'https://hooks.example.in/x', events: ['order.created'], custom_headers: { 'X-Value': v } });

describe('issue 37 item 17: custom header values: the spec, the server and HTTP agree', () => {
  it('item 17: on generated values the spec\'s pattern, the generated validator and the server\'s check accept the same set', () => {
    const seen = { accepted: 0, refused: 0 };
    fc.assert(
      fc.property(value, (v) => {
        const bySpec = valuePattern.test(v);
        seen[bySpec ? 'accepted' : 'refused']++;
        expect(valueProblem(v) === undefined, `${JSON.stringify(v)}: ${valueProblem(v)}`).toBe(bySpec);
        expect(checkCustomHeaders({ 'X-Value': v }).length === 0, JSON.stringify(v)).toBe(bySpec);
        expect(validateRequestBody('admin', 'createWebhook', body(v)).valid, JSON.stringify(v)).toBe(bySpec);
      }),
      { numRuns: 5000 },
    );
    expect(seen.accepted).toBeGreaterThan(300);
    expect(seen.refused).toBeGreaterThan(300);
  });

  let bench: Bench;
  let receiver: Receiver;
  beforeAll(async () => {
    bench = await startWorkbench();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await bench?.close();
    await receiver?.close();
  });

  // One value of each kind: whether the spec accepts it, and the reason the server gives when it does not.
  const kinds: Array<[string, string, RegExp | undefined]> = [
    ['visible ASCII', 'tenant-42:eu', undefined],
    ['Latin-1 letters', 'caf\u00e9 \u00ff', undefined],
    ['a C1 control (obs-text, a byte HTTP carries)', 'a\u0085b', undefined],
    ['a tab and spaces inside', 'a\tb c', undefined],
    ['empty', '', undefined],
    ['beyond Latin-1 (the euro sign)', 'price \u20ac', /U\+20AC .*beyond Latin-1/],
    ['beyond the BMP (an emoji)', 'ok \u{1F600}', /U\+D83D .*beyond Latin-1|U\+1F600 .*beyond Latin-1/],
    ['a leading space', ' tenant', /starts or ends with a space or tab/],
    ['a trailing tab', 'tenant\t', /starts or ends with a space or tab/],
    ['DEL', 'a\u007fb', /control character U\+007F/],
    ['a C0 control', 'a\u0001b', /control character U\+0001/],
    ['CR LF (header injection)', 'a\r\nX-Injected: 1', /must not contain CR, LF or NUL/],
  ];

  it.each(kinds)('item 17: %s: the spec and the server agree over HTTP', async (_name, v, reason) => {
    expect(valuePattern.test(v)).toBe(reason === undefined);
    const reply = await admin(bench.server, 'createWebhook', 'POST', freshStore('hdr'), '/webhooks', body(v));
    if (reason === undefined) expect(reply.status, reply.text).toBe(201);
    else {
      expect(reply.status).toBe(400);
      expect(reply.json.content.error.code).toBe('invalid_body');
      expect(reply.json.content.error.details).toEqual([{ location: 'body', name: 'custom_headers.X-Value', message: expect.stringMatching(reason) }]);
    }
  });

  it('item 17: every accepted kind reaches the receiver unchanged through the simulator\'s sender', async () => {
    const accepted = kinds.filter(([, , reason]) => reason === undefined).map(([, v]) => v);
    const headers = Object.fromEntries(accepted.map((v, i) => [`X-Kind-${i}`, v]));
    const store = freshStore('hdr-send');
    await createWebhook(bench.server, store, { url: receiver.url, events: ['order.created'], custom_headers: headers });
    bench.sim.trigger(store, 'order.created');
    const delivery = await waitFor(() => receiver.captured.find((c) => c.headers['x-kind-0'] !== undefined), 'the delivery');
    // Node reads header bytes as Latin-1: the value the receiver sees is the one registered.
    for (const [name, v] of Object.entries(headers)) expect(delivery.headers[name.toLowerCase()], name).toBe(v);
  });

  it('item 17: every refused kind cannot be sent unchanged: undici refuses it, or the receiver gets another value', async () => {
    for (const [name, v, reason] of kinds) {
      if (reason === undefined) continue;
      const before = receiver.captured.length;
      let sent = true;
      try {
        const res = await request(receiver.url, { method: 'POST', headers: { 'x-probe': v }, body: '{}' });
        await res.body.text();
      } catch {
        sent = false;
      }
      if (sent) {
        const got = receiver.captured.slice(before).find((c) => c.headers['x-probe'] !== undefined)?.headers['x-probe'];
        expect(got, name).not.toBe(v);
      }
    }
  });
});
