// Which credentials a storefront operation takes (its security requirement, with the schemes of the spec's
// `components.securitySchemes`), and whether a request carries one of them at all. Whether a credential is
// valid cannot be seen from outside; whether one was sent can (auth-enforced on observed traffic).
import { contractModel, type JsonObject } from '../../workbench/contract/model.js';

// Loaded before any rule runs (rules judge synchronously); the model reads the document once per process.
const storefront = await contractModel('storefront');

/** How a request presents a scheme: a header and, for `http` schemes, the scheme word its value starts with. */
interface Presentation {
  scheme: string;
  header: string;
  prefix?: string;
}

function presentationOf(name: string, scheme: JsonObject | undefined): Presentation | undefined {
  if (scheme?.type === 'apiKey' && scheme.in === 'header' && typeof scheme.name === 'string') return { scheme: name, header: scheme.name.toLowerCase() };
  if (scheme?.type === 'http' && typeof scheme.scheme === 'string') return { scheme: name, header: 'authorization', prefix: scheme.scheme.toLowerCase() };
  return undefined;
}

const cache = new Map<string, Presentation[][] | undefined>();

/**
 * The operation's alternatives of credentials, each the presentations it requires; [] for a public
 * operation, undefined when a scheme is one a request cannot be seen to carry (a cookie, OAuth flows).
 */
export function credentialsOf(operationId: string): Presentation[][] | undefined {
  if (!cache.has(operationId)) {
    const security = storefront.operation(operationId)?.security ?? [];
    const alternatives = security.map((requirement) => Object.keys(requirement).map((name) => presentationOf(name, storefront.securitySchemes[name])));
    cache.set(operationId, alternatives.some((a) => a.some((p) => !p)) ? undefined : (alternatives as Presentation[][]));
  }
  return cache.get(operationId);
}

/** True when the request (headers lower case) presents at least one credential of any alternative. */
export function carriesCredential(alternatives: Presentation[][], headers: Record<string, string>): boolean {
  return alternatives.some((alt) =>
    alt.some((p) => {
      const value = headers[p.header]?.trim();
      if (!value) return false;
      return p.prefix ? value.toLowerCase().startsWith(`${p.prefix} `) && value.length > p.prefix.length + 1 : true;
    }),
  );
}

/** `X-Api-Key (storeApiKey)` or `Authorization: Bearer (bearerAuth)`, for messages. */
export function describeCredentials(alternatives: Presentation[][]): string {
  return alternatives.map((alt) => alt.map((p) => (p.prefix ? `Authorization: ${p.prefix[0].toUpperCase()}${p.prefix.slice(1)} …` : p.header.replace(/(^|-)([a-z])/g, (_, d, c) => `${d}${c.toUpperCase()}`))).join(' + ')).join(' or ');
}
