// URL policy: http(s) only, loopback allowed by default; --deny-private refuses loopback, private,
// link-local and metadata addresses, judged after DNS resolution, both at registration and at send time.
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { validateRequestBody } from '../../src/validators/index.js';
import { createSimulator } from '../../workbench/simulator/index.js';
import { checkDestination, isBlockedAddress, urlRefusal } from '../../workbench/simulator/url-policy.js';
import { admin, createWebhook, deliveries, freshStore, startReceiver, startWorkbench, waitFor, type Bench } from './helpers.js';

describe('isBlockedAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.255.0.9', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true], // cloud metadata
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['224.0.0.1', true],
    ['::1', true],
    ['::', true],
    ['fe80::1', true],
    ['fd00:ec2::254', true], // AWS IPv6 metadata
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['::ffff:169.254.169.254', true],
    ['not-an-ip', true],
    // Every IPv6 form that embeds a refused IPv4 address (SSRF spellings).
    ['::127.0.0.1', true], // IPv4-compatible
    ['::7f00:1', true], // IPv4-compatible, hex (what a name resolving to ::7f00:1 gives)
    ['0:0:0:0:0:0:7f00:1', true],
    ['::ffff:0:127.0.0.1', true], // SIIT
    ['::ffff:0:7f00:1', true],
    ['64:ff9b::127.0.0.1', true], // NAT64 well-known prefix
    ['64:ff9b::a9fe:a9fe', true], // NAT64 of 169.254.169.254
    ['64:ff9b:1::7f00:1', true], // local-use NAT64
    ['64:ff9b:1:ffff::1', true],
    ['2002:7f00:1::', true], // 6to4 of 127.0.0.1
    ['2002:a9fe:a9fe::1', true], // 6to4 of the metadata address
    ['2002:c0a8:101::', true], // 6to4 of 192.168.1.1
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', true], // Teredo, client 127.0.0.1 (obfuscated)
    ['2001:0:7f00:1::1', true], // Teredo, server 127.0.0.1
    ['fe80::1%eth0', true], // zone id: only meaningful on this host
    ['fec0::1', true], // site-local
    ['::ffff:7F00:0001', true], // upper case
    ['2002:808:808::1', false], // 6to4 of 8.8.8.8
    ['64:ff9b::8.8.8.8', false],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', false], // Teredo, client 8.8.8.8, server 65.54.227.120
    ['8.8.8.8', false],
    ['172.32.0.1', false],
    ['93.184.216.34', false],
    ['2606:4700:4700::1111', false],
    ['::ffff:8.8.8.8', false],
  ])('%s -> %s', (address, blocked) => {
    expect(isBlockedAddress(address)).toBe(blocked);
  });
});

describe('checkDestination', () => {
  it('passes everything without --deny-private, resolves and refuses loopback names with it', async () => {
    expect((await checkDestination(new URL('http://127.0.0.1:1/x'), false)).ok).toBe(true);
    expect(await checkDestination(new URL('https://localhost/x'), true)).toMatchObject({ ok: false, reason: expect.stringContaining('resolves to') });
    expect(await checkDestination(new URL('https://[::1]/x'), true)).toMatchObject({ ok: false });
    expect(await checkDestination(new URL('https://8.8.8.8/x'), true)).toEqual({ ok: true, url: expect.any(URL) });
  });
});

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

/** The spec's `CreateWebhookRequest.url` as written (the YAML source, not a copy). */
const urlSchema = parse(readFileSync(path.join(repoRoot, 'spec/openapi/components/schemas/CreateWebhookRequest.yaml'), 'utf8')).properties.url as { pattern: string; maxLength: number };
// As a JSON Schema validator compiles it (Ajv: the `u` flag) and as a plain ECMA-262 regex.
const specPattern = new RegExp(urlSchema.pattern, 'u');
const plainPattern = new RegExp(urlSchema.pattern);

