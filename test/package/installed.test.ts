// The two packages as other projects get them (test/package/packed.ts): the library alone in an app
// project stays light; with the tools, a consumer importing every public entry of the library is
// type-checked by tsc (strict, skipLibCheck off, no framework installed) and run in plain Node, and the
// bin serves the sandbox, its docs site, triggers and delivers webhooks, and certifies REST and webhooks.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createHmac } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { run } from '../helpers/run.js';
import { buildVitePage } from '../helpers/vite-page.js';
import { installPacked, type InstalledPackages } from './packed.js';
import { readdir, readFile, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { brokenLinks, markdownFiles, unshippedCitations } from './shipped-docs.js';
import { hangGuard } from '../helpers/hang-guard.js';

/** The compiler flags of a strict app: the library's published types must compile under each. */
const STRICT = { strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, skipLibCheck: false };

// An app with the library alone: the quickstart's client, typed failures, the Admin client's event names.
const appSource = `
import { createAdminClient, createStorefrontClient, isErrorEnvelope, unwrap, StorefrontApiError, type ErrorCode, type ErrorEnvelope, type ErrorItem, type WebhookEventName } from 'storefront-contract';
import { validateResponse, type ValidationIssue } from 'storefront-contract/validators';
declare const env: { STOREFRONT_API_KEY?: string; STOREFRONT_ADMIN_TOKEN?: string };

const client = createStorefrontClient({ baseUrl: 'http://127.0.0.1:4010', storeId: 'demo-store', apiKey: env.STOREFRONT_API_KEY });
export async function first(): Promise<string | undefined> {
  await client.signInAnonymously();
  const { content } = await unwrap(client.GET('/catalog/products', { params: { query: { page: 1, limit: 20 } } }));
  return content.products[0]?.name;
}
export const issues: ValidationIssue[] = validateResponse('storefront', 'listCountries', 200, {}).valid ? [] : [];
export const isApiError = (e: unknown): e is StorefrontApiError => e instanceof StorefrontApiError;

// Failures: the envelope, its code one of the known codes or a newer one, its details typed.
export async function failure(): Promise<string | undefined> {
  const { error } = await client.GET('/catalog/products/{product_id}/variants/{variant_id}', { params: { path: { product_id: 'p', variant_id: 'v' } } });
  if (error) {
    const envelope: ErrorEnvelope = error;
    const known: ErrorCode = 'not_found';
    const details: ErrorItem[] = envelope.content.error.details;
    if (error.content.error.code === known || error.content.error.code === 'a_code_from_a_newer_server') return details[0]?.name;
  }
  try {
    await unwrap(client.GET('/common/countries'));
  } catch (e) {
    if (e instanceof StorefrontApiError) return e.code ?? e.details[0]?.message ?? String(e.status);
    if (isErrorEnvelope(e)) return e.content.error.code;
  }
  return undefined;
}
// @ts-expect-error ErrorCode is the closed list of known codes
export const closed: ErrorCode = 'a_code_from_a_newer_server';

// Event names: the catalog's; another name only on purpose.
const admin = createAdminClient({ baseUrl: 'http://127.0.0.1:4010', storeId: 'demo-store', adminToken: env.STOREFRONT_ADMIN_TOKEN });
export const subscribe = () => admin.POST('/webhooks', { body: { url: 'https://example.in/hooks', events: ['order.created', 'order.archived' as WebhookEventName] } });
// @ts-expect-error a misspelled event name
export const typo = () => admin.POST('/webhooks', { body: { url: 'https://example.in/hooks', events: ['order.craeted'] } });
`;

const consumerSource = `
import { createStorefrontClient, ContractViolationError, StorefrontApiError, type WebhookEvent, type StorefrontPaths } from 'storefront-contract';
import { validateResponse, validateWebhookDelivery } from 'storefront-contract/validators';
import { verifySignature, signPayload, createWebhookHandler } from 'storefront-contract/webhooks';
import { toNodeHandler } from 'storefront-contract/webhooks/node';
import { toExpressMiddleware } from 'storefront-contract/webhooks/express';
import { toFastifyPlugin } from 'storefront-contract/webhooks/fastify';
import { toFetchHandler } from 'storefront-contract/webhooks/fetch';

const client = createStorefrontClient({ baseUrl: 'http://127.0.0.1:9', storeId: 'demo-store', accessToken: 't' });
type ListProducts = StorefrontPaths['/catalog/products']['get'];
const limit: NonNullable<ListProducts['parameters']['query']>['limit'] = 10;
// The types refuse a wrong type: were they loose, this directive would be unused and tsc would fail (TS2578).
// @ts-expect-error a page size is a number, not text
export const wrongLimit: NonNullable<ListProducts['parameters']['query']>['limit'] = 'ten';

function describeEvent(event: WebhookEvent): string {
  return event.event === 'order.created' ? event.payload.properties.order_number : event.event;
}

const body = JSON.stringify({ hello: 'world' });
const header = signPayload(body, 'whsec_test');
const verdict = verifySignature(body, header, ['whsec_test']);
const countries = validateResponse('storefront', 'listCountries', 200, { success: true, message: 'ok', content: { countries: [] } });
const bad = validateResponse('storefront', 'listCountries', 200, { success: 'yes', message: 'ok', content: { countries: [] } });
const webhook = validateWebhookDelivery({ event: 'order.created' });

// Validation on: the operation's validators load from their own module of the installed package.
const answering = (body: unknown) => async () => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
const checked = createStorefrontClient({ baseUrl: 'http://127.0.0.1:9', storeId: 'demo-store', accessToken: 't', validate: 'strict', fetch: answering({ success: true, message: 'ok', content: { countries: [] } }) });
const lazy = await checked.GET('/common/countries');
const strict = createStorefrontClient({ baseUrl: 'http://127.0.0.1:9', storeId: 'demo-store', accessToken: 't', validate: 'strict', fetch: answering({ success: 'yes', message: 'ok', content: { countries: [] } }) });
const violation = await strict.GET('/common/countries').then(() => null, (error: unknown) => (error instanceof ContractViolationError ? error.issues[0]?.path : String(error)));
const handler = createWebhookHandler({ secrets: ['whsec_test'] });
const adapters = [toNodeHandler(handler), toExpressMiddleware(handler), toFastifyPlugin(handler), toFetchHandler(handler)].map((a) => typeof a);
console.log(JSON.stringify({
  client: typeof client.GET,
  limit,
  verdict: verdict.ok,
  countries: countries.valid,
  bad: bad.valid,
  badPath: bad.valid ? null : bad.errors[0]?.path,
  webhook: webhook.valid,
  describe: typeof describeEvent,
  adapters,
  apiError: new StorefrontApiError(401, 'listProducts', { success: false, message: 'no token' }).message,
  lazyValidated: lazy.data?.content.countries.length,
  violation,
}));
`;

// storefront-contract/react-query from the installed packages: the hooks' data and errors typed, and its
// optional peers (@tanstack/react-query, openapi-react-query) resolved as an app installs them.
const reactQuerySource = `
import { createStorefrontClient, StorefrontApiError, type ErrorItem, type StorefrontClient } from 'storefront-contract';
import { createQueryHooks } from 'storefront-contract/react-query';

const client: StorefrontClient = createStorefrontClient({ baseUrl: 'http://127.0.0.1:9', storeId: 'demo-store', apiKey: process.env.STOREFRONT_API_KEY, signIn: () => client.signInAnonymously().then((s) => s.access_token) });
const api = createQueryHooks(client);

export function useFirstProduct(): string | undefined {
  const { data, error } = api.useQuery('get', '/catalog/products', { params: { query: { limit: 1 } } });
  if (error instanceof StorefrontApiError) {
    const details: ErrorItem[] = error.details;
    return error.code ?? details[0]?.message;
  }
  return data?.content.products[0]?.name;
}
// @ts-expect-error limit is a number
export const wrong = () => api.useQuery('get', '/catalog/products', { params: { query: { limit: 'one' } } });
`;

let installed: InstalledPackages;
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
beforeAll(async () => {
  installed = await installPacked();
}, hangGuard(600_000));
afterAll(async () => installed?.remove());

// ---- the library alone, as an app installs it ---------------------------------------------------------

/** Every package folder under node_modules (scoped ones included) and the total bytes of its files. */
async function installedTree(project: string): Promise<{ packages: string[]; bytes: number }> {
  const packages: string[] = [];
  let bytes = 0;
  async function size(dir: string): Promise<void> {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const at = path.join(dir, entry.name);
      if (entry.isDirectory()) await size(at);
      else if (entry.isFile()) bytes += (await stat(at)).size;
    }
  }
  async function collect(dir: string): Promise<void> {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      if (entry.name.startsWith('@')) {
        for (const scoped of await readdir(path.join(dir, entry.name))) packages.push(`${entry.name}/${scoped}`), await collect(path.join(dir, entry.name, scoped, 'node_modules'));
      } else {
        packages.push(entry.name);
        await collect(path.join(dir, entry.name, 'node_modules'));
      }
    }
  }
  await collect(path.join(project, 'node_modules'));
  await size(path.join(project, 'node_modules'));
  return { packages: packages.sort(), bytes };
}

