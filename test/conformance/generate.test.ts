// The generative phase (`certify --generate N`) against the stateful sandbox: certified, with the cases
// per operation in every report format and a seed that sends the same cases again; and against faulty
// servers (the sandbox behind a proxy with one fault), each failing with the rule and the operation
// named and a shrunk, reproducible curl line.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certify } from '../../conformance/rest/certify.js';
import { summaryText } from '../../conformance/report/summary.js';
import { createWorkbench, type Workbench } from '../../workbench/index.js';
import { errorBody, TEST_API_KEY, transformingProxy } from './helpers.js';
import { hangGuard } from '../helpers/hang-guard.js';

const SEED = 20261123;
let sandbox: Workbench;
let reports: string;

beforeAll(async () => {
  // Its keys configured, as a store's keys are: a key of no store is refused.
  sandbox = await createWorkbench({ port: 0, quiet: true, apiKeys: [TEST_API_KEY], webhooks: false });
  reports = await mkdtemp(path.join(tmpdir(), 'sfc-generate-'));
});
afterAll(async () => {
  await sandbox?.close();
  await rm(reports, { recursive: true, force: true });
});

const generated = (c: Awaited<ReturnType<typeof certify>>['certificate']) => c.exchanges.filter((e) => e.generated);

describe('certify --generate against the sandbox', () => {
  let run: Awaited<ReturnType<typeof certify>>;

  beforeAll(async () => {
    run = await certify({ baseUrl: sandbox.url, apiKey: TEST_API_KEY, generate: 20, seed: SEED, concurrency: 4, reportDir: reports });
  }, hangGuard(120_000));

  it('is certified, every operation with valid, invalid and credential cases', () => {
    const { certificate } = run;
    const failures = certificate.exchanges.flatMap((e) => e.findings.filter((f) => f.severity === 'error').map((f) => `${e.id} ${f.rule}: ${f.message}`));
    expect(failures).toEqual([]);
    expect(certificate.verdict).toBe('certified');
    const per = certificate.generation!.perOperation;
    expect(Object.keys(per).sort()).toEqual(certificate.operations.map((o) => o.operationId).sort());
    for (const [op, c] of Object.entries(per)) {
      expect(c.valid, op).toBeGreaterThanOrEqual(21); // 20 random + at least one edge case
      expect(c.security, op).toBeGreaterThanOrEqual(3);
      expect(certificate.operations.find((o) => o.operationId === op)!.generatedCases, op).toBe(c.total);
    }
    // Operations with parameters or a body also get requests that each break one constraint.
    for (const op of ['listProducts', 'listOrders', 'listSimilarProducts', 'getVariant', 'createCustomer', 'startPosPhoneLogin', 'getFulfillmentOptions']) expect(per[op].invalid, op).toBeGreaterThanOrEqual(20);
    expect(certificate.rules.find((r) => r.id === 'generated-accepted')?.status).toBe('passed');
    expect(certificate.rules.find((r) => r.id === 'generated-refused')?.status).toBe('passed');
  });

  it('sends edge cases (bounds), single violations (parameters, body, sort fields) and credential variants', () => {
    const labels = generated(run.certificate).map((e) => `${e.operationId} ${e.generated!.label}`);
    expect(labels).toContain('listProducts valid: limit=1');
    expect(labels).toContain('listOrders sort_by: a field the list does not sort on');
    expect(labels).toContain('listProducts page: below the minimum 1');
    expect(labels).toContain('createCustomer body: malformed JSON');
    expect(labels).toContain('listOrders user_id: required, left out');
    expect(labels).toContain('getVariant the store API key instead of a bearer token');
    expect(labels).toContain('createAnonymousUser an API key of no store');
  });

  it('shows the cases per operation in report.json, junit.xml, report.html and the summary', async () => {
    const json = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8'));
    expect(json.generation.seed).toBe(SEED);
    expect(json.generation.reproduce).toBe(`--generate 20 --seed ${SEED}`);
    expect(json.settings).toMatchObject({ generate: 20, seed: SEED });
    const junit = await readFile(path.join(reports, 'junit.xml'), 'utf8');
    const html = await readFile(path.join(reports, 'report.html'), 'utf8');
    const summary = summaryText(run.certificate);
    expect(summary).toContain(`seed ${SEED}; again with --generate 20 --seed ${SEED}`);
    for (const [op, c] of Object.entries(run.certificate.generation!.perOperation)) {
      expect(junit).toContain(`<property name="cases.${op}" value="${c.total} (`);
      expect(html).toContain(`<tr><th><code>${op}</code></th><td>${c.valid}</td><td>${c.invalid}</td><td>${c.security}</td>`);
      expect(summary).toContain(`${op} ${c.total}`);
    }
    expect(JSON.stringify(json)).not.toContain(TEST_API_KEY);
  });

  it('the same seed sends the same cases again', async () => {
    const again = await certify({ baseUrl: sandbox.url, apiKey: TEST_API_KEY, generate: 20, seed: SEED, concurrency: 4, only: ['listProducts', 'listSimilarProducts', 'getVariant'] });
    const shape = (c: typeof again.certificate) => generated(c).map((e) => `${e.method} ${e.path} ${e.generated!.label}`);
    const first = shape(run.certificate).filter((line) => /\/catalog\/|\/pos\/catalog\//.test(line));
    expect(shape(again.certificate)).toEqual(first);
  }, hangGuard(60_000));
});

describe('certify --generate against faulty servers', () => {
  it.each([
    [
      'a server that serves page 0 as page 1 (accepts what the contract refuses)',
      { fault: (url: URL) => (url.searchParams.get('page') === '0' ? url.searchParams.set('page', '1') : undefined), op: 'listProducts', rule: 'generated-refused', minimal: /page=0/ },
    ],
    [
      'a server that refuses every limit above 50 (refuses what the contract allows)',
      { refuse: (url: URL) => Number(url.searchParams.get('limit')) > 50, op: 'listProducts', rule: 'generated-accepted', minimal: /limit=51(&|'|$)/ },
    ],
  ])('%s fails with the rule, the operation and a minimal curl line', async (_name, c) => {
    const proxy = await transformingProxy(sandbox.url, {
      request(req) {
        if ('fault' in c) c.fault(req.url);
        if ('refuse' in c && c.refuse(req.url)) return { status: 400, headers: {}, body: errorBody('invalid_parameter', 'limit is too large') };
        return undefined;
      },
    });
    try {
      const { certificate } = await certify({ baseUrl: proxy.url, apiKey: TEST_API_KEY, generate: 20, seed: SEED, only: [c.op], concurrency: 2 });
      expect(certificate.verdict).toBe('not-certified');
      const failing = certificate.exchanges.filter((e) => e.findings.some((f) => f.rule === c.rule && f.severity === 'error'));
      expect(failing.length).toBeGreaterThan(0);
      expect(new Set(failing.map((e) => e.operationId))).toEqual(new Set([c.op]));
      const shrunk = failing.find((e) => e.generated?.curl);
      expect(shrunk, 'a shrunk failure with its curl line').toBeDefined();
      expect(shrunk!.generated!.curl, shrunk!.generated!.curl).toMatch(c.minimal);
      expect(shrunk!.generated!.curl).toContain('$TOKEN');
      expect(shrunk!.generated!.curl).not.toContain(TEST_API_KEY);
      expect(summaryText(certificate)).toContain(`minimal failing request, ${c.op}`);
    } finally {
      await proxy.close();
    }
  }, hangGuard(60_000));
});