const pick = <T>(...values: T[]) => fc.constantFrom(...values);
/** URL-ish strings built from parts, each part often valid and sometimes broken in one of the ways a user breaks it. */
const label = fc.oneof(
  fc.string({ unit: pick('a', 'z', 'x', 'n', 'X', 'N', '-', '0', '7', '_'), minLength: 0, maxLength: 7 }),
  pick('hooks', 'example', 'in', 'xn--bcher-kva', 'xn--zz', 'XN--a', 'xn-a', 'xna', 'localhost', 'LOCALHOST', 'b\u00fccher', '1x', 'com'),
);
const octet = fc.oneof(fc.nat(255).map(String), pick('256', '01', '00', '999', ''));
const host = fc.oneof(
  fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.')),
  fc.array(label, { minLength: 1, maxLength: 3 }).map((labels) => `${labels.join('.')}.`),
  fc.array(octet, { minLength: 3, maxLength: 5 }).map((parts) => parts.join('.')),
  fc.tuple(fc.ipV6(), pick('', '', '', '%25eth0', '%eth0', ':1', '::', '1.2.3.4', '.5'), pick(true, true, false)).map(([a, extra, upper]) => `[${upper ? a.toUpperCase() : a}${extra}]`),
  fc.ipV6().map((a) => a), // unbracketed
  pick('localhost', '127.0.0.1', '[::1]', '[0:0:0:0:0:0:0:1]', '127.0.0.2', '[::1', '::1]', '[v1.x]', '[1:2:3:4::5:6:7:8]', ''),
);
const port = fc.option(fc.oneof(fc.nat(70_000).map(String), pick('', '00', '080', '65535', '65536', 'x1', '443')).map((p) => `:${p}`), { nil: '' });
const tail = fc.tuple(
  pick('', '/', '/', '?', '#', '/hook', '/a/b?c=d'),
  fc.string({ unit: pick('/', '?', '#', '%', '%2F', '%zz', '%4', '[', ']', '@', ':', 'a', 'Z', '0', '-', '.', '_', '~', '!', '$', '&', "'", '(', ')', '*', '+', ',', ';', '=', ' ', '"', '<', '\\', '^', '`', '{', '|', '}', '\u00e9', '\u0000', '\u0085', '\u{1F600}'), maxLength: 10 }),
).map(([a, b]) => a + b);
const builtUrl = fc
  .tuple(pick('https://', 'https://', 'https://', 'http://', 'HTTPS://', 'Https://', 'ftp://', 'https:/', 'https:', ''), fc.option(pick('user@', 'u:p@', '@', ':@'), { nil: '' }), host, port, tail)
  .map((parts) => parts.join(''));
const anyUrl = fc.oneof(
  builtUrl,
  fc.webUrl({ validSchemes: ['https', 'http', 'ftp'], withFragments: true, withQueryParameters: true, authoritySettings: { withIPv4: true, withIPv6: true, withIPv4Extended: true, withUserInfo: true, withPort: true } }),
  fc.ipV6().map((a) => `https://[${a}]/hook`),
);

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

  it('item 16: on generated URLs the pattern, urlRefusal and the generated validator agree, and what they accept the URL parser reads', () => {
    let accepted = 0;
    fc.assert(
      fc.property(anyUrl, (url) => {
        const byPattern = specPattern.test(url);
        expect(plainPattern.test(url), url).toBe(byPattern);
        expect(urlRefusal(url) === undefined, `${url}: ${urlRefusal(url)}`).toBe(byPattern);
        if (url.length <= urlSchema.maxLength) expect(validateRequestBody('admin', 'createWebhook', { url, events: ['order.created'] }).valid, url).toBe(byPattern);
        if (byPattern) {
          accepted++;
          expect(() => new URL(url), url).not.toThrow();
        }
      }),
      { numRuns: 4000 },
    );
    // Both sides of the line are exercised.
    expect(accepted).toBeGreaterThan(400);
    expect(accepted).toBeLessThan(3600);
  });

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
