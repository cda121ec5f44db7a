// URL policy: http(s) only, loopback allowed by default; --deny-private refuses loopback, private,
// link-local and metadata addresses, judged after DNS resolution, both at registration and at send time.
// The policy's functions on their own (isBlockedAddress, urlRefusal, checkDestination, the pattern agreement
// on generated URLs) are tested in url-policy-unit.test.ts; this file checks them through the workbench.
import fc from 'fast-check';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator } from '../../workbench/simulator/index.js';
import { urlRefusal } from '../../workbench/simulator/url-policy.js';
import { admin, createWebhook, deliveries, freshStore, startReceiver, startWorkbench, waitFor, type Bench } from './helpers.js';
import { anyUrl, specPattern, urlSchema } from './url-generators.js';

describe('--deny-private', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('refuses loopback, private and metadata URLs at registration with 400 invalid_url', async () => {
    const bench = await startWorkbench({ denyPrivate: true });
    try {
      for (const url of ['http://127.0.0.1:8080/h', 'https://localhost/h', 'https://10.0.0.5/h', 'https://169.254.169.254/latest', 'https://[::1]/h', 'https://[::ffff:127.0.0.1]/h']) {
        const reply = await admin(bench.server, 'createWebhook', 'POST', 'deny', '/webhooks', { url, events: ['order.created'] });
        expect(reply.status, url).toBe(400);
        expect(reply.json.content.error.code, url).toBe('invalid_url');
      }
    } finally {
      await bench.close();
    }
  });

  it('also refuses at send time (a subscription stored earlier, or a name that now resolves to loopback)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'simulator-deny-'));
    dirs.push(dir);
    const r = await startReceiver(() => ({ status: 200 }));
    // Registered while loopback was allowed...
    const open = await startWorkbench({ dataDir: dir });
    await createWebhook(open.server, 'deny-send', { url: r.url.replace('127.0.0.1', 'localhost'), events: ['order.created'] });
    await open.close();
    // ...then delivered by a simulator that denies private addresses.
    const strict = await startWorkbench({ dataDir: dir, denyPrivate: true });
    try {
      strict.sim.trigger('deny-send', 'order.created');
      const rows = await waitFor(async () => ((x) => x.length >= 1 && x[0].status === 'failed' && x)(await deliveries(strict.server, 'deny-send')), 'blocked attempt');
      expect(rows[0]).toMatchObject({ error_class: 'blocked_address', response_status: null });
      expect(r.captured).toHaveLength(0);
    } finally {
      await strict.close();
      await r.close();
    }
  });

  it('the in-process API reports the policy in its banner', () => {
    const sim = createSimulator({ denyPrivate: true });
    expect(sim.describe().join('\n')).toContain('private and loopback addresses refused');
    return sim.close();
  });
});

// ---- issue 37 item 16 ------------------------------------------------------------------------------------

