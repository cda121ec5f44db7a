// The certify action's own install (../../.github/actions/lib/tools.sh, run by the harness as a runner
// runs it, nothing replaced) with the two packages as they are published: `npm run build` + `npm pack`
// (test/package/packed.ts). Once from a version on a registry (registry.ts: a registry on loopback that
// has both packages "published"), once from the two tarballs attached to the job with a registry that
// knows neither. Both install and certify the sandbox with the installed CLI. The tree installed is the
// tools' npm-shrinkwrap.json, the same in both, and nothing it pins is looked up on the registry (its
// tarballs come from npm's cache by integrity, as on a runner after the first job).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { sandboxApiKey, type Workbench } from '../../workbench/index.js';
import { packTarballs, type PackedTarballs } from '../package/packed.js';
import { startSandbox } from '../sandbox/helpers.js';
import { runAction, type ActionRun } from './harness.js';
import { startRegistry, type Registry } from './registry.js';
import { hangGuard } from '../helpers/hang-guard.js';

const CERTIFY = path.join(repoRoot, '.github/actions/certify/action.yml');
const MERGE = path.join(repoRoot, '.github/actions/certify-merge/action.yml');
const toolsVersion = JSON.parse(readFileSync(path.join(repoRoot, 'packages/storefront-contract-tools/package.json'), 'utf8')).version as string;

let wb: Workbench;
let tarballs: PackedTarballs;
let published: Registry;
let bare: Registry;
let root: string;
let shrinkwrap: { packages: Record<string, { version: string; optional?: boolean; os?: string[]; cpu?: string[] }> };
const runs: Record<'registry' | 'tarballs', { run: ActionRun; cache: Record<string, string> }> = {} as never;
/** The packages each install looked up on its registry. */
let looked: Record<'registry' | 'tarballs', string[]>;
let bareRequests: Registry['requests'];

beforeAll(async () => {
  [tarballs, wb] = await Promise.all([packTarballs(), startSandbox({ webhooks: false, preloadPrism: true })]);
  [published, bare] = await Promise.all([startRegistry([tarballs.library, tarballs.tools]), startRegistry([])]);
  shrinkwrap = JSON.parse(execFileSync('tar', ['-xzOf', tarballs.tools, 'package/npm-shrinkwrap.json'], { encoding: 'utf8' }));
  root = path.join(repoRoot, 'test-artifacts', `published-install-${process.pid}`);
  mkdirSync(root, { recursive: true });

  const job = async (mode: 'registry' | 'tarballs', registry: Registry, inputs: Record<string, string>) => {
    const cwd = path.join(root, mode);
    mkdirSync(cwd, { recursive: true });
    if (mode === 'tarballs') for (const t of [tarballs.library, tarballs.tools]) cpSync(t, path.join(cwd, 'release', path.basename(t)));
    let cache: Record<string, string> = {};
    const run = await runAction(CERTIFY, {
      inputs: { 'base-url': wb.url, 'store-id': 'demo-store', args: '--only listCountries', ...inputs },
      // The registry npm is configured for, as actions/setup-node's registry-url or an .npmrc sets it.
      env: { STOREFRONT_API_KEY: sandboxApiKey('demo-store'), npm_config_registry: registry.url },
      workspace: cwd,
      uses: { 'actions/cache@': (i) => void (cache = i), 'actions/upload-artifact@': () => undefined },
      stepTimeoutMs: 300_000,
    });
    runs[mode] = { run, cache };
  };
  // One after the other: two installs at once share npm's cache lock and gain nothing on two cores.
  await job('registry', published, { version: toolsVersion });
  await job('tarballs', bare, { tarballs: 'release/storefront-contract-*.tgz' });
  looked = { registry: published.looked(), tarballs: bare.looked() };
  bareRequests = [...bare.requests];
}, hangGuard(1_200_000));

afterAll(async () => {
  await Promise.all([wb?.close(), published?.close(), bare?.close()]);
  if (root) rmSync(root, { recursive: true, force: true });
});

const step = (run: ActionRun, id: string) => run.steps.find((s) => s.id === id || s.label === id)!;

/** What is installed under the tools package: `node_modules/<name>` (as the shrinkwrap keys it) -> version. */
function installedTree(packageDir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(shrinkwrap.packages)) {
    if (!key) continue;
    const manifest = path.join(packageDir, key, 'package.json');
    if (existsSync(manifest)) out[key] = JSON.parse(readFileSync(manifest, 'utf8')).version;
  }
  return out;
}

/** The shrinkwrap's entries for this machine: every required one, and the optional ones whose os/cpu fit. */
function expectedTree(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(shrinkwrap.packages)
      .filter(([key, e]) => key && (!e.optional || ((!e.os || e.os.includes(os.platform())) && (!e.cpu || e.cpu.includes(os.arch())))))
      .map(([key, e]) => [key, e.version]),
  );
}

