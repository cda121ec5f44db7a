// The Arazzo 1.0 workflows beside the recordings (conformance/traffic/<scenario>.arazzo.yaml, written by
// conformance/rest/make-arazzo.ts from each HAR and its bindings):
//   - in step: each committed file is what the recording and bindings give now (a drift check, like
//     generated/), and no workflow is left without its recording;
//   - faithful: one step per recorded exchange with its operation, every binding said in Arazzo's words
//     (inputs and captures as runtime expressions where the replayer substitutes them, no recorded value
//     left behind, consistency checks as success criteria);
//   - readable by another tool: `redocly respect` runs all four against a sandbox; every step passes up to
//     the first oversized body, which Arazzo cannot carry (x-body-padding: the known limit).
// Redocly's lint of the files is part of `npm run lint` (test/lint/spec-documents.test.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arazzoFile, renderArazzo, scenarioToArazzo, stepIdOf } from '../../conformance/rest/arazzo.js';
import { loadScenarios, trafficDir } from '../../conformance/rest/load.js';
import { storefrontOperations } from '../../generated/operations/storefront.js';
import { repoRoot } from '../../scripts/lib/repo.js';
import { contractModel } from '../../workbench/contract/model.js';
import { createWorkbench, sandboxApiKey, type Workbench } from '../../workbench/index.js';
import { run } from '../helpers/run.js';
import { hangGuard } from '../helpers/hang-guard.js';

const scenarios = loadScenarios();
const version = String((await contractModel('storefront')).document.info.version);
const committed = (name: string) => readFileSync(arazzoFile(trafficDir, name), 'utf8');
const docs = Object.fromEntries(scenarios.map((s) => [s.name, YAML.parse(committed(s.name))]));

describe('Arazzo files are in step with the recordings', () => {
  it.each(scenarios.map((s) => [s.name, s] as const))('%s.arazzo.yaml is what its HAR and bindings give', (name, scenario) => {
    const want = renderArazzo(scenarioToArazzo(scenario, { version }), scenario);
    expect(committed(name) === want, `conformance/traffic/${name}.arazzo.yaml is stale: npx tsx conformance/rest/make-arazzo.ts rewrites it`).toBe(true);
  });

  it('every workflow file has its recording', () => {
    const workflows = readdirSync(trafficDir).filter((f) => f.endsWith('.arazzo.yaml')).map((f) => f.replace(/\.arazzo\.yaml$/, ''));
    expect(workflows.sort()).toEqual(scenarios.map((s) => s.name).sort());
  });
});

