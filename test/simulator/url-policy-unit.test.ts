// issue 38: the webhook URL policy (workbench/simulator/url-policy.ts, the SSRF guard) on its own, without a
// workbench: every blocked range on both sides of its bounds, every IPv6 spelling that carries an IPv4
// address with one group changed so it no longer does, every refusal's exact sentence, the spec pattern's
// agreement on generated URLs, and the DNS checks on names that resolve without a network (localhost, IP
// literals, a .invalid name). url-policy.test.ts checks the same policy through the workbench over HTTP.
import fc from 'fast-check';
import type { LookupAddress } from 'node:dns';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { validateRequestBody } from '../../src/validators/index.js';
import {
  BlockedAddressError,
  checkDestination,
  checkUrlShape,
  embeddedIpv4,
  guardedLookup,
  hostOf,
  ipv6Groups,
  isBlockedAddress,
  urlRefusal,
} from '../../workbench/simulator/url-policy.js';
import { anyUrl, plainPattern, specPattern, urlSchema } from './url-generators.js';

describe('isBlockedAddress (moved from url-policy.test.ts)', () => {
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


// Each blocked range: its first and last address are refused, the addresses just outside are not (where the
// neighbour is not itself in another blocked range, it is listed as allowed).
describe('issue 38: every blocked range, both sides of each bound', () => {
  it.each<[string, string[], string[]]>([
    ['0.0.0.0/8', ['0.0.0.0', '0.255.255.255'], ['1.0.0.0']],
    ['10.0.0.0/8', ['10.0.0.0', '10.255.255.255'], ['9.255.255.255', '11.0.0.0']],
    ['100.64.0.0/10', ['100.64.0.0', '100.127.255.255'], ['100.63.255.255', '100.128.0.0']],
    ['127.0.0.0/8', ['127.0.0.0', '127.255.255.255'], ['126.255.255.255', '128.0.0.0']],
    ['169.254.0.0/16', ['169.254.0.0', '169.254.255.255'], ['169.253.255.255', '169.255.0.0']],
    ['172.16.0.0/12', ['172.16.0.0', '172.31.255.255'], ['172.15.255.255', '172.32.0.0']],
    ['192.0.0.0/24', ['192.0.0.0', '192.0.0.255'], ['191.255.255.255', '192.0.1.0']],
    ['192.0.2.0/24', ['192.0.2.0', '192.0.2.255'], ['192.0.1.255', '192.0.3.0']],
    ['192.168.0.0/16', ['192.168.0.0', '192.168.255.255'], ['192.167.255.255', '192.169.0.0']],
    ['198.18.0.0/15', ['198.18.0.0', '198.19.255.255'], ['198.17.255.255', '198.20.0.0']],
    ['198.51.100.0/24', ['198.51.100.0', '198.51.100.255'], ['198.51.99.255', '198.51.101.0']],
    ['203.0.113.0/24', ['203.0.113.0', '203.0.113.255'], ['203.0.112.255', '203.0.114.0']],
    ['224.0.0.0/4 and 240.0.0.0/4', ['224.0.0.0', '239.255.255.255', '240.0.0.0', '255.255.255.255'], ['223.255.255.255']],
    ['::/128 and ::1/128', ['::', '::1', '0:0:0:0:0:0:0:1'], []],
    ['fc00::/7', ['fc00::', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], ['fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'fe00::']],
    ['fe80::/10', ['fe80::', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], ['fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff']],
    ['fec0::/10', ['fec0::', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], []],
    ['ff00::/8', ['ff00::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], []],
    ['2001:db8::/32', ['2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'], ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db9::']],
    ['100::/64', ['100::', '100::ffff:ffff:ffff:ffff'], ['ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '100:0:0:1::']],
    ['2001:2::/48', ['2001:2::', '2001:2:0:ffff:ffff:ffff:ffff:ffff'], ['2001:1:ffff:ffff:ffff:ffff:ffff:ffff', '2001:2:1::']],
    ['2001:10::/28', ['2001:10::', '2001:1f:ffff:ffff:ffff:ffff:ffff:ffff'], ['2001:f:ffff:ffff:ffff:ffff:ffff:ffff', '2001:20::']],
    ['3fff::/20', ['3fff::', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff'], ['3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '3fff:1000::']],
    ['64:ff9b:1::/48 (any embedded address)', ['64:ff9b:1::808:808', '64:ff9b:1:ffff:ffff:ffff:808:808'], ['64:ff9b:2::808:808']],
  ])('%s', (_range, inside, outside) => {
    for (const address of inside) expect(isBlockedAddress(address), address).toBe(true);
    for (const address of outside) expect(isBlockedAddress(address), address).toBe(false);
  });

  it('public addresses of both families pass', () => {
    for (const address of ['1.1.1.1', '8.8.8.8', '2606:4700:4700::1111', '2a00:1450:4001::200e']) expect(isBlockedAddress(address), address).toBe(false);
  });
});

describe('issue 38: IPv6 spellings of an IPv4 address, and the same with one group changed', () => {
  it.each<[string, string, string[], boolean]>([
    // [what, address, the IPv4 addresses it carries, blocked]
    ['IPv4-compatible', '::7f00:1', ['127.0.0.1'], true],
    ['IPv4-compatible, public', '::808:808', ['8.8.8.8'], false],
    ['IPv4-compatible with group 0 set', '1::7f00:1', [], false],
    ['IPv4-compatible with group 1 set', '0:1::7f00:1', [], false],
    ['IPv4-compatible with group 2 set', '0:0:1::7f00:1', [], false],
    ['IPv4-compatible with group 3 set', '0:0:0:1::7f00:1', [], false],
    ['IPv4-compatible with group 4 set', '::1:0:7f00:1', [], false],
    ['IPv4-mapped', '::ffff:7f00:1', ['127.0.0.1'], true],
    ['IPv4-mapped, group 5 not ffff', '::fffe:7f00:1', [], false],
    ['SIIT', '::ffff:0:7f00:1', ['127.0.0.1'], true],
    ['SIIT, group 5 set', '::ffff:1:7f00:1', [], false],
    ['SIIT, group 4 not ffff', '::fffe:0:7f00:1', [], false],
    ['SIIT with group 0 set', '1::ffff:0:7f00:1', [], false],
    ['SIIT with group 1 set', '0:1::ffff:0:7f00:1', [], false],
    ['SIIT with group 2 set', '0:0:1:0:ffff:0:7f00:1', [], false],
    ['SIIT with group 3 set', '0:0:0:1:ffff:0:7f00:1', [], false],
    ['NAT64 well-known prefix', '64:ff9b::7f00:1', ['127.0.0.1'], true],
    ['NAT64 local-use prefix', '64:ff9b:1::7f00:1', ['127.0.0.1'], true],
    ['NAT64, group 2 is 2 (no NAT64 prefix)', '64:ff9b:2::7f00:1', [], false],
    ['NAT64 prefix with group 0 changed', '65:ff9b::7f00:1', [], false],
    ['NAT64 prefix with group 1 changed', '64:ff9a::7f00:1', [], false],
    ['6to4', '2002:7f00:1::', ['127.0.0.1'], true],
    ['6to4, public', '2002:808:808::', ['8.8.8.8'], false],
    ['6to4 prefix changed', '2003:7f00:1::', [], false],
    ['Teredo server', '2001:0:7f00:1::1', ['127.0.0.1', '255.255.255.254'], true],
    ['Teredo client (obfuscated)', '2001:0:808:808:0:0:80ff:fffe', ['8.8.8.8', '127.0.0.1'], true],
    ['Teredo, both public', '2001:0:808:808:0:0:f7f7:f7f7', ['8.8.8.8', '8.8.8.8'], false],
    ['Teredo prefix with group 1 set', '2001:1:7f00:1::1', [], false],
  ])('%s: %s', (_what, address, carried, blocked) => {
    expect(embeddedIpv4(ipv6Groups(address)!)).toEqual(carried);
    expect(isBlockedAddress(address)).toBe(blocked);
  });

  it('a zone, a malformed address or a host name is refused', () => {
    // A zone on a public address too: its groups alone would pass.
    for (const bad of ['fe80::1%eth0', '2606:4700:4700::1111%1', '2606:4700::1%eth0', 'not-an-ip', '', '1.2.3', '::ffff:1.2.3.256', 'localhost']) expect(isBlockedAddress(bad), bad).toBe(true);
  });
});

describe('issue 38: ipv6Groups', () => {
  it.each<[string, number[] | undefined]>([
    ['::', [0, 0, 0, 0, 0, 0, 0, 0]],
    ['::1', [0, 0, 0, 0, 0, 0, 0, 1]],
    ['1::', [1, 0, 0, 0, 0, 0, 0, 0]],
    ['1:2:3:4:5:6:7:8', [1, 2, 3, 4, 5, 6, 7, 8]],
    ['1:2::7:8', [1, 2, 0, 0, 0, 0, 7, 8]],
    ['FFFF::ABCD', [0xffff, 0, 0, 0, 0, 0, 0, 0xabcd]],
    ['::ffff:192.168.1.2', [0, 0, 0, 0, 0, 0xffff, 0xc0a8, 0x0102]],
    ['1:2:3:4:5:6:1.2.3.4', [1, 2, 3, 4, 5, 6, 0x0102, 0x0304]],
    // Every octet of several digits, so each is read whole.
    ['::ffff:10.20.30.45', [0, 0, 0, 0, 0, 0xffff, 0x0a14, 0x1e2d]],
    ['::ffff:1.2.255.254', [0, 0, 0, 0, 0, 0xffff, 0x0102, 0xfffe]],
    // Not an address net.isIP accepts, though each group reads as hex: refused before the groups are read.
    ['1:2:3:4:5:6:7:8z', undefined],
    ['1.2.3.4', undefined],
    ['not-an-ip', undefined],
    // A zone (refused by isBlockedAddress before this) can leave a group unparsable or add groups.
    ['fe80::%eth0', undefined],
    ['1:2:3:4:5:6:7:8%a:b', undefined],
  ])('%s', (address, groups) => {
    expect(ipv6Groups(address)).toEqual(groups);
  });
});

describe('issue 38: urlRefusal says why, in one sentence per rule', () => {
  it.each<[string, string | undefined]>([
    // Accepted.
    ['https://hooks.example.in/h', undefined],
    ['https://hooks.example.in', undefined],
    ['https://hooks.example.in?x=1', undefined],
    ['https://hooks.example.in/a@b', undefined],
    ['https://h-1.example.in:443/a%2Fb%2f?c=d', undefined],
    ['https://1.2.3.4/h', undefined],
    ['https://255.255.255.255:0/h', undefined],
    ['https://hooks.example.in:65535/h', undefined],
    ['https://[::1]:8443/h', undefined],
    ['https://[2606:4700:4700::1111]', undefined],
    // A last label with a digit that does not start it is a name, not an address.
    ['https://hooks.example.c0m/h', undefined],
    ['http://localhost:4440/h', undefined],
    ['http://127.0.0.1/h', undefined],
    ['http://[::1]/h', undefined],
    // The characters a URL cannot carry, each described.
    ['https://hooks.example.in/a b', 'has a character a URL cannot carry as it is (a space at position 27); percent-encode it (%XX)'],
    ['https://hooks.example.in/"', 'has a character a URL cannot carry as it is ("\"" at position 26); percent-encode it (%XX)'],
    ['https://hooks.example.in/}', 'has a character a URL cannot carry as it is ("}" at position 26); percent-encode it (%XX)'],
    ['https://hooks.example.in/\x7f', 'has a character a URL cannot carry as it is (U+007F at position 26); percent-encode it (%XX)'],
    ['https://hooks.example.in/\x1f', 'has a character a URL cannot carry as it is (U+001F at position 26); percent-encode it (%XX)'],
    ['https://hooks.example.in/\u00e9', 'has a character a URL cannot carry as it is (U+00E9 at position 26); percent-encode it (%XX)'],
    ['https://hooks.example.in/\u{1F600}', 'has a character a URL cannot carry as it is (U+1F600 at position 26); percent-encode it (%XX)'],
    // Scheme.
    ['/webhooks', 'is not an absolute URL: it must start with https://'],
    ['/a:b', 'is not an absolute URL: it must start with https://'],
    ['1https://hooks.example.in/h', 'is not an absolute URL: it must start with https://'],
    ['h-t+t.p1://hooks.example.in/h', 'uses the scheme h-t+t.p1: it must be https (http only for a loopback host)'],
    ['ftp://hooks.example.in/x', 'uses the scheme ftp: it must be https (http only for a loopback host)'],
    ['HTTPS://hooks.example.in/x', 'writes its scheme as HTTPS: write it in lower case (https://)'],
    ['Http://localhost/x', 'writes its scheme as Http: write it in lower case (http://)'],
    ['https:/hooks.example.in', 'has no // after https: (write https://host/path)'],
    ['https:hooks.example.in', 'has no // after https: (write https://host/path)'],
    // Authority.
    ['https://u@hooks.example.in', 'carries user info (credentials before @); send the endpoint credential in custom_headers instead'],
    ['https://u:p@hooks.example.in/x', 'carries user info (credentials before @); send the endpoint credential in custom_headers instead'],
    ['https://hooks.example.in/h#top', 'has a fragment (#top): a fragment is never sent to the receiver; remove it'],
    ['https://hooks.example.in#', 'has a fragment (#): a fragment is never sent to the receiver; remove it'],
    // No host at all before the fragment: the fragment is named first, as for any URL.
    ['https://#top', 'has a fragment (#top): a fragment is never sent to the receiver; remove it'],
    [`https://hooks.example.in/h#${'f'.repeat(50)}`, `has a fragment (#${'f'.repeat(39)}): a fragment is never sent to the receiver; remove it`],
    ['https://[::1/h', 'has an IPv6 host without its closing ] ([::1)'],
    [`https://[${'1:'.repeat(40)}`, `has an IPv6 host without its closing ] ([${'1:'.repeat(29)}1)`],
    ['https://[::1]x/h', 'has "x" after the IPv6 host [::1]; only :port may follow it'],
    [`https://[::1]${'x'.repeat(50)}`, `has "${'x'.repeat(40)}" after the IPv6 host [::1]; only :port may follow it`],
    ['https://[::1]:/h', 'has a : with no port after it'],
    ['https://hooks.example.in:/h', 'has a : with no port after it'],
    // Host.
    ['https:///h', 'has no host after //'],
    ['https://:443/h', 'has no host after //'],
    ['https://[fe80::1%25eth0]/h', 'has an IPv6 zone ([fe80::1%25eth0]): a zone names an interface of one machine and cannot be sent to'],
    ['https://[1:2:3:4:5:6:7:8:9]/h', 'has [1:2:3:4:5:6:7:8:9], which is not an IPv6 address'],
    ['https://[::1.2.3.04]/h', 'has [::1.2.3.04], whose IPv4 part 1.2.3.04 is not four numbers from 0 to 255 without leading zeros'],
    ['https://[::256.2.3.4]/h', 'has [::256.2.3.4], whose IPv4 part 256.2.3.4 is not four numbers from 0 to 255 without leading zeros'],
    // Octets of several digits in the middle, each read whole.
    ['https://[::ffff:1.22.3.256]/h', 'has [::ffff:1.22.3.256], whose IPv4 part 1.22.3.256 is not four numbers from 0 to 255 without leading zeros'],
    ['https://[::ffff:1.2.33.256]/h', 'has [::ffff:1.2.33.256], whose IPv4 part 1.2.33.256 is not four numbers from 0 to 255 without leading zeros'],
    ['https://a[b/h', 'has a host with [ or ] (a[b); brackets enclose an IPv6 address only'],
    ['https://a]b/h', 'has a host with [ or ] (a]b); brackets enclose an IPv6 address only'],
    ['https://10.0.0/h', 'has the host 10.0.0, which ends in a number and so must be a dotted IPv4 address (four numbers from 0 to 255 without leading zeros)'],
    ['https://example.1com/h', 'has the host example.1com, which ends in a number and so must be a dotted IPv4 address (four numbers from 0 to 255 without leading zeros)'],
    ['https://1.2.3.4./h', 'has the host 1.2.3.4., which ends in a number and so must be a dotted IPv4 address (four numbers from 0 to 255 without leading zeros)'],
    ['https://1.2.3.256/h', 'has the host 1.2.3.256, which ends in a number and so must be a dotted IPv4 address (four numbers from 0 to 255 without leading zeros)'],
    ['https://1.2.3.04/h', 'has the host 1.2.3.04, which ends in a number and so must be a dotted IPv4 address (four numbers from 0 to 255 without leading zeros)'],
    ['https://hooks..example.in/h', 'has an empty label in the host hooks..example.in (two dots, or a dot at its start or end)'],
    ['https://.example.in/h', 'has an empty label in the host .example.in (two dots, or a dot at its start or end)'],
    ['https://example.in./h', 'has an empty label in the host example.in. (two dots, or a dot at its start or end)'],
    ['https://a_b.example.in/h', 'has the host label "a_b" with characters other than letters, digits and hyphens'],
    ['https://a-.example.in/h', 'has the host label "a-", which starts or ends with a hyphen'],
    ['https://-a.example.in/h', 'has the host label "-a", which starts or ends with a hyphen'],
    ['https://xn--bcher-kva.example/h', 'has the punycode label "xn--bcher-kva"; write the host without internationalized (xn--) labels'],
    ['https://hooks.XN--a.in/h', 'has the punycode label "XN--a"; write the host without internationalized (xn--) labels'],
    ['https://axn--b.example/h', undefined],
    // Port.
    ['https://hooks.example.in:65536/x', 'has the port "65536": a port is a number from 0 to 65535 without leading zeros'],
    ['https://hooks.example.in:99999/x', 'has the port "99999": a port is a number from 0 to 65535 without leading zeros'],
    ['https://hooks.example.in:123456/x', 'has the port "123456": a port is a number from 0 to 65535 without leading zeros'],
    ['https://hooks.example.in:00/x', 'has the port "00": a port is a number from 0 to 65535 without leading zeros'],
    ['https://hooks.example.in:080/x', 'has the port "080": a port is a number from 0 to 65535 without leading zeros'],
    ['https://hooks.example.in:8x/x', 'has the port "8x": a port is a number from 0 to 65535 without leading zeros'],
    [`https://hooks.example.in:${'9'.repeat(30)}/x`, `has the port "${'9'.repeat(20)}": a port is a number from 0 to 65535 without leading zeros`],
    // Percent.
    ['https://hooks.example.in/a%zz', 'has a % not followed by two hex digits (%zz); write a literal % as %25'],
    ['https://hooks.example.in/a%4', 'has a % not followed by two hex digits (%4); write a literal % as %25'],
    ['https://hooks.example.in/a%', 'has a % not followed by two hex digits (%); write a literal % as %25'],
    // http:// only on loopback.
    ['http://hooks.example.in/x', 'uses http:// on hooks.example.in: http:// is accepted only for a loopback host (localhost, 127.0.0.1, [::1]) for local development; use https://'],
    ['http://127.0.0.2/x', 'uses http:// on 127.0.0.2: http:// is accepted only for a loopback host (localhost, 127.0.0.1, [::1]) for local development; use https://'],
    ['http://[::2]/x', 'uses http:// on [::2]: http:// is accepted only for a loopback host (localhost, 127.0.0.1, [::1]) for local development; use https://'],
  ])('%j', (url, reason) => {
    expect(urlRefusal(url)).toBe(reason);
    expect(checkUrlShape(url)).toEqual(reason === undefined ? { ok: true, url: new URL(url) } : { ok: false, reason });
    // The spec's pattern draws the same line (its length limit is checked apart).
    expect(specPattern.test(url), url).toBe(reason === undefined);
  });

  it.each([
    '1:2:3:4:5:6:7:8',
    '1:2:3:4:5:6:1.2.3.4',
    '::2:3:4:5:6:7:8',
    '1::3:4:5:6:7:8',
    '::3:4:5:6:7:8',
    '1:2::4:5:6:7:8',
    '1::4:5:6:7:8',
    '1:2:3::5:6:7:8',
    '1:2:3:4::6:7:8',
    '1:2:3:4:5::7:8',
    '1:2:3:4:5::1.2.3.4',
    '::1.2.3.4',
    '1:2:3:4:5:6::8',
    '1:2:3:4:5:6:7::',
    '::',
    'aBcD:EF01::',
    '1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    '12345::',
    ':1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7:8::',
    'g::1',
    '1:2:3:4:5:6:7:1.2.3.4',
    '::1.2.3',
    '1:2:3:4:5:6:7:8:',
  ])('a bracketed host [%s] is accepted exactly when it is an IPv6 address (node:net agrees)', (address) => {
    const url = `https://[${address}]/h`;
    const refusal = urlRefusal(url);
    if (net.isIP(address) === 6) expect(refusal, url).toBeUndefined();
    else expect(refusal, url).toBe(`has [${address}], which is not an IPv6 address`);
    expect(specPattern.test(url), url).toBe(net.isIP(address) === 6);
  });

  it('issue 37 item 16 (issue 38: without a workbench): on generated URLs the pattern, urlRefusal and the generated validator agree, and what they accept the URL parser reads', () => {
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

});

describe('issue 38: hostOf, checkDestination and guardedLookup', () => {
  it('hostOf drops the brackets of an IPv6 host only', () => {
    expect(hostOf(new URL('https://[::1]:8443/h'))).toBe('::1');
    expect(hostOf(new URL('https://hooks.example.in/h'))).toBe('hooks.example.in');
    expect(hostOf(new URL('http://127.0.0.1/h'))).toBe('127.0.0.1');
  });

  it('without --deny-private everything passes, with the same URL object', async () => {
    const url = new URL('http://127.0.0.1:1/x');
    expect(await checkDestination(url, false)).toEqual({ ok: true, url });
    const verdict = await checkDestination(url, false);
    expect(verdict.ok && verdict.url).toBe(url);
  });

  it('with it, an address literal is judged without DNS: refused private ones named, public ones pass', async () => {
    expect(await checkDestination(new URL('https://10.0.0.5/h'), true)).toEqual({ ok: false, reason: '10.0.0.5 is a loopback, private, link-local or reserved address' });
    expect(await checkDestination(new URL('https://[::ffff:127.0.0.1]/h'), true)).toEqual({ ok: false, reason: '::ffff:7f00:1 is a loopback, private, link-local or reserved address' });
    const pub = new URL('https://8.8.8.8/h');
    expect(await checkDestination(pub, true)).toEqual({ ok: true, url: pub });
    const pub6 = new URL('https://[2606:4700:4700::1111]/h');
    expect(await checkDestination(pub6, true)).toEqual({ ok: true, url: pub6 });
  });

  it('with it, a name is resolved: localhost is refused naming the address, a name that does not resolve is refused naming the error', async () => {
    expect(await checkDestination(new URL('https://localhost/h'), true)).toEqual({ ok: false, reason: expect.stringMatching(/^host localhost resolves to (127\.0\.0\.1|::1), a loopback, private, link-local or reserved address$/) });
    expect(await checkDestination(new URL('https://no-such-host.invalid/h'), true)).toEqual({ ok: false, reason: expect.stringMatching(/^host no-such-host\.invalid does not resolve \((ENOTFOUND|EAI_AGAIN|ESERVFAIL)\)$/) });
  });

  function lookup(hostname: string, all: boolean): Promise<{ err: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number }> {
    return new Promise((resolve) => guardedLookup(hostname, { all }, (err, address, family) => resolve({ err, address, family })));
  }

  it('guardedLookup refuses a blocked address at connection time, in both calling forms', async () => {
    for (const all of [false, true]) {
      const { err, address, family } = await lookup('127.0.0.1', all);
      expect(err).toBeInstanceOf(BlockedAddressError);
      expect(err).toMatchObject({ code: 'ERR_SIMULATOR_BLOCKED_ADDRESS', host: '127.0.0.1', address: '127.0.0.1', message: '127.0.0.1 resolves to 127.0.0.1, an address deliveries are not sent to (--deny-private)' });
      expect(address).toEqual(all ? [] : '');
      expect(family).toBeUndefined();
    }
    const named = await lookup('localhost', false);
    expect(named.err).toMatchObject({ host: 'localhost', message: expect.stringMatching(/^localhost resolves to /) });
  });

  it('guardedLookup passes a public address on, as a list or as one address with its family', async () => {
    expect(await lookup('8.8.8.8', true)).toEqual({ err: null, address: [{ address: '8.8.8.8', family: 4 }], family: undefined });
    expect(await lookup('8.8.8.8', false)).toEqual({ err: null, address: '8.8.8.8', family: 4 });
    expect(await lookup('2606:4700:4700::1111', false)).toEqual({ err: null, address: '2606:4700:4700::1111', family: 6 });
  });

  it('guardedLookup hands a DNS failure on, in both calling forms', async () => {
    for (const all of [false, true]) {
      const { err, address } = await lookup('no-such-host.invalid', all);
      expect(err).not.toBeNull();
      expect(err).not.toBeInstanceOf(BlockedAddressError);
      expect(address).toEqual(all ? [] : '');
    }
  });
});
