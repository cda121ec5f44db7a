// The site map: which pages the docs site has and where they land under docs/site/. The build, the
// landing page, the navigation bar and the browser test all read this list, so they cannot disagree.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { documents, repoRoot, workbenchDocument } from '../lib/repo.js';

export const guidesDir = path.join(repoRoot, 'docs/guides');
export const siteDir = path.join(repoRoot, 'docs/site');

export interface ReferencePage {
  id: 'storefront' | 'admin' | 'workbench' | 'events';
  title: string;
  summary: string;
  /** Relative to docs/site/. */
  href: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

export interface OperationFacts {
  count: number;
  /** Operations marked `x-contract-source: inferred` (designed here); the others are stated by the platform. */
  designed: number;
  /** Tag name -> operations, in the order of the document's `tags`. */
  byTag: Array<[string, number]>;
}

export interface OperationLine {
  method: (typeof METHODS)[number];
  /** As the document writes it, relative to its server's base path (`/catalog/products`). */
  path: string;
  operationId: string;
  summary: string;
  tags: string[];
  /** Marked `x-contract-source: inferred` (designed here); otherwise stated by the platform. */
  designed: boolean;
}

interface OpenApiRoot {
  tags?: Array<{ name: string }>;
  servers?: Array<{ url: string }>;
  paths?: Record<string, Record<string, any>>;
}

const readRoot = (file: string) => parse(readFileSync(file, 'utf8')) as OpenApiRoot;

/** Every operation of an OpenAPI document and its path files, in the document's order (paths, then methods). */
export function operationsOf(file: string): OperationLine[] {
  const out: OperationLine[] = [];
  for (const [p, item] of Object.entries(readRoot(file).paths ?? {})) {
    const resolved = typeof item.$ref === 'string' ? parse(readFileSync(path.resolve(path.dirname(file), item.$ref), 'utf8')) : item;
    for (const method of METHODS) {
      const op = resolved[method];
      if (!op) continue;
      out.push({ method, path: p, operationId: String(op.operationId ?? ''), summary: String(op.summary ?? ''), tags: op.tags ?? [], designed: op['x-contract-source'] === 'inferred' });
    }
  }
  return out;
}

/** The path of a document's first server after `{base_url}` (`/api/v1/{store_id}/storefront`). */
export function serverBasePath(file: string): string {
  return (readRoot(file).servers?.[0]?.url ?? '').replace(/^\{base_url\}/, '');
}

/** Counted from an OpenAPI document and its path files, so no page states a number the contract does not. */
export function operationFacts(file: string): OperationFacts {
  const ops = operationsOf(file);
  const tagged = new Map<string, number>();
  for (const op of ops) for (const tag of op.tags) tagged.set(tag, (tagged.get(tag) ?? 0) + 1);
  const order = (readRoot(file).tags ?? []).map((t) => t.name);
  const byTag = [...tagged].sort((a, b) => (order.indexOf(a[0]) + 1 || Infinity) - (order.indexOf(b[0]) + 1 || Infinity));
  return { count: ops.length, designed: ops.filter((o) => o.designed).length, byTag };
}

/** "The 10 admin operations (7 stated by the platform, 3 designed here), by tag: Webhooks 7, Webhook deliveries 3." */
export function operationsSummary(api: string, facts: OperationFacts): string {
  const provenance = facts.designed ? ` (${facts.count - facts.designed} stated by the platform, ${facts.designed} designed here)` : ', all stated by the platform';
  return `The ${facts.count} ${api} operations${provenance}, by tag: ${facts.byTag.map(([tag, n]) => `${tag} ${n}`).join(', ')}.`;
}

export const references: ReferencePage[] = [
  {
    id: 'storefront',
    title: 'Storefront API reference',
    summary: operationsSummary('storefront', operationFacts(documents.storefront)),
    href: 'reference/storefront.html',
  },
  {
    id: 'admin',
    title: 'Admin webhook API reference',
    summary: `${operationsSummary('admin', operationFacts(documents.admin))} They register, list, read, delete, rotate and test webhook subscriptions and retry and replay their deliveries.`,
    href: 'reference/admin.html',
  },
  {
    id: 'workbench',
    title: 'Workbench API reference',
    summary: `The workbench's own API, designed here and outside the platform's contract: the sandbox's back office, store clocks, fault rules, the webhook simulator's trigger and the console's reads under /__simulator (${operationFacts(workbenchDocument).count} operations; its typed client is createWorkbenchClient of storefront-contract/workbench).`,
    href: 'reference/workbench.html',
  },
  {
    id: 'events',
    title: 'Webhook events reference',
    summary: 'A catalog of every event, then one page per event family: headers, payload fields and a signed example delivery.',
    href: 'events/index.html',
  },
];

/** What changed from one release to the next (scripts/docs/changelog.ts, from spec/versions.yaml). */
export const changelogPage = {
  title: 'Changelog',
  summary: 'What changed in the contract from one release to the next: breaking, non-breaking and docs-only changes, each with the operations and events it reaches.',
  href: 'changelog.html',
} as const;

export interface GuidePage {
  /** File name without `.md` in docs/guides/; the page is guides/<slug>.html. */
  slug: string;
  summary: string;
  /** Written by another script or helper; the build links it and warns when it is missing. */
  writtenBy?: string;
}

/** Guides in reading order. Any other docs/guides/*.md is rendered too and listed after these. */
export const guides: GuidePage[] = [
  { slug: 'quickstart', summary: 'Build a storefront app against the sandbox: start it, call it with curl, then with the typed client.' },
  { slug: 'sandbox', summary: 'The sandbox\'s world of stores: what writes change, and its back office.' },
  { slug: 'browser-apps', summary: 'A browser app: where the store key lives, token storage, signing in again on 401, CORS, TanStack Query hooks.' },
  { slug: 'testing-with-the-sandbox', summary: 'The sandbox inside unit and component tests, without a server: MSW handlers in Node and in the browser.' },
  { slug: 'authentication', summary: 'API key or bearer token, anonymous tokens, the POS phone login and debug_mode.' },
  { slug: 'pagination-sorting-customer-groups', summary: 'page and limit, sort_by, filters, and how a customer group picks prices.' },
  { slug: 'webhooks', summary: 'The delivery contract: signatures, retries, 410, secret rotation, marketplace scoping.' },
  { slug: 'receiving-webhooks', summary: 'Receive webhooks with Express, Fastify, node:http or Fetch: verify, de-duplicate, dispatch.', writtenBy: 'the webhook kit' },
  { slug: 'debug-webhook-delivery-console', summary: 'The workbench console: the live request log, deliveries with signature verdicts, retries, and the back office\'s buttons in one page.' },
  { slug: 'agents', summary: 'Coding agents: the contract, the sandbox and certification as MCP tools (stdio, and /mcp on a running workbench).' },
  { slug: 'certification', summary: 'Certify your server in CI: replay, generated requests, webhooks, and reading the reports.', writtenBy: 'the certifier' },
  { slug: 'reviewing-spec-changes', summary: 'Review a spec change: lint, the diff (every operation and event a change reaches), the docs preview.' },
  { slug: 'inferred-decisions', summary: 'Every part of the contract the platform leaves open: what was designed here and why.', writtenBy: 'npm run docs (from spec/inferred/)' },
];

export const guideHref = (slug: string) => `guides/${slug}.html`;