describe('the library installed alone into an app project', () => {
  it('is at most 8 packages and 10 MB, with no engine of the tools', async () => {
    const { packages, bytes } = await installedTree(installed.appProject);
    console.log(`library install: ${packages.length} packages (${packages.join(', ')}), ${(bytes / 1e6).toFixed(2)} MB in node_modules`);
    expect(packages).toContain('storefront-contract');
    expect(packages.length).toBeLessThanOrEqual(8);
    expect(bytes).toBeLessThanOrEqual(10 * 1e6);
    expect(packages.filter((p) => /^(@stoplight\/|libsql|@libsql\/|better-sqlite3|fast-check|undici|yaml|@apidevtools\/|ajv)/.test(p))).toEqual([]);
  });

  // The strictest settings an app uses: the library's published types must stand alone (no `ajv`, no
  // Node types for the browser entries) and take the quickstart's `apiKey: process.env...` as it is. The
  // errors and events are typed as in test/client/client-types.check.ts; each wrong line carries an
  // expect-error directive, which tsc reports as unused if the line compiles.
  it('type-checks an app under strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess and skipLibCheck false, with no other package', async () => {
    await writeFile(path.join(installed.appProject, 'app.ts'), appSource);
    await writeFile(
      path.join(installed.appProject, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { ...STRICT, target: 'ES2022', module: 'ESNext', moduleResolution: 'bundler', noEmit: true, types: [], lib: ['ES2022', 'DOM'] }, include: ['app.ts'] }),
    );
    const tsc = await run(path.join(repoRoot, 'node_modules/.bin/tsc'), ['-p', installed.appProject], { cwd: installed.appProject });
    expect(tsc.output).toBe('');
    expect(tsc.code).toBe(0);
  }, hangGuard(240_000));

  it('imports the client and the validators in plain Node, without the tools', async () => {
    await writeFile(
      path.join(installed.appProject, 'app.mjs'),
      `import { createStorefrontClient } from 'storefront-contract';\n` +
        `import { validateResponse } from 'storefront-contract/validators';\n` +
        `import { basePath } from 'storefront-contract/contract';\n` +
        `const client = createStorefrontClient({ baseUrl: 'http://127.0.0.1:9', storeId: 'demo-store', accessToken: 't' });\n` +
        `console.log(JSON.stringify({ client: typeof client.GET, valid: validateResponse('storefront', 'listCountries', 200, { success: true, message: 'ok', content: { countries: [] } }).valid, base: basePath('storefront', 'demo-store') }));\n`,
    );
    const node = await run(process.execPath, ['app.mjs'], { cwd: installed.appProject });
    expect(node.code, node.output).toBe(0);
    expect(JSON.parse(node.stdout)).toEqual({ client: 'function', valid: true, base: '/api/v1/demo-store/storefront' });
  });
});

