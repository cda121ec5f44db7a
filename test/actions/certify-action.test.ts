// The certify and certify-merge Actions (.github/actions/), their steps run as a runner would run them
// (harness.ts) against the sandbox in process: the install of the published tools replaced by a shim of
// this repository's CLI on PATH, upload/download-artifact stood in for by copying files (their inputs
// checked). A whole strict run that fails, a two-shard matrix and its merge job that certify, a merge
// with a shard missing, a job without the API key; and the matrix example naming the actions' inputs.
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { repoRoot } from '../../scripts/lib/repo.js';
import { sandboxApiKey, type Workbench } from '../../workbench/index.js';
import { startSandbox } from '../sandbox/helpers.js';
import { readAction, runAction, type ActionRun } from './harness.js';
import { hangGuard } from '../helpers/hang-guard.js';

const CERTIFY = path.join(repoRoot, '.github/actions/certify/action.yml');
const MERGE = path.join(repoRoot, '.github/actions/certify-merge/action.yml');
const MATRIX = path.join(repoRoot, 'docs/ci/certify-matrix.yml');
const toolsManifest = JSON.parse(readFileSync(path.join(repoRoot, 'packages/storefront-contract-tools/package.json'), 'utf8'));
const toolsVersion = toolsManifest.version as string;
const engines = toolsManifest.engines.node as string;

let wb: Workbench;
let root: string;
let shimDir: string;
let artifacts: string;
let jobs = 0;

beforeAll(async () => {
  wb = await startSandbox({ webhooks: false, preloadPrism: true });
  // Inside the repository, as guides-run does: `--import tsx` and the packages resolve from there.
  root = path.join(repoRoot, 'test-artifacts', `actions-${process.pid}`);
  mkdirSync(root, { recursive: true });
  shimDir = mkdtempSync(path.join(os.tmpdir(), 'sfc-action-bin-'));
  // A script the action runs with the Node it chose ("$SFC_NODE" "$SFC_BIN"), as the installed CLI: it runs the sources with that Node.
  writeFileSync(
    path.join(shimDir, 'storefront-contract.mjs'),
    `import { spawnSync } from 'node:child_process';\nconst r = spawnSync(process.execPath, ['--conditions=sfc-source', '--import', 'tsx', ${JSON.stringify(path.join(repoRoot, 'cli/storefront-contract.ts'))}, ...process.argv.slice(2)], { stdio: 'inherit' });\nprocess.exit(r.status ?? 1);\n`,
  );
  artifacts = path.join(root, 'artifacts');
}, hangGuard(30_000));
afterAll(async () => {
  await wb?.close();
  rmSync(root, { recursive: true, force: true });
  if (shimDir) rmSync(shimDir, { recursive: true, force: true });
});

