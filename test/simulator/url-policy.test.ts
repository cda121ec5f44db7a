// URL policy: http(s) only, loopback allowed by default; --deny-private refuses loopback, private,
// link-local and metadata addresses, judged after DNS resolution, both at registration and at send time.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSimulator } from '../../workbench/simulator/index.js';
import { checkDestination, isBlockedAddress } from '../../workbench/simulator/url-policy.js';
import { admin, createWebhook, deliveries, startReceiver, startWorkbench, waitFor } from './helpers.js';

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
