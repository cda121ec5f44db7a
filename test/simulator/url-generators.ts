// The spec's webhook URL pattern and URL-ish strings generated to test it, shared by url-policy.test.ts
// (over HTTP) and url-policy-unit.test.ts (the policy functions on their own).
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from '../../scripts/lib/repo.js';

/** The spec's `CreateWebhookRequest.url` as written (the YAML source, not a copy). */
export const urlSchema = parse(readFileSync(path.join(repoRoot, 'spec/openapi/components/schemas/CreateWebhookRequest.yaml'), 'utf8')).properties.url as { pattern: string; maxLength: number };
// As a JSON Schema validator compiles it (Ajv: the `u` flag) and as a plain ECMA-262 regex.
export const specPattern = new RegExp(urlSchema.pattern, 'u');
export const plainPattern = new RegExp(urlSchema.pattern);

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
export const anyUrl = fc.oneof(
  builtUrl,
  fc.webUrl({ validSchemes: ['https', 'http', 'ftp'], withFragments: true, withQueryParameters: true, authoritySettings: { withIPv4: true, withIPv6: true, withIPv4Extended: true, withUserInfo: true, withPort: true } }),
  fc.ipV6().map((a) => `https://[${a}]/hook`),
);