describe('issue 37 item 16: the spec\'s url pattern and the server accept the same strings', () => {
  let bench: Bench;
  let strict: Bench;
  beforeAll(async () => {
    bench = await startWorkbench();
    strict = await startWorkbench({ denyPrivate: true });
  });
  afterAll(async () => {
    await bench?.close();
    await strict?.close();
  });

  const register = (on: Bench, url: string) => admin(on.server, 'createWebhook', 'POST', freshStore('url'), '/webhooks', { url, events: ['order.created'] });

  it('item 16: over HTTP the workbench registers what the pattern accepts and refuses the rest with invalid_url naming the rule', async () => {
    const seen = { accepted: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(anyUrl, async (url) => {
        const reply = await register(bench, url);
        if (specPattern.test(url) && url.length <= urlSchema.maxLength) {
          seen.accepted++;
          expect(reply.status, `${url}: ${reply.text}`).toBe(201);
        } else {
          seen.refused++;
          expect(reply.status, url).toBe(400);
          expect(reply.json.content.error, url).toMatchObject({ code: 'invalid_url', details: [{ location: 'body', name: 'url', message: urlRefusal(url) ?? expect.any(String) }] });
          expect(reply.json.message).not.toMatch(/must match pattern/);
        }
      }),
      { numRuns: 100 },
    );
    expect(seen.accepted).toBeGreaterThan(10);
    expect(seen.refused).toBeGreaterThan(10);
  });

  const long = `https://hooks.example.in/${'a'.repeat(2100)}`;
  it.each<[string, { url: string; pattern: boolean; status: 201 | 400; reason?: RegExp; strict?: RegExp }]>([
    ['a public IPv6 literal (it registered before: a regression)', { url: 'https://[2606:4700:4700::1111]/hook', pattern: true, status: 201 }],
    ['an IPv4-mapped IPv6 literal', { url: 'https://[::ffff:8.8.8.8]/hook', pattern: true, status: 201 }],
    ['http on the IPv6 loopback, with a port', { url: 'http://[::1]:4440/h', pattern: true, status: 201 }],
    ['a fragment (never sent to the receiver)', { url: 'https://[::1]:4440/h#frag', pattern: false, status: 400, reason: /has a fragment \(#frag\)/ }],
    ['a fragment on a host name', { url: 'https://hooks.example.in/h#top', pattern: false, status: 400, reason: /has a fragment/ }],
    ['another scheme', { url: 'ftp://hooks.example.in/x', pattern: false, status: 400, reason: /uses the scheme ftp: it must be https/ }],
    ['an upper-case scheme', { url: 'HTTPS://hooks.example.in/x', pattern: false, status: 400, reason: /write it in lower case \(https:\/\/\)/ }],
    ['http on a public host', { url: 'http://hooks.example.in/x', pattern: false, status: 400, reason: /http:\/\/ is accepted only for a loopback host/ }],
    ['user info', { url: 'https://partner:pw@hooks.example.in/x', pattern: false, status: 400, reason: /carries user info/ }],
    ['an IPv6 zone', { url: 'https://[fe80::1%25eth0]/h', pattern: false, status: 400, reason: /has an IPv6 zone/ }],
    ['nine IPv6 groups', { url: 'https://[1:2:3:4:5:6:7:8:9]/h', pattern: false, status: 400, reason: /is not an IPv6 address/ }],
    ['a port over 65535', { url: 'https://hooks.example.in:65536/x', pattern: false, status: 400, reason: /port "65536"/ }],
    ['a % without two hex digits', { url: 'https://hooks.example.in/a%zz', pattern: false, status: 400, reason: /% not followed by two hex digits/ }],
    ['a space', { url: 'https://hooks.example.in/a b', pattern: false, status: 400, reason: /a space at position 27/ }],
    ['a non-ASCII host', { url: 'https://b\u00fccher.example/h', pattern: false, status: 400, reason: /U\+00FC/ }],
    ['a punycode label', { url: 'https://xn--bcher-kva.example/h', pattern: false, status: 400, reason: /punycode label "xn--bcher-kva"/ }],
    ['a host ending in a number that is no IPv4 address', { url: 'https://10.0.0/h', pattern: false, status: 400, reason: /must be a dotted IPv4 address/ }],
    ['an empty label', { url: 'https://hooks..example.in/h', pattern: false, status: 400, reason: /empty label/ }],
    ['no host', { url: 'https:///h', pattern: false, status: 400, reason: /has no host/ }],
    ['a relative URL', { url: '/webhooks', pattern: false, status: 400, reason: /not an absolute URL/ }],
    ['over 2,048 characters (maxLength, not the pattern)', { url: long, pattern: true, status: 400, reason: /2048 characters/ }],
    ['a private address: registered, refused only by a sender with --deny-private', { url: 'https://10.0.0.5/h', pattern: true, status: 201, strict: /10\.0\.0\.5 is a loopback, private, link-local or reserved address/ }],
    ['the IPv6 loopback over https, the same', { url: 'https://[::1]:4440/h', pattern: true, status: 201, strict: /::1 is a loopback, private/ }],
  ])('item 16: %s', async (_name, { url, pattern, status, reason, strict: strictReason }) => {
    expect(specPattern.test(url)).toBe(pattern);
    const reply = await register(bench, url);
    expect(reply.status, reply.text).toBe(status);
    if (reason) {
      expect(reply.json.content.error.code).toBe('invalid_url');
      expect(reply.json.content.error.details).toEqual([{ location: 'body', name: 'url', message: expect.stringMatching(reason) }]);
      expect(reply.json.message).toMatch(reason);
      expect(reply.json.message).not.toMatch(/must be an https:\/\/ URL/);
    }
    if (strictReason) {
      const refused = await register(strict, url);
      expect(refused.status).toBe(400);
      expect(refused.json.content.error.code).toBe('invalid_url');
      expect(refused.json.message).toMatch(strictReason);
    }
  });
});