/** A fresh workspace per job, as each job of a matrix has. */
function workspace(): string {
  const dir = path.join(root, `job-${++jobs}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * The install step installs the published package (../lib/tools.sh install, run for real by
 * published-install.test.ts); here the repository's CLI stands in for the installed bin.
 */
function shimInstall(original: string): string {
  expect(original).toBe('bash "$GITHUB_ACTION_PATH/../lib/tools.sh" install');
  return `echo "bin=${shimDir}/storefront-contract.mjs" >> "$GITHUB_OUTPUT"; echo "package-dir=${path.join(repoRoot, 'packages/storefront-contract-tools')}" >> "$GITHUB_OUTPUT"`;
}

/**
 * upload-artifact, stood in for: the files its `path` lines name (globs in the last segment) kept under
 * the artifact's name. As the service does, a second upload of a name in the same run fails with 409
 * unless `overwrite: true`.
 */
/** Where the artifacts of one workflow run are kept (by its run number: a matrix and its merge job share one). */
const runArtifacts = (runNumber: string) => path.join(artifacts, `run-${runNumber}`);

function upload(cwd: string, runNumber: string) {
  return (inputs: Record<string, string>) => {
    expect(inputs.name).toMatch(/^[\w.-]+$/);
    const store = path.join(runArtifacts(runNumber), inputs.name);
    if (existsSync(store)) {
      if (inputs.overwrite !== 'true') throw new Error(`Failed to CreateArtifact: (409) Conflict: an artifact with this name already exists on the workflow run: ${inputs.name}`);
      rmSync(store, { recursive: true, force: true });
    }
    mkdirSync(store, { recursive: true });
    for (const line of inputs.path.split('\n').map((l) => l.trim()).filter(Boolean)) {
      const dir = path.resolve(cwd, path.dirname(line));
      const pattern = new RegExp(`^${path.basename(line).replace(/[.]/g, '\\.').replace(/\*/g, '.*')}$`);
      if (!existsSync(dir)) continue;
      for (const f of readdirSync(dir).filter((n) => pattern.test(n))) cpSync(path.join(dir, f), path.join(store, f));
    }
  };
}

/** download-artifact with a pattern, stood in for: each matching artifact into its own folder under `path`. */
const download = (runNumber: string) => (inputs: Record<string, string>) => {
  const pattern = new RegExp(`^${inputs.pattern.replace(/\*/g, '.*')}$`);
  const from = runArtifacts(runNumber);
  for (const name of readdirSync(from).filter((n) => pattern.test(n))) cpSync(path.join(from, name), path.join(inputs.path, name), { recursive: true });
};

const env = () => ({ STOREFRONT_API_KEY: sandboxApiKey('demo-store') });

function certifyJob(inputs: Record<string, string>, options: { env?: Record<string, string>; runNumber?: string; action?: string } = {}) {
  const cwd = workspace();
  return runAction(options.action ?? CERTIFY, {
    inputs: { 'base-url': wb.url, 'store-id': 'demo-store', ...inputs },
    env: options.env ?? env(),
    workspace: cwd,
    github: { run_number: options.runNumber ?? '1' },
    replace: { install: shimInstall },
    uses: { 'actions/upload-artifact@': upload(cwd, options.runNumber ?? '1') },
  }).then((run) => ({ run, cwd }));
}

/** The merge job of the matrix of run 77. */
function mergeJob(pattern: string) {
  const cwd = workspace();
  return runAction(MERGE, {
    inputs: { pattern },
    workspace: cwd,
    github: { run_number: '77' },
    replace: { install: shimInstall },
    uses: { 'actions/download-artifact@': download('77'), 'actions/upload-artifact@': upload(cwd, '77') },
  }).then((run) => ({ run, cwd }));
}

const step = (run: ActionRun, label: string) => run.steps.find((s) => s.label === label || s.id === label || s.uses?.startsWith(label))!;

describe('the certify Action, its steps run against the sandbox', () => {
  let strict: { run: ActionRun; cwd: string };
  let shards: Array<{ run: ActionRun; cwd: string }>;
  let merged: { run: ActionRun; cwd: string };
  let incomplete: { run: ActionRun; cwd: string };

  beforeAll(async () => {
    // A whole run (strict: the sandbox's structural-drift advice fails it) beside the two jobs of a matrix.
    [strict, ...shards] = await Promise.all([
      certifyJob({ strict: 'true', args: '--only listProducts,getVariant' }),
      certifyJob({ shard: '1/2', generate: '1', args: '--only listCountries,listProducts' }, { runNumber: '77' }),
      certifyJob({ shard: '2/2', generate: '1', args: '--only listCountries,listProducts' }, { runNumber: '77' }),
    ]);
    [merged, incomplete] = await Promise.all([mergeJob('certify-shard-*'), mergeJob('certify-shard-1-*')]);
  }, hangGuard(60_000));

  it('a whole run: the verdict (exit 1 when not certified), the summary, the reports uploaded', () => {
    const { run, cwd } = strict;
    expect(step(run, 'certify').code, step(run, 'certify').output).toBe(0);
    expect(run.actionOutputs['exit-code']).toBe('1');
    expect(step(run, 'Verdict').code).toBe(1);
    expect(run.failed).toBe(true);
    expect(step(run, 'certify').output).toMatch(/^::error title=Storefront contract::NOT CERTIFIED \(strict\): /m);
    expect(run.summary).toMatch(/^### ❌ storefront contract: failed\n\nTarget: `http:\/\/127\.0\.0\.1:\d+`\n\n```text\nNOT CERTIFIED \(strict\): /);
    expect(run.summary).toContain('coverage: ');
    for (const f of ['report.json', 'junit.xml', 'report.html']) expect(existsSync(path.join(cwd, '.reports/certify', f)), f).toBe(true);
    const uploaded = step(run, 'actions/upload-artifact@');
    expect(uploaded.with).toMatchObject({ name: 'certify-report', 'if-no-files-found': 'warn' });
    expect(uploaded.with!.path).toContain('.reports/certify/junit.xml\n.reports/certify/report.html');
    expect(readdirSync(path.join(runArtifacts('1'), 'certify-report')).sort()).toEqual(['junit.xml', 'report.html', 'report.json']);
    expect(JSON.stringify(run)).not.toContain(sandboxApiKey('demo-store'));
  });

  it('a matrix of two shards: each passes its part and uploads its shard report; the seed is the run number', () => {
    for (const [i, { run, cwd }] of shards.entries()) {
      expect(run.actionOutputs['exit-code'], step(run, 'certify').output).toBe('0');
      expect(run.failed).toBe(false);
      expect(run.summary).toContain(`### ✅ storefront contract, shard ${i + 1}/2: part passed (the certify-merge job gives the verdict of the run)`);
      expect(run.summary).toContain(`SHARD ${i + 1}/2 PASSED`);
      expect(run.actionOutputs['artifact-name']).toBe(`certify-shard-${i + 1}-of-2`);
      const report = JSON.parse(readFileSync(path.join(cwd, '.reports/certify', `shard-${i + 1}-of-2.json`), 'utf8'));
      expect(report.settings).toMatchObject({ generate: 1, seed: 77, only: 'listCountries,listProducts' });
      expect(readdirSync(path.join(runArtifacts('77'), `certify-shard-${i + 1}-of-2`)).sort()).toEqual(['junit.xml', 'report.html', `shard-${i + 1}-of-2.json`]);
    }
  });

  it('the merge job: one certificate of the whole run, its summary and reports', () => {
    const { run, cwd } = merged;
    expect(step(run, 'actions/download-artifact@').with).toMatchObject({ pattern: 'certify-shard-*' });
    expect(run.actionOutputs['exit-code'], step(run, 'merge').output).toBe('0');
    expect(run.failed).toBe(false);
    expect(run.summary).toMatch(/^### ✅ storefront contract: certified \(merged shards\)\n\n```text\nCERTIFIED: /);
    const cert = JSON.parse(readFileSync(path.join(cwd, '.reports/certify/report.json'), 'utf8'));
    expect(cert).toMatchObject({ verdict: 'certified', settings: { generate: 1, seed: 77, only: 'listCountries,listProducts' }, });
    expect(cert.notes).toEqual(['merged from 2 shards (certify --shard i/2, then certify merge)', expect.stringMatching(/^A merge checks that the shard reports are the parts of one run .*certify merge --expect-digest checks them\)\.$/)]);
    expect(cert.exchangeSummary.exchanges).toBe(shards.reduce((n, s) => n + JSON.parse(readFileSync(path.join(s.cwd, '.reports/certify', readdirSync(path.join(s.cwd, '.reports/certify')).find((f) => f.startsWith('shard-'))!), 'utf8')).exchanges.length, 0));
    expect(step(run, 'actions/upload-artifact@').with!.name).toBe('certify-report');
  });

  it('the merge job with a shard missing: could not merge, one error line, exit 2', () => {
    const { run } = incomplete;
    expect(run.actionOutputs['exit-code']).toBe('2');
    expect(step(run, 'Verdict').code).toBe(2);
    expect(step(run, 'merge').output).toContain('::error title=Storefront contract::certify merge: shard 2/2 is missing (given: 1): pass the report of every shard of the run');
    expect(run.summary).toContain('### ⚠️ storefront contract: the shards could not be merged (exit 2)');
  });

  it('a job without STOREFRONT_API_KEY in its environment: could not run, exit 2, nothing sent', async () => {
    const { run } = await certifyJob({}, { env: {} });
    expect(run.actionOutputs['exit-code']).toBe('2');
    expect(step(run, 'Verdict').code).toBe(2);
    expect(step(run, 'certify').output).toContain('::error title=Storefront contract::STOREFRONT_API_KEY is not set');
    expect(run.summary).toContain('### ⚠️ storefront contract: could not run (exit 2)');
  });
});