describe('the packed library in a project with the tools', () => {
  let project: string;

  beforeAll(async () => {
    ({ project } = installed);
    await writeFile(path.join(project, 'consumer.ts'), consumerSource);
    await writeFile(path.join(project, 'react-query.ts'), reactQuerySource);
    await writeFile(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { ...STRICT, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', outDir: 'out', types: ['node'], lib: ['ES2022', 'DOM'] },
        include: ['consumer.ts', 'react-query.ts'],
      }),
    );
  }, hangGuard(600_000));

  // One compile (each takes 20 s here): the consumer also holds type errors under @ts-expect-error.
  it('type-checks and compiles, under the strict flags, a consumer importing the root, validators, webhooks and react-query, and rejects its type errors', async () => {
    const tsc = await run(path.join(repoRoot, 'node_modules/.bin/tsc'), ['-p', project], { cwd: project });
    expect(tsc.output).toBe('');
    expect(tsc.code).toBe(0);
    // A safety net for a loaded machine (about 20 s alone; CI runs it beside three other test files), not a speed check.
  }, hangGuard(240_000));

  it('runs the compiled consumer in plain Node', async () => {
    const node = await run(process.execPath, [path.join(project, 'out/consumer.js')], { cwd: project });
    expect(node.code, node.output).toBe(0);
    expect(JSON.parse(node.stdout)).toEqual({
      client: 'function',
      limit: 10,
      verdict: true,
      countries: true,
      bad: false,
      badPath: '/success',
      webhook: false,
      describe: 'function',
      adapters: ['function', 'function', 'function', 'function'],
      apiError: 'no token',
      lazyValidated: 0,
      violation: '/success',
    });
  });
});

