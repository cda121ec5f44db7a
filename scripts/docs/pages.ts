// The site map: which pages the docs site has and where they land under docs/site/. The build, the
// landing page, the navigation bar and the browser test all read this list, so they cannot disagree.
import path from 'node:path';
import { repoRoot } from '../lib/repo.js';

export const guidesDir = path.join(repoRoot, 'docs/guides');
export const siteDir = path.join(repoRoot, 'docs/site');

export interface ReferencePage {
  id: 'storefront' | 'admin' | 'events';
  title: string;
  summary: string;
  /** Relative to docs/site/. */
  href: string;
}

export const references: ReferencePage[] = [
  {
    id: 'storefront',
    title: 'Storefront API reference',
    summary: 'The 12 storefront operations: authentication, catalog, carts, shipping, orders, customers, countries, POS login.',
    href: 'reference/storefront.html',
  },
  {
    id: 'admin',
    title: 'Admin webhook API reference',
    summary: 'The 10 admin operations (7 stated by the platform, 3 designed here) that register, list, read, delete, rotate and test webhook subscriptions and retry and replay their deliveries.',
    href: 'reference/admin.html',
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
  { slug: 'certification', summary: 'Certify your server in CI: replay, generated requests, webhooks, and reading the reports.', writtenBy: 'the certifier' },
  { slug: 'reviewing-spec-changes', summary: 'Review a spec change: lint, the diff (every operation and event a change reaches), the docs preview.' },
  { slug: 'inferred-decisions', summary: 'Every part of the contract the platform leaves open: what was designed here and why.', writtenBy: 'npm run docs (from spec/inferred/)' },
];

export const guideHref = (slug: string) => `guides/${slug}.html`;