describe('the Actions and the matrix example, as files', () => {
  it('take no secret as an input, and install the tools version of this repository by default', () => {
    for (const file of [CERTIFY, MERGE]) {
      const action = readAction(file);
      expect(Object.keys(action.inputs).filter((k) => /key|secret|token|password/i.test(k)), file).toEqual([]);
      expect(action.inputs.version.default, file).toBe(toolsVersion);
      // The install is one script for both (../lib/tools.sh): plan, cache, install, node.
      const ids = action.runs.steps.map((s) => s.id ?? s.uses?.replace(/@.*/, ''));
      expect(ids.slice(0, 4), file).toEqual(['plan', 'actions/cache', 'install', 'node']);
      expect(action.runs.using).toBe('composite');
      // Inputs reach scripts through env:, never spliced into the script text (no injection through an input).
      for (const s of action.runs.steps) if (s.run) expect(s.run, `${file} ${s.name}`).not.toContain('${{');
    }
  });

  it('the matrix example uses both actions with their real inputs, one job per shard, the key from the job environment', () => {
    const workflow = YAML.parse(readFileSync(MATRIX, 'utf8'));
    const certifyInputs = Object.keys(readAction(CERTIFY).inputs);
    const mergeInputs = Object.keys(readAction(MERGE).inputs);
    const job = workflow.jobs.certify;
    const shardsOf = job.strategy.matrix.shard as string[];
    expect(shardsOf).toEqual(shardsOf.map((_, i) => `${i + 1}/${shardsOf.length}`));
    expect(job.env.STOREFRONT_API_KEY).toBe('${{ secrets.STOREFRONT_API_KEY }}');
    const certifyStep = job.steps.find((s: { uses?: string }) => s.uses?.includes('/.github/actions/certify@'));
    expect(certifyStep.uses).toBe(`your-org/storefront-contract/.github/actions/certify@v${toolsVersion}`);
    expect(Object.keys(certifyStep.with).filter((k) => !certifyInputs.includes(k))).toEqual([]);
    expect(certifyStep.with.shard).toBe('${{ matrix.shard }}');
    const merge = workflow.jobs.merge;
    expect(merge.needs).toBe('certify');
    const mergeStep = merge.steps.find((s: { uses?: string }) => s.uses?.includes('/.github/actions/certify-merge@'));
    expect(Object.keys(mergeStep.with ?? {}).filter((k) => !mergeInputs.includes(k))).toEqual([]);
    // An example to copy, not a workflow of this repository.
    expect(existsSync(path.join(repoRoot, '.github/workflows', path.basename(MATRIX)))).toBe(false);
  });
});