// ---- the back office's client in a page, from the installed tools package (issue 37 item 4) ------------

// A page's module as a front-end team writes it: checked by tsc under the strict flags with the DOM's types
// and no Node types (a page's compile has none), then built by Vite as JavaScript.
const backOfficePage = `
import { BackOfficeError, createBackOfficeClient, type BackOfficeClient, type CreateCartBody } from 'storefront-contract-tools/back-office';

const office: BackOfficeClient = createBackOfficeClient({ baseUrl: 'http://127.0.0.1:4010', storeId: 'demo-store' });
const body: CreateCartBody = { customer_id: 'cst_9XK2PL', cart_items: [{ product_id: 'prd_7Q2K9X', variant_id: 'var_4M8T2C', quantity: 1 }] };
export async function setUp(): Promise<string | undefined> {
  try {
    const { cart } = await office.createCart(body);
    await office.updateCartItem({ cart_id: cart.id, variant_id: 'var_4M8T2C' }, { quantity: 3 });
    return cart.id;
  } catch (e) {
    if (e instanceof BackOfficeError) return e.code;
    throw e;
  }
}
// @ts-expect-error a cart line names its product
export const wrong = () => office.createCart({ cart_items: [{ quantity: 1 }] });
`;
const backOfficePageJs = `import { BackOfficeError, createBackOfficeClient } from 'storefront-contract-tools/back-office';
const office = createBackOfficeClient({ baseUrl: location.origin, storeId: 'demo-store' });
office.getWorld().then((world) => (document.body.textContent = JSON.stringify(world)), (e) => (document.body.textContent = e instanceof BackOfficeError ? e.message : String(e)));
`;

describe('issue 37 item 4: storefront-contract-tools/back-office from the installed tools package', () => {
  it('item 4: is exported, and type-checks in a page under the strict flags and skipLibCheck false with no Node types', async () => {
    const tools = path.join(installed.project, 'node_modules/storefront-contract-tools');
    const manifest = JSON.parse(await readFile(path.join(tools, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    expect(manifest.exports['./back-office']).toEqual({ types: './dist/workbench/back-office.d.ts', import: './dist/workbench/back-office.js' });
    const dir = path.join(installed.project, 'back-office-types');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'page.ts'), backOfficePage);
    await writeFile(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { ...STRICT, target: 'ES2022', module: 'ESNext', moduleResolution: 'bundler', noEmit: true, types: [], lib: ['ES2022', 'DOM'] }, include: ['page.ts'] }),
    );
    const tsc = await run(path.join(repoRoot, 'node_modules/.bin/tsc'), ['-p', dir], { cwd: dir });
    expect(tsc.output).toBe('');
    expect(tsc.code).toBe(0);
  }, hangGuard(240_000));

  it('item 4: a page importing it builds with vite build, not one warning, from the installed files', async () => {
    const page = await buildVitePage(path.join(installed.project, 'back-office-page'), backOfficePageJs);
    expect(page.warnings).toEqual([]);
    const fromPackage = page.modules.filter((id) => id.includes('/node_modules/storefront-contract-tools/')).map((id) => id.split('/node_modules/storefront-contract-tools/')[1]);
    expect(fromPackage).toEqual(expect.arrayContaining(['dist/workbench/sandbox/back-office-client.js', 'dist/workbench/sandbox/back-office-api.js']));
    expect(fromPackage.filter((id) => !/^dist\/workbench\/(back-office|sandbox\/back-office-(client|api))\.js$/.test(id))).toEqual([]);
    expect(page.modules.filter((id) => id.includes('browser-external') || /node_modules\/(?!storefront-contract-tools\/)/.test(id))).toEqual([]);
  }, hangGuard(120_000));
});

