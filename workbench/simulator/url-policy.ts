// Where the simulator may send deliveries. http(s) only. By default loopback is allowed, because partners
// run their receivers on their own machine (register WH-006). With `denyPrivate` the simulator behaves as a
// production sender must against SSRF: loopback, private, link-local (cloud metadata), CGNAT, multicast and
// reserved addresses are refused, judged on the addresses a host name resolves to. The same check runs
// inside the connection's DNS lookup, so a name that resolves differently at send time (DNS rebinding)
// is still refused.
import dns from 'node:dns';
import net from 'node:net';

export class BlockedAddressError extends Error {
  readonly code = 'ERR_SIMULATOR_BLOCKED_ADDRESS';
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} resolves to ${address}, an address deliveries are not sent to (--deny-private)`);
  }
}

const blocked = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, including the cloud metadata address 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local (also AWS's IPv6 metadata fd00:ec2::254)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['2001:db8::', 32], // documentation
  ['100::', 64], // discard
  ['fec0::', 10], // site-local (deprecated, still routed by some stacks)
  ['2001:2::', 48], // benchmarking
  ['2001:10::', 28], // ORCHID
  ['3fff::', 20], // documentation
  ['64:ff9b:1::', 48], // local-use NAT64: its IPv4 embedding depends on the local prefix length
] as const) {
  blocked.addSubnet(prefix, bits, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part allowed), or undefined. */
export function ipv6Groups(address: string): number[] | undefined {
  if (net.isIP(address) !== 6) return undefined;
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  const groups = [...left, ...(tail !== undefined ? Array(missing).fill('0') : []), ...right].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : undefined;
}

const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
const startsWith = (groups: number[], prefix: number[]) => prefix.every((g, i) => groups[i] === g);

/**
 * The IPv4 addresses an IPv6 address carries, for every standard embedding a router or a host stack may
 * translate back to IPv4: IPv4-compatible (::a.b.c.d), IPv4-mapped (::ffff:a.b.c.d), SIIT
 * (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96, local-use 64:ff9b:1::/48), 6to4 (2002::/16) and Teredo
 * (2001::/32: server, and the client obfuscated by XOR).
 */
export function embeddedIpv4(groups: number[]): string[] {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups;
  const found: string[] = [];
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && (g5 === 0 || g5 === 0xffff)) found.push(v4(g6, g7));
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0xffff && g5 === 0) found.push(v4(g6, g7));
  if (startsWith(groups, [0x64, 0xff9b]) && (g2 === 0 || g2 === 1)) found.push(v4(g6, g7));
  if (g0 === 0x2002) found.push(v4(g1, g2));
  if (g0 === 0x2001 && g1 === 0) found.push(v4(g2, g3), v4(g6 ^ 0xffff, g7 ^ 0xffff));
  return found;
}

/** Whether an IP address (v4 or v6, including every form that embeds IPv4) is one deliveries must avoid. */
export function isBlockedAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  // Not an address at all, or one with a zone (`fe80::1%eth0`, only meaningful on this host): refuse.
  if (family !== 6 || address.includes('%')) return true;
  const groups = ipv6Groups(address);
  if (!groups) return true;
  if (embeddedIpv4(groups).some((ip) => blocked.check(ip, 'ipv4'))) return true;
  const canonical = groups.map((g) => g.toString(16)).join(':');
  return blocked.check(canonical, 'ipv6');
}

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

/** Scheme and shape only (no DNS): what every subscription URL must satisfy. */
export function checkUrlShape(raw: string): UrlVerdict {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'is not a valid absolute URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: `must use https (got ${url.protocol.replace(':', '')})` };
  if (url.username || url.password) return { ok: false, reason: 'must not carry credentials; use custom_headers for the endpoint credential' };
  return { ok: true, url };
}

/** The host of a URL as a bare name or address (IPv6 brackets removed). */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * With `denyPrivate`, resolves the host and refuses it when any address it resolves to is blocked (an
 * attacker controls which of several addresses a client picks). Without it, everything passes.
 */
export async function checkDestination(url: URL, denyPrivate: boolean): Promise<UrlVerdict> {
  if (!denyPrivate) return { ok: true, url };
  const host = hostOf(url);
  if (net.isIP(host)) return isBlockedAddress(host) ? { ok: false, reason: `${host} is a loopback, private, link-local or reserved address` } : { ok: true, url };
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch (e) {
    return { ok: false, reason: `host ${host} does not resolve (${(e as NodeJS.ErrnoException).code ?? 'DNS error'})` };
  }
  const bad = addresses.find((a) => isBlockedAddress(a.address));
  if (bad) return { ok: false, reason: `host ${host} resolves to ${bad.address}, a loopback, private, link-local or reserved address` };
  return { ok: true, url };
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net.connect that refuses blocked addresses at connection time. Node calls it with
 * `all: true` when it races IPv4 and IPv6 (autoSelectFamily), with a single answer otherwise.
 */
export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, options.all ? [] : '', undefined);
    const list = addresses as dns.LookupAddress[];
    const bad = list.find((a) => isBlockedAddress(a.address));
    if (bad) return callback(new BlockedAddressError(hostname, bad.address) as unknown as NodeJS.ErrnoException, options.all ? [] : '', undefined);
    if (options.all) return callback(null, list);
    callback(null, list[0].address, list[0].family);
  });
}
