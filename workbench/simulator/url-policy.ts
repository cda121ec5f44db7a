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
  // Stryker disable next-line MethodExpression: parseInt(group, 16) below reads hex digits in either case
  let text = address.toLowerCase();
  // Unanchored: net.isIP (above) accepts a dotted IPv4 part only at the end.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  const groups = [...left, ...(tail !== undefined ? Array(missing).fill('0') : []), ...right].map((g) => parseInt(g, 16));
  // net.isIP bounds every group to four hex digits; only a zone's text (`fe80::%eth0`) leaves one unreadable (NaN).
  return groups.length === 8 && groups.every(Number.isInteger) ? groups : undefined;
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
  // An address with a zone (`fe80::1%eth0`, only meaningful on this host): refuse.
  if (address.includes('%')) return true;
  // Not an IPv6 address at all (ipv6Groups reads only what net.isIP accepts as one): refuse.
  const groups = ipv6Groups(address);
  if (!groups) return true;
  if (embeddedIpv4(groups).some((ip) => blocked.check(ip, 'ipv4'))) return true;
  const canonical = groups.map((g) => g.toString(16)).join(':');
  return blocked.check(canonical, 'ipv6');
}

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

// What the spec's `CreateWebhookRequest.url` pattern accepts, as code that can say why a string is refused.
// The pattern and this function accept the same strings (test/simulator/url-policy.test.ts generates URLs
// and checks both): https:// on a DNS name (no `xn--` label: a regex cannot tell valid punycode, which the
// URL parser checks), a dotted IPv4 address or a bracketed IPv6 address (RFC 3986, no zone); http:// only on
// localhost, 127.0.0.1 or [::1]; a port from 0 to 65535; no user info; no fragment; then URI characters,
// `%` only before two hex digits.
const URI_CHARACTER = /[^A-Za-z0-9._~:/?#@!$&'()*+,;=%[\]-]/;
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
const DEC_OCTET = /^(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$/;
const H16 = '[0-9A-Fa-f]{1,4}';
const LS32 = `(${H16}:${H16}|(\\d+\\.){3}\\d+)`;
const IPV6 = new RegExp(
  `^(${[
    `(${H16}:){6}${LS32}`,
    `::(${H16}:){5}${LS32}`,
    `(${H16})?::(${H16}:){4}${LS32}`,
    `((${H16}:)?${H16})?::(${H16}:){3}${LS32}`,
    `((${H16}:){0,2}${H16})?::(${H16}:){2}${LS32}`,
    `((${H16}:){0,3}${H16})?::${H16}:${LS32}`,
    `((${H16}:){0,4}${H16})?::${LS32}`,
    `((${H16}:){0,5}${H16})?::${H16}`,
    `((${H16}:){0,6}${H16})?::`,
  ].join('|')})$`,
);

const isIpv4 = (host: string) => {
  const parts = host.split('.');
  return parts.length === 4 && parts.every((p) => DEC_OCTET.test(p));
};

function describeCharacter(c: string): string {
  const code = c.codePointAt(0)!;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return code > 0x20 && code < 0x7f ? `"${c}"` : code === 0x20 ? 'a space' : `${hex}`;
}

/** Why the host part of a URL (brackets kept for IPv6) is refused, or undefined. */
function hostRefusal(host: string): string | undefined {
  if (host === '') return 'has no host after //';
  if (host.startsWith('[')) {
    const inner = host.slice(1, -1);
    if (inner.includes('%')) return `has an IPv6 zone (${host}): a zone names an interface of one machine and cannot be sent to`;
    if (!IPV6.test(inner)) return `has ${host}, which is not an IPv6 address`;
    // Unanchored: IPV6 (above) allows a dotted IPv4 part only at the end.
    const dotted = /(\d+\.\d+\.\d+\.\d+)/.exec(inner);
    if (dotted && !isIpv4(dotted[1])) return `has ${host}, whose IPv4 part ${dotted[1]} is not four numbers from 0 to 255 without leading zeros`;
    return undefined;
  }
  if (/[[\]]/.test(host)) return `has a host with [ or ] (${host}); brackets enclose an IPv6 address only`;
  const labels = host.split('.');
  const last = labels[labels.length - 1];
  if (/^[0-9]/.test(last) || /^[0-9.]+$/.test(host)) {
    return isIpv4(host) ? undefined : `has the host ${host}, which ends in a number and so must be a dotted IPv4 address (four numbers from 0 to 255 without leading zeros)`;
  }
  for (const label of labels) {
    if (label === '') return `has an empty label in the host ${host} (two dots, or a dot at its start or end)`;
    if (/[^A-Za-z0-9-]/.test(label)) return `has the host label "${label}" with characters other than letters, digits and hyphens`;
    if (label.startsWith('-') || label.endsWith('-')) return `has the host label "${label}", which starts or ends with a hyphen`;
    if (/^xn--/i.test(label)) return `has the punycode label "${label}"; write the host without internationalized (xn--) labels`;
  }
  return undefined;
}

/**
 * Why a subscription URL is refused, as the end of the sentence "url ... is refused: it ...", or
 * undefined when the spec's pattern accepts it (its length is the schema's `maxLength`, checked apart).
 */
export function urlRefusal(raw: string): string | undefined {
  const odd = URI_CHARACTER.exec(raw);
  if (odd) return `has a character a URL cannot carry as it is (${describeCharacter(String.fromCodePoint(raw.codePointAt(odd.index)!))} at position ${odd.index + 1}); percent-encode it (%XX)`;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(raw)?.[1];
  if (scheme === undefined) return 'is not an absolute URL: it must start with https://';
  const lower = scheme.toLowerCase();
  if (lower !== 'https' && lower !== 'http') return `uses the scheme ${scheme}: it must be https (http only for a loopback host)`;
  if (scheme !== lower) return `writes its scheme as ${scheme}: write it in lower case (${lower}://)`;
  if (!raw.startsWith('//', scheme.length + 1)) return `has no // after ${scheme}: (write ${scheme}://host/path)`;
  const rest = raw.slice(scheme.length + 3);
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd < 0 ? rest : rest.slice(0, authorityEnd);
  // What follows the authority (path, query, fragment). Read whole instead, the rest would give the same answers:
  // the authority holds no # (it ends at the first of / ? #), and a bare % in it is refused by the host and port
  // checks first.
  // Stryker disable next-line MethodExpression: equivalent, see above
  const tail = rest.slice(authority.length);
  if (authority.includes('@')) return 'carries user info (credentials before @); send the endpoint credential in custom_headers instead';
  const hash = tail.indexOf('#');
  if (hash >= 0) return `has a fragment (${tail.slice(hash, hash + 40)}): a fragment is never sent to the receiver; remove it`;
  let host = authority;
  let port: string | undefined;
  if (authority.startsWith('[')) {
    const close = authority.indexOf(']');
    // Stryker disable next-line EqualityOperator: the authority starts with [, so ] is never at 0
    if (close < 0) return `has an IPv6 host without its closing ] (${authority.slice(0, 60)})`;
    host = authority.slice(0, close + 1);
    const after = authority.slice(close + 1);
    if (after !== '' && !after.startsWith(':')) return `has "${after.slice(0, 40)}" after the IPv6 host ${host}; only :port may follow it`;
    if (after !== '') port = after.slice(1);
  } else {
    const colon = authority.indexOf(':');
    if (colon >= 0) {
      host = authority.slice(0, colon);
      port = authority.slice(colon + 1);
    }
  }
  const hostProblem = hostRefusal(host);
  if (hostProblem) return hostProblem;
  if (port !== undefined && !(/^(0|[1-9][0-9]{0,4})$/.test(port) && Number(port) <= 65535)) {
    return port === '' ? 'has a : with no port after it' : `has the port "${port.slice(0, 20)}": a port is a number from 0 to 65535 without leading zeros`;
  }
  const percent = /%(?![0-9A-Fa-f]{2})/.exec(tail);
  if (percent) return `has a % not followed by two hex digits (${tail.slice(percent.index, percent.index + 3)}); write a literal % as %25`;
  if (lower === 'http' && !LOOPBACK_HOSTS.includes(host)) {
    return `uses http:// on ${host}: http:// is accepted only for a loopback host (localhost, 127.0.0.1, [::1]) for local development; use https://`;
  }
  return undefined;
}

/** Scheme and shape only (no DNS): what every subscription URL must satisfy. */
export function checkUrlShape(raw: string): UrlVerdict {
  const refusal = urlRefusal(raw);
  if (refusal) return { ok: false, reason: refusal };
  // A guard only: urlRefusal accepts nothing the URL parser cannot read (url-policy-unit.test.ts checks it on
  // generated URLs), so this refusal is never reached and its `false` mutant cannot be told apart.
  // Stryker disable next-line ConditionalExpression,ObjectLiteral,StringLiteral: unreachable, see above
  if (!URL.canParse(raw)) return { ok: false, reason: 'is not a URL the URL parser reads' };
  return { ok: true, url: new URL(raw) };
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
    // In the resolver's own order (Node's default since 17); every address is checked below.
    addresses = await dns.promises.lookup(host, { all: true });
  } catch (e) {
    // Stryker disable next-line StringLiteral: an error of dns.lookup always carries its code; the fallback is for the type only
    const code = (e as NodeJS.ErrnoException).code ?? 'DNS error';
    return { ok: false, reason: `host ${host} does not resolve (${code})` };
  }
  const bad = addresses.find((a) => isBlockedAddress(a.address));
  // Stryker disable next-line ConditionalExpression: telling it from `true` needs a name that resolves to a public address, and tests make no network calls (the address-literal path is tested)
  if (bad) return { ok: false, reason: `host ${host} resolves to ${bad.address}, a loopback, private, link-local or reserved address` };
  // Stryker disable next-line ObjectLiteral: reached only for a name that resolves to public addresses, which needs the network (see above)
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