// ---- the example receivers the guides point to, from the installed tools package ----------------------

describe('the example receivers shipped in the tools package', () => {
  it('node.ts verifies and handles the delivery send-delivery.ts signs, against the installed library', async () => {
    const examples = path.join(installed.project, 'node_modules/storefront-contract-tools/examples/receivers');
    // tsx as the reader's `npx tsx` would run it (the test borrows this repository's copy).
    const tsx = ['--import', pathToFileURL(path.join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href];
    const env = { ...process.env, WEBHOOK_SECRET: 'whsec_packed_example', PORT: '0' };
    const receiver = spawn(process.execPath, [...tsx, path.join(examples, 'node.ts')], { cwd: installed.project, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(receiver);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        receiver.stdout!.on('data', (chunk) => {
          out += chunk;
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/webhooks)/.exec(out);
          if (m) resolve(m[1]);
        });
        receiver.stderr!.on('data', (chunk) => (out += chunk));
        receiver.once('exit', (code) => reject(new Error(`the example receiver exited with ${code}:\n${out}`)));
      });
      const sent = await run(process.execPath, [...tsx, path.join(examples, 'send-delivery.ts'), url], { cwd: installed.project, env });
      expect(sent.code, sent.output).toBe(0);
      expect(sent.stdout).toMatch(/^20\d/);
    } finally {
      receiver.kill('SIGTERM');
    }
  });
});

// ---- the bin, as a partner's CI or a front-end repo runs it -------------------------------------------

const ADMIN_TOKEN = 'packed-admin-token';

function bin(args: string[], env: NodeJS.ProcessEnv = {}) {
  return run(installed.bin, args, { cwd: installed.project, env: { ...process.env, ...env }, timeoutMs: hangGuard(120_000) });
}

/** Starts `storefront-contract mock` from the installed package; resolves with its URL. */
function startMock(dataDir: string): Promise<{ child: ChildProcess; url: string; exited: Promise<number | null> }> {
  const child = spawn(installed.bin, ['mock', '--port', '0', '--quiet', '--data-dir', dataDir, '--time-scale', '0.01'], {
    cwd: installed.project,
    // Its store key configured, as a store's keys are: a key of no store is refused (certify --generate sends one).
    env: { ...process.env, STOREFRONT_ADMIN_TOKEN: ADMIN_TOKEN, STOREFRONT_API_KEY: 'sk_packed_1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m && out.includes('webhooks')) resolve({ child, url: m[1], exited });
    });
    child.stderr!.on('data', (chunk) => (out += chunk));
    child.once('exit', (code) => reject(new Error(`mock exited with ${code} before listening:\n${out}`)));
  });
}

async function stop(mock: { child: ChildProcess; exited: Promise<number | null> }): Promise<number | null> {
  mock.child.kill('SIGTERM');
  return mock.exited;
}

async function json(url: string, init: RequestInit = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(url, init);
  return { status: res.status, body: await res.json() };
}

