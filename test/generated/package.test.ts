// The package as another project gets it: `npm pack`, installed into an empty project, imported
// from plain Node (the client, the validators, the webhook kit) and type-checked by tsc.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/contract/spec-files.js';
import { run } from '../helpers/run.js';

const consumerSource = `
import { createStorefrontClient, ContractViolationError, StorefrontApiError, type WebhookEvent, type StorefrontPaths } from 'storefront-contract';
import { validateResponse, validateWebhookDelivery } from 'storefront-contract/validators';
import { verifySignature, signPayload } from 'storefront-contract/webhooks';

const client = createStorefrontClient({ baseUrl: 'http://127.0.0.1:9', storeId: 'demo-store', accessToken: 't' });
type ListProducts = StorefrontPaths['/catalog/products']['get'];
const limit: NonNullable<ListProducts['parameters']['query']>['limit'] = 10;

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
const violation = await strict.GET('/common/countries').then(() => null, (error: unknown) => (error instanceof ContractViolationError ? error.issues[0].path : String(error)));
console.log(JSON.stringify({
  client: typeof client.GET,
  limit,
  verdict: verdict.ok,
  countries: countries.valid,
  bad: bad.valid,
  badPath: bad.valid ? null : bad.errors[0].path,
  webhook: webhook.valid,
  describe: typeof describeEvent,
  apiError: new StorefrontApiError(401, 'listProducts', { success: false, message: 'no token' }).message,
  lazyValidated: lazy.data?.content.countries.length,
  violation,
}));
`;

describe('the packed package in an empty project', () => {
  let work: string;
  let project: string;
  let tarball: string;

  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'sfc-pack-'));
    project = path.join(work, 'consumer');
    const packed = await run('npm', ['pack', '--pack-destination', work, '--silent'], { cwd: repoRoot, timeoutMs: 180_000 });
    expect(packed.code, packed.output).toBe(0);
    tarball = path.join(work, (await readdir(work)).find((f) => f.endsWith('.tgz'))!);
    await run('mkdir', ['-p', project]);
    await writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    const installed = await run('npm', ['install', tarball, '@types/node@20.19.8', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts'], { cwd: project, timeoutMs: 180_000 });
    expect(installed.code, installed.output).toBe(0);
    await writeFile(path.join(project, 'consumer.ts'), consumerSource);
    await writeFile(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, outDir: 'out', types: ['node'] }, include: ['consumer.ts'] }),
    );
  }, 300_000);
  afterAll(async () => work && rm(work, { recursive: true, force: true }));

  it('type-checks and compiles a consumer importing the root, validators and webhooks', async () => {
    const tsc = await run(path.join(repoRoot, 'node_modules/.bin/tsc'), ['-p', project], { cwd: project });
    expect(tsc.output).toBe('');
    expect(tsc.code).toBe(0);
  });

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
      apiError: 'no token',
      lazyValidated: 0,
      violation: '/success',
    });
  });

  it('rejects a type error in the consumer', async () => {
    await writeFile(path.join(project, 'consumer.ts'), `${consumerSource}\nconst wrong: NonNullable<ListProducts['parameters']['query']>['limit'] = 'ten';\n`);
    const tsc = await run(path.join(repoRoot, 'node_modules/.bin/tsc'), ['-p', project, '--noEmit'], { cwd: project });
    expect(tsc.code).not.toBe(0);
    expect(tsc.output).toMatch(/consumer\.ts.*TS2322/);
  });
});