describe('issue 37 item 8: the certify action installs the tools it is given', () => {
  it('item 8: from a published version (a registry on loopback holding both packages): installs, certifies with the installed bin', () => {
    const { run } = runs.registry;
    expect(step(run, 'install').code, step(run, 'install').output).toBe(0);
    expect(run.actionOutputs['exit-code'], step(run, 'certify').output).toBe('0');
    expect(run.summary).toContain('### ✅ storefront contract: passed');
    const packageDir = run.outputs.install['package-dir'];
    expect(JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')).version).toBe(toolsVersion);
    // Looked up: the tools' version, nothing else; both tarballs fetched from the registry (the library's as the shrinkwrap pins it).
    expect(looked.registry).toEqual(['storefront-contract-tools']);
    expect(published.requests.filter((r) => r.path.includes('/-/')).map((r) => [r.path.replace(/\/-\/.*/, ''), r.status])).toEqual([['storefront-contract-tools', 200], ['storefront-contract', 200]]);
    expect(run.outputs.install.bin).toBe(path.join(packageDir, 'dist/cli/storefront-contract.js'));
  });

  it('item 8: from the two tarballs attached to the job, with a registry that has neither package: the library resolves to its tarball', () => {
    const { run } = runs.tarballs;
    expect(step(run, 'install').code, step(run, 'install').output).toBe(0);
    expect(run.actionOutputs['exit-code'], step(run, 'certify').output).toBe('0');
    // Nothing asked of the registry: the tools and the library from their tarballs, the rest from the pinned tree (npm's cache).
    expect(bareRequests).toEqual([]);
    const library = path.join(run.outputs.install['package-dir'], 'node_modules/storefront-contract');
    expect(JSON.parse(readFileSync(path.join(library, 'package.json'), 'utf8')).version).toBe(toolsVersion);
  });

  it('item 8: without both tarballs, or with a version the registry lacks: one line that says what to give, exit 2', async () => {
    const cwd = path.join(root, 'bad');
    mkdirSync(path.join(cwd, 'release'), { recursive: true });
    cpSync(tarballs.tools, path.join(cwd, 'release', path.basename(tarballs.tools)));
    const plan = async (inputs: Record<string, string>) =>
      runAction(CERTIFY, { inputs: { 'base-url': wb.url, ...inputs }, env: { STOREFRONT_API_KEY: 'k', npm_config_registry: bare.url }, workspace: cwd, uses: {}, stepTimeoutMs: 120_000 });
    const onlyTools = await plan({ tarballs: 'release/*.tgz' });
    expect(step(onlyTools, 'plan').output).toMatch(/^::error title=Storefront contract::tarballs: give exactly one storefront-contract-tools-<version>\.tgz and one storefront-contract-<version>\.tgz \(given: release\/storefront-contract-tools-.*\.tgz\): the tools need the library beside them$/m);
    expect(step(onlyTools, 'install').skipped).toBe(true);
    expect(step(onlyTools, 'Verdict').code).toBe(2);
    const unpublished = await plan({ version: toolsVersion });
    expect(step(unpublished, 'install').code).toBe(2);
    expect(step(unpublished, 'install').output).toContain(`::error title=Storefront contract::npm pack storefront-contract-tools@${toolsVersion} failed (above): is the version published on ${bare.url}?`);
  });
});

describe('issue 37 item 12: one pinned tree per release, and a cache', () => {
  it('item 12: the tools ship an npm-shrinkwrap.json; both installs are exactly its tree, none of it looked up on the registry', () => {
    const expected = expectedTree();
    expect(Object.keys(expected).length).toBeGreaterThan(100);
    for (const mode of ['registry', 'tarballs'] as const) {
      expect(installedTree(runs[mode].run.outputs.install['package-dir']), mode).toEqual(expected);
    }
    // The library is in it, pinned by version; the tools' own version is the only look-up (item 8 above).
    expect(shrinkwrap.packages['node_modules/storefront-contract']).toMatchObject({ version: toolsVersion });
    expect(looked).toEqual({ registry: ['storefront-contract-tools'], tarballs: [] });
  });

  it("item 12: npm's cache is kept by actions/cache, keyed by the version or the tarballs' digest", () => {
    const npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
    expect(runs.registry.cache).toEqual({ path: npmCache, key: `storefront-contract-tools-Linux-${toolsVersion}` });
    expect(runs.tarballs.cache.path).toBe(npmCache);
    expect(runs.tarballs.cache.key).toMatch(/^storefront-contract-tools-Linux-tarballs-[0-9a-f]{16}$/);
    // The merge action installs the same way (one script for both).
    expect(readFileSync(MERGE, 'utf8')).toContain('bash "$GITHUB_ACTION_PATH/../lib/tools.sh" install');
  });
});
