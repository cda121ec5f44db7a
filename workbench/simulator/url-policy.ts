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
] as const) {
  blocked.addSubnet(prefix, bits, 'ipv6');
}

/** Whether an IP address (v4 or v6, including IPv4-mapped and NAT64 forms) is one deliveries must avoid. */
export function isBlockedAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true; // not an address at all: refuse rather than guess
  const lower = address.toLowerCase();
  // ::ffff:a.b.c.d and 64:ff9b::a.b.c.d carry an IPv4 address: judge that one.
  const embedded = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (embedded) return blocked.check(embedded[1], 'ipv4');
  const mappedHex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (mappedHex) {
    const hi = parseInt(mappedHex[1], 16);
    const lo = parseInt(mappedHex[2], 16);
    return blocked.check(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, 'ipv4');
  }
  return blocked.check(address, 'ipv6');
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