describe('issue 37: the certify Action re-run, given quoted flags, and the Node it runs on', () => {
  it('item 11: a re-run of a shard uploads its artifact again (overwrite); without overwrite the service answers 409', async () => {
    const inputs = { shard: '1/3', args: '--only listCountries', 'artifact-name': 'certify-rerun-1-of-3' };
    const first = await certifyJob(inputs);
    const again = await certifyJob(inputs);
    for (const { run } of [first, again]) {
      expect(run.actionOutputs['exit-code'], step(run, 'certify').output).toBe('0');
      expect(step(run, 'actions/upload-artifact@').code, step(run, 'actions/upload-artifact@').output).toBeUndefined();
      expect(run.failed).toBe(false);
    }
    expect(readdirSync(path.join(runArtifacts('1'), 'certify-rerun-1-of-3'))).toContain('shard-1-of-3.json');
    // The same action without `overwrite: true` (a copy beside the real shared script): the re-run's upload fails.
    const copy = mkdtempSync(path.join(os.tmpdir(), 'sfc-action-copy-'));
    try {
      mkdirSync(path.join(copy, 'certify'));
      cpSync(path.join(repoRoot, '.github/actions/lib'), path.join(copy, 'lib'), { recursive: true });
      const action = YAML.parse(readFileSync(CERTIFY, 'utf8'));
      for (const s of action.runs.steps) if (s.uses?.startsWith('actions/upload-artifact@')) delete s.with.overwrite;
      writeFileSync(path.join(copy, 'certify/action.yml'), YAML.stringify(action));
      // No key: the certify step stops at once; the upload runs whatever happened (if: always()).
      const { run } = await certifyJob(inputs, { action: path.join(copy, 'certify/action.yml'), env: {} });
      expect(step(run, 'actions/upload-artifact@').output).toContain('(409) Conflict');
      expect(run.failed).toBe(true);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('item 13: args are split as a shell splits words: quotes group, nothing is expanded or run', async () => {
    const marker = path.join(root, 'args-ran');
    const { run, cwd } = await certifyJob({ args: `--only "listProducts,listCountries" --input 'cart_id=$(touch ${marker})' --input "cart_id=\`touch ${marker}\`"` });
    expect(run.actionOutputs['exit-code'], step(run, 'certify').output).toBe('0');
    const report = JSON.parse(readFileSync(path.join(cwd, '.reports/certify/report.json'), 'utf8'));
    expect(report.settings.only).toBe('listProducts,listCountries');
    expect(existsSync(marker)).toBe(false);
    // It ran on the runner's node, and left the job's PATH as it was.
    expect(run.path).toEqual([]);
    const runnerNode = execFileSync('bash', ['-c', 'command -v node'], { encoding: 'utf8' }).trim();
    expect(run.outputs.node).toEqual({ node: runnerNode, version: execFileSync(runnerNode, ['--version'], { encoding: 'utf8' }).trim().slice(1) });
    // An unbalanced quote: could not run, one line naming the input and the fix, nothing sent.
    const bad = (await certifyJob({ args: '--only "listProducts,listCountries' })).run;
    expect(bad.actionOutputs['exit-code']).toBe('2');
    expect(step(bad, 'Verdict').code).toBe(2);
    const errors = step(bad, 'certify').output!.split('\n').filter((l) => l.startsWith('::error'));
    expect(errors).toEqual([expect.stringMatching(/^::error title=Storefront contract::args: unmatched double quote.* in: --only "listProducts,listCountries \(quote each value whole/)]);
  });

  it("item 13: the job's Node is not changed: no setup-node, nothing added to PATH; node-version picks a Node for the tools alone", async () => {
    for (const file of [CERTIFY, MERGE]) expect(readAction(file).runs.steps.filter((s) => s.uses?.startsWith('actions/setup-node@')), file).toEqual([]);
    // Default (node-version empty): the runner's node; the args test above shows it.
    // node-version 22 on a runner whose node is not 22: the tool cache's Node 22 runs the tools (a wrapper that notes each use).
    const cache = mkdtempSync(path.join(os.tmpdir(), 'sfc-toolcache-'));
    const fakeNode = (version: string) => {
      const bin = path.join(cache, 'node', version, 'x64', 'bin');
      mkdirSync(bin, { recursive: true });
      const script = `#!/bin/sh\nif [ "$1" = "--version" ]; then echo v${version}; exit 0; fi\necho "$*" >> "${cache}/used-${version}"\nexec "${process.execPath}" "$@"\n`;
      writeFileSync(path.join(bin, 'node'), script);
      chmodSync(path.join(bin, 'node'), 0o755);
      return path.join(bin, 'node');
    };
    try {
      const node22 = fakeNode('22.99.0');
      fakeNode('20.18.0');
      const env22 = { ...env(), RUNNER_TOOL_CACHE: cache };
      const chosen = (await certifyJob({ 'node-version': '22', args: '--only listCountries' }, { env: env22 })).run;
      expect(chosen.actionOutputs['exit-code'], `${step(chosen, 'node').output}${step(chosen, 'certify').output}`).toBe('0');
      expect(chosen.outputs.node).toEqual({ node: node22, version: '22.99.0' });
      expect(readFileSync(path.join(cache, 'used-22.99.0'), 'utf8')).toContain('storefront-contract.mjs certify');
      expect(chosen.path).toEqual([]);
      // Asked for a Node the runner lacks: one line with the fix; below the tools' engines: refused by them.
      const missing = (await certifyJob({ 'node-version': '18' }, { env: env22 })).run;
      expect(step(missing, 'node').output).toMatch(/^::error title=Storefront contract::node-version: no Node\.js 18 on this runner .*run actions\/setup-node with node-version 18 before this action, or leave node-version empty$/m);
      expect(missing.actionOutputs['exit-code']).toBe('');
      expect(step(missing, 'Verdict').code).toBe(2);
      const old = (await certifyJob({ 'node-version': '20.18' }, { env: env22 })).run;
      expect(step(old, 'node').output).toMatch(/^::error title=Storefront contract::Node\.js 20\.18\.0 \(.*\) does not satisfy storefront-contract-tools' engines \(.*\)/m);
      expect(step(old, 'node').output).toContain(`engines (${engines})`);
      expect(step(old, 'Verdict').code).toBe(2);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