describe('each workflow says what the recording and bindings say', () => {
  it.each(scenarios.map((s) => [s.name, s] as const))('%s', (name, scenario) => {
    const doc = docs[name];
    expect(doc.arazzo).toMatch(/^1\.0\.\d+$/);
    expect(doc.sourceDescriptions).toEqual([{ name: 'storefront', url: '../../spec/openapi/storefront.yaml', type: 'openapi' }]);
    const [workflow] = doc.workflows;
    expect(workflow.workflowId).toBe(name);
    // One step per exchange, in order, with its operation and recorded status.
    expect(workflow.steps.map((s: { stepId: string }) => s.stepId)).toEqual(scenario.steps.map(stepIdOf));
    for (const [i, step] of workflow.steps.entries()) {
      expect(storefrontOperations).toHaveProperty(step.operationId);
      expect(step.operationId).toBe(scenario.steps[i].operation.operationId);
      expect(step.successCriteria[0]).toEqual({ condition: `$statusCode == ${scenario.steps[i].recorded.status}` });
    }
    // Inputs: declared, required where the bindings require them, and their recorded text gone.
    expect(Object.keys(workflow.inputs?.properties ?? {})).toEqual(scenario.bindings.inputs.map((x) => x.name));
    expect(workflow.inputs?.required ?? []).toEqual(scenario.bindings.inputs.filter((x) => x.required).map((x) => x.name));
    const text = (step: unknown) => JSON.stringify(step);
    for (const input of scenario.bindings.inputs) {
      const users = workflow.steps.filter((s: unknown) => text(s).includes(`$inputs.${input.name}`));
      const leftovers = workflow.steps.filter((s: { parameters?: unknown; requestBody?: unknown }) => text([s.parameters, s.requestBody]).includes(input.replaces));
      expect(leftovers.map((s: { stepId: string }) => s.stepId), `${input.name}: recorded ${input.replaces} left`).toEqual([]);
      // An input with a default the recording never sends as such (a cart id) may go unused; a required one may not.
      if (input.required) expect(users.length, `${input.name} unused`).toBeGreaterThan(0);
    }
    // Captures: an output of their producer, used by a later step, the recorded value replaced where the replayer replaces it.
    for (const capture of scenario.captures) {
      const producer = workflow.steps[capture.producer];
      const output = Object.entries<string>(producer.outputs ?? {}).find(([, expr]) => expr === `$response.body#${capture.pointer}`);
      expect(output, `${name}: ${capture.name} is not an output of ${producer.stepId}`).toBeDefined();
      const expression = `$steps.${producer.stepId}.outputs.${output![0]}`;
      const later = workflow.steps.slice(capture.producer + 1);
      expect(later.some((s: unknown) => text(s).includes(expression)), `${name}: ${expression} unused`).toBe(true);
      if (capture.add !== undefined || capture.into?.length) continue;
      const leftovers = later.filter((s: { parameters?: { value: unknown }[]; requestBody?: unknown }) => text([s.parameters, s.requestBody]).includes(capture.recordedValue));
      expect(leftovers.map((s: { stepId: string }) => s.stepId), `${name}: recorded ${capture.name} (${capture.recordedValue}) left`).toEqual([]);
    }
    // Consistency checks: criteria of their step.
    for (const check of scenario.bindings.consistency) {
      const step = workflow.steps.find((s: { stepId: string }) => s.stepId === check.step);
      expect(step.successCriteria.map((c: { condition: string }) => c.condition).join('\n')).toContain(`$response.body#${check.pointer} == `);
    }
  });

  it('puts a capture where the bindings put it: the bearer token embedded, an id whole, a derived page kept with its source', () => {
    const steps = docs['browse-catalog'].workflows[0].steps;
    const byId = (id: string) => steps.find((s: { stepId: string }) => s.stepId === id);
    expect(byId('list-products').parameters).toContainEqual({ name: 'authorization', in: 'header', value: 'Bearer {$steps.anon.outputs.access_token}' });
    expect(byId('get-variant').parameters).toContainEqual({ name: 'variant_id', in: 'path', value: '$steps.list-products.outputs.variant_id' });
    expect(byId('list-products-past-end').parameters).toContainEqual({ name: 'page', in: 'query', value: 4, 'x-derived': { from: '$steps.list-products.outputs.total_pages', add: 1 } });
    expect(byId('list-products-by-category-id').parameters).toContainEqual({ name: 'category_id', in: 'query', value: ['cat_lips', 'cat_face'] });
    const created = docs.customer.workflows[0].steps.find((s: { stepId: string }) => s.stepId === 'list-cards');
    expect(created.parameters).toContainEqual({ name: 'customer_id', in: 'path', value: '$steps.create-customer.outputs.customer_id' });
  });
});

describe('redocly respect runs the workflows against a sandbox', () => {
  let workbench: Workbench;
  let dir: string;
  let report: { files: Record<string, { executedWorkflows: { workflowId: string; executedSteps: { stepId: string; checks: { passed: boolean }[] }[] }[] }> };
  let output: string;

  beforeAll(async () => {
    workbench = await createWorkbench({ port: 0, quiet: true, webhooks: false });
    dir = await mkdtemp(path.join(os.tmpdir(), 'sfc-arazzo-'));
    const files = scenarios.map((s) => arazzoFile(trafficDir, s.name));
    const server = `storefront=${workbench.url}/api/v1/demo-store/storefront`;
    // The sandbox's own test key for demo-store (printed at start, made to be shared); one process for all four.
    const args = ['respect', ...files, '--server', server, '--input', `api_key=${sandboxApiKey('demo-store')}`, '--json-output', path.join(dir, 'respect.json')];
    const result = await run(path.join(repoRoot, 'node_modules/.bin/redocly'), args, { cwd: repoRoot, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } });
    output = result.output;
    report = JSON.parse(await readFile(path.join(dir, 'respect.json'), 'utf8'));
  }, hangGuard(60_000));

  afterAll(async () => {
    await workbench?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it.each(scenarios.map((s) => [s.name, s] as const))('%s: every step passes up to the first oversized body', (name, scenario) => {
    const file = Object.keys(report.files).find((f) => path.basename(f) === `${name}.arazzo.yaml`);
    const executed = (file && report.files[file].executedWorkflows[0]?.executedSteps) || [];
    const padded = scenario.steps.findIndex((s) => s.entry.request.postData?._truncated);
    const runnable = padded === -1 ? scenario.steps.length : padded;
    const passed = executed.filter((s) => s.checks.every((c) => c.passed)).map((s) => s.stepId);
    expect(passed, output).toEqual(scenario.steps.slice(0, runnable).map(stepIdOf));
    // Respect stops a workflow at its first failed step: the oversized body, sent without its padding.
    if (padded !== -1) expect(executed.map((s) => s.stepId).at(-1)).toBe(stepIdOf(scenario.steps[padded]));
  });
});