describe('the storefront-contract bin from the installed tools package', () => {
  it('comes from storefront-contract-tools, whose manifest names the library at its version', async () => {
    const tools = JSON.parse(await readFile(path.join(installed.project, 'node_modules/storefront-contract-tools/package.json'), 'utf8'));
    const library = JSON.parse(await readFile(path.join(installed.project, 'node_modules/storefront-contract/package.json'), 'utf8'));
    expect(tools.dependencies['storefront-contract']).toBe(library.version);
    const version = await bin(['--version']);
    expect(version.stdout.trim()).toContain(tools.version);
  });

  it.each(['mock', 'webhooks', 'certify', 'certify-webhooks', 'record', 'proxy'])('%s --help lists its flags, environment and an example', async (command) => {
    const result = await bin([command, '--help']);
    expect(result.code, result.output).toBe(0);
    expect(result.stdout).toMatch(/Usage/);
    expect(result.stdout).toMatch(/--help/);
  });

  it('serves the storefront, delivers a signed test webhook, certifies, and keeps subscriptions across a restart', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sfc-packed-data-'));
    const received: Array<{ headers: IncomingMessage['headers']; body: string }> = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    try {
      let mock = await startMock(dataDir);
      const storefront = `${mock.url}/api/v1/packed-store/storefront`;
      const admin = `${mock.url}/api/v1/packed-store/admin`;
      const auth = await json(`${storefront}/auth/anonymous`, { method: 'POST', headers: { 'x-api-key': 'sk_packed_1' } });
      expect(auth.status).toBe(200);
      const countries = await json(`${storefront}/common/countries`, { headers: { authorization: `Bearer ${auth.body.content.access_token}` } });
      expect(countries.status).toBe(200);
      expect(countries.body.success).toBe(true);
      // The documents came from the package's own cache entries (npm run build): nothing parsed, nothing written.
      expect(existsSync(path.join(installed.project, 'node_modules/.cache/storefront-contract'))).toBe(false);

      const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
      const refused = await json(`${admin}/webhooks`, { headers: { authorization: 'Bearer someone-else' } });
      expect(refused.status).toBe(401);
      const created = await json(`${admin}/webhooks`, { method: 'POST', headers: adminHeaders, body: JSON.stringify({ url: hookUrl, events: ['order.created'] }) });
      expect(created.status).toBe(201);
      const { webhook, secret } = created.body.content;
      const test = await json(`${admin}/webhooks/${webhook.id}/test`, { method: 'POST', headers: adminHeaders, body: JSON.stringify({ event: 'order.created' }) });
      expect(test.status, JSON.stringify(test.body)).toBeLessThan(300);
      for (let i = 0; i < 100 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(received).toHaveLength(1);
      const expected = `sha256=${createHmac('sha256', secret).update(received[0].body).digest('hex')}`;
      expect(received[0].headers['x-svc-signature']).toBe(expected);
      expect(JSON.parse(received[0].body)).toMatchObject({ event: 'order.created', is_test: true });

      // With the generative phase: fast-check and the spec's schemas, from the installed files.
      const certified = await bin(['certify', '--base-url', mock.url, '--store-id', 'packed-store', '--generate', '5', '--seed', '7', '--quiet', '--report-dir', path.join(dataDir, 'reports')], { STOREFRONT_API_KEY: 'sk_packed_1' });
      expect(certified.code, certified.output).toBe(0);
      expect(certified.stdout).toMatch(/CERTIFIED/);
      expect(certified.stdout).toMatch(/generated: \d+ cases in [\d.]+ s \(seed 7; again with --generate 5 --seed 7\)/);

      // The validating proxy, its judge on a worker thread started from the installed, compiled files.
      const proxy = spawn(installed.bin, ['proxy', '--upstream', mock.url, '--report-dir', path.join(dataDir, 'proxy-reports')], { cwd: installed.project, stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(proxy);
      const proxyExited = new Promise<number | null>((resolve) => proxy.once('exit', resolve));
      let proxyOut = '';
      const proxyUrl = await new Promise<string>((resolve, reject) => {
        proxy.stdout!.on('data', (chunk) => {
          proxyOut += chunk;
          const m = /^proxy: (http:\/\/127\.0\.0\.1:\d+) -> /m.exec(proxyOut);
          if (m) resolve(m[1]);
        });
        proxy.stderr!.on('data', (chunk) => (proxyOut += chunk));
        proxy.once('exit', (code) => reject(new Error(`proxy exited with ${code}:\n${proxyOut}`)));
      });
      const proxied = await json(`${proxyUrl}/api/v1/packed-store/storefront/common/countries`, { headers: { authorization: `Bearer ${auth.body.content.access_token}` } });
      expect(proxied).toEqual(countries);
      expect((await fetch(`${proxyUrl}/__proxy/stop`, { method: 'POST' })).status).toBe(202);
      expect(await proxyExited, proxyOut).toBe(0);
      expect(proxyOut).toMatch(/^NO VIOLATIONS: storefront traffic through the proxy/m);
      const drift = JSON.parse(await readFile(path.join(dataDir, 'proxy-reports', 'report.json'), 'utf8'));
      expect(drift).toMatchObject({ verdict: 'certified', exchangeSummary: { judged: 1, failed: 0 }, tool: { command: 'storefront-contract proxy' } });

      // The docs site ships in the tools package: /docs answers from the installed files.
      const docs = await fetch(`${mock.url}/docs/`);
      expect(docs.status).toBe(200);
      expect(await docs.text()).toMatch(/<html/i);
      const guide = await fetch(`${mock.url}/docs/guides/quickstart.html`);
      expect(guide.status).toBe(200);
      // So does the console's page, bundled at build time (nothing to build or start once installed).
      const consolePage = await fetch(`${mock.url}/console`);
      expect(consolePage.status).toBe(200);
      expect(await consolePage.text()).toContain('src="/console/console.js"');
      const consoleScript = await fetch(`${mock.url}/console/console.js`);
      expect([consoleScript.status, consoleScript.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);

      // `webhooks trigger` raises an event on the running workbench; the subscription gets it signed.
      const triggered = await bin(['webhooks', 'trigger', 'order.created', '--store', 'packed-store', '--url', mock.url, '--set', 'order_number=SO-PACKED']);
      expect(triggered.code, triggered.output).toBe(0);
      // Found by its content: on a loaded machine the test delivery may have been retried (its short
      // scaled time-out passed), which is the simulator keeping the contract, not a second trigger.
      const packed = () => received.find((r) => JSON.parse(r.body).payload?.properties?.order_number === 'SO-PACKED');
      for (let i = 0; i < 100 && !packed(); i++) await new Promise((r) => setTimeout(r, 50));
      expect(JSON.parse(packed()?.body ?? '{}')).toMatchObject({ event: 'order.created', is_test: false, payload: { properties: { order_number: 'SO-PACKED' } } });
      // One event raised (retries of it carry the same X-SVC-Event-ID).
      expect(new Set(received.filter((r) => JSON.parse(r.body).payload?.properties?.order_number === 'SO-PACKED').map((r) => r.headers['x-svc-event-id'])).size).toBe(1);

      // certify-webhooks: the workbench's simulator as a sender, through its Admin API.
      const sender = await bin(['certify-webhooks', 'sender', '--admin-url', mock.url, '--store', 'packed-store', '--time-scale', '0.01', '--report-dir', path.join(dataDir, 'webhook-reports')], { STOREFRONT_ADMIN_TOKEN: ADMIN_TOKEN });
      expect(sender.code, sender.output).toBe(0);
      expect(sender.stdout).toMatch(/CERTIFIED/);

      expect(await stop(mock)).toBe(0);
      mock = await startMock(dataDir);
      const again = await json(`${mock.url}/api/v1/packed-store/admin/webhooks/${webhook.id}`, { headers: adminHeaders });
      expect(again.status).toBe(200);
      expect(again.body.content.webhook).toMatchObject({ id: webhook.id, url: hookUrl });
      expect(await stop(mock)).toBe(0);
    } finally {
      receiver.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, hangGuard(240_000));
});

// ---- issue 37 item 7: what the shipped READMEs and guides point to is in the packages --------------------

describe('issue 41: storefront-contract mcp from the installed tools package', () => {
  it('serves the agent tools over stdio from the tarballs: lists them, reads an operation, calls the sandbox it started', async () => {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const client = new Client({ name: 'installed-test', version: '1.0.0' });
    const transport = new StdioClientTransport({ command: installed.bin, args: ['mcp'], cwd: installed.project, env: process.env as Record<string, string>, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (c) => (stderr += c));
    await client.connect(transport);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      // The installed package has no repository: no diff, no lint.
      expect(names).toEqual(expect.arrayContaining(['contract_operation', 'sandbox_call', 'workbench_call', 'certify']));
      expect(names).not.toContain('contract_diff');
      const card = await client.callTool({ name: 'contract_operation', arguments: { operation_id: 'listProducts' } });
      expect(card.structuredContent).toMatchObject({ method: 'GET', path: '/api/v1/{store_id}/storefront/catalog/products' });
      const answer = await client.callTool({ name: 'sandbox_call', arguments: { operation_id: 'listCountries', store_id: 'installed' } });
      expect(answer.structuredContent).toMatchObject({ status: 200, signed_in: expect.stringMatching(/^an anonymous user's access token \(user usr_\w+\)$/) });
      expect(stderr).toMatch(/its workbench listens on http:\/\/127\.0\.0\.1:\d+/);
    } finally {
      await client.close();
    }
  }, 120_000);
});

describe('issue 37 item 7: the shipped READMEs and guides point only to files inside the packages', () => {
  const packageDirs = () => ({
    library: path.join(installed.project, 'node_modules/storefront-contract'),
    tools: path.join(installed.project, 'node_modules/storefront-contract-tools'),
  });

  it('item 7: the tools package ships the guides as Markdown, and every relative link of each package\'s Markdown resolves inside its tarball', async () => {
    const { library, tools } = packageDirs();
    const guides = (await markdownFiles(tools)).filter((f) => f.startsWith(`docs${path.sep}guides${path.sep}`));
    const committed = (await readdir(path.join(repoRoot, 'docs/guides'))).filter((f) => f.endsWith('.md'));
    expect(guides.map((f) => path.basename(f)).sort()).toEqual(committed.sort());
    const broken: string[] = [];
    for (const dir of [library, tools]) {
      for (const file of await markdownFiles(dir)) for (const href of await brokenLinks(dir, file)) broken.push(`${path.basename(dir)}/${file}: ${href}`);
    }
    expect(broken).toEqual([]);
  });

  it('issue 41: the tools package ships the agent skill (skills/storefront-contract/SKILL.md) and its docs site the llms.txt files that point at it', async () => {
    const { tools } = packageDirs();
    expect(await markdownFiles(tools)).toContain(path.join('skills', 'storefront-contract', 'SKILL.md'));
    const skill = await readFile(path.join(tools, 'skills/storefront-contract/SKILL.md'), 'utf8');
    expect(skill).toBe(await readFile(path.join(repoRoot, 'packages/storefront-contract-tools/skills/storefront-contract/SKILL.md'), 'utf8'));
    expect(skill.startsWith('---\nname: storefront-contract\n')).toBe(true);
    for (const file of ['llms.txt', 'llms-full.txt']) expect(existsSync(path.join(tools, 'docs/site', file)), `docs/site/${file}`).toBe(true);
    expect(await readFile(path.join(tools, 'docs/site/llms.txt'), 'utf8')).toContain('`node_modules/storefront-contract-tools/skills/storefront-contract/SKILL.md`');
  });

  it('item 7: the package READMEs and the front-end guides cite no repository-only file (tests, sources) as a worked example', async () => {
    const { library, tools } = packageDirs();
    const modules = path.join(installed.project, 'node_modules');
    const cited: string[] = [];
    const read: Array<[string, string]> = [
      [library, 'README.md'],
      [tools, 'README.md'],
      [tools, 'docs/guides/browser-apps.md'],
      [tools, 'docs/guides/testing-with-the-sandbox.md'],
    ];
    for (const [dir, file] of read) for (const span of await unshippedCitations(dir, file, modules)) cited.push(`${path.basename(dir)}/${file}: ${span}`);
    expect(cited).toEqual([]);
  });

  it("item 7: the testing guide's sizes of the browser build are the shipped file's, measured (within 3 %)", async () => {
    const { tools } = packageDirs();
    const guide = await readFile(path.join(tools, 'docs/guides/testing-with-the-sandbox.md'), 'utf8');
    const stated = /about (\d+) kB minified, (\d+) kB gzipped/.exec(guide.replace(/\s+/g, ' '));
    expect(stated, 'the guide states the browser build\'s size as "about N kB minified, M kB gzipped"').not.toBeNull();
    const bytes = await readFile(path.join(tools, 'dist/msw/browser.js'));
    const measured = { minified: bytes.length / 1000, gzipped: gzipSync(bytes).length / 1000 };
    const figures = `measured ${measured.minified.toFixed(1)} kB minified, ${measured.gzipped.toFixed(1)} kB gzipped`;
    console.log(`item 7: dist/msw/browser.js ${figures}; the guide says ${stated![1]} and ${stated![2]}`);
    expect(Math.abs(Number(stated![1]) - measured.minified) / measured.minified, `${figures}: update docs/guides/testing-with-the-sandbox.md`).toBeLessThanOrEqual(0.03);
    expect(Math.abs(Number(stated![2]) - measured.gzipped) / measured.gzipped, `${figures}: update docs/guides/testing-with-the-sandbox.md`).toBeLessThanOrEqual(0.03);
  });
});
