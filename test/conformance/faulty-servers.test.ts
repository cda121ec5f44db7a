// Certifying deliberately faulty servers fails, and the report names the rule and the operation. One
// faulty server per REST rule (the table is checked against the rule list): the mock behind one
// transforming proxy whose single defect is switched per case, each case certifying only the operation
// it breaks (--only). Rules on designed parts of the contract only advise, so their case runs --strict.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../workbench/adapters/node-http.js';
import { certify } from '../../conformance/rest/certify.js';
import type { RestCertificate } from '../../conformance/report/certificate.js';
import { restRules } from '../../conformance/rules/rest/index.js';
import { faultyCases } from './faulty-cases.js';
import { startMock, TEST_API_KEY, transformingProxy, type Running, type Transform } from './helpers.js';

let mock: MockServer;
let proxy: Running;
let tmp: string;
/** The defect the proxy has now; none between cases. */
let active: Transform = {};
beforeAll(async () => {
  mock = await startMock();
  proxy = await transformingProxy(mock.url, {
    request: (req) => active.request?.(req),
    response: (res, req, inner) => active.response?.(res, req, inner),
  });
  tmp = mkdtempSync(path.join(os.tmpdir(), 'certify-faulty-'));
});
afterAll(async () => {
  await proxy?.close();
  await mock?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const cases = faultyCases(() => mock.url);

describe('certifying a faulty server fails and names the rule and the operation', () => {
  it('the table has a faulty server for every REST rule', () => {
    expect(new Set(cases.map(([, c]) => c.want.rule))).toEqual(new Set(restRules.map((r) => r.id)));
  });

  it.each(cases)('%s', async (name, { transform, want, strict, generate }) => {
    active = await transform();
    try {
      const reportDir = path.join(tmp, name.replace(/\W+/g, '-'));
      const { certificate } = await certify({ baseUrl: proxy.url, apiKey: TEST_API_KEY, reportDir, only: [want.operationId], strict, generate, seed: generate && 1 });
      expect(certificate.verdict).toBe('not-certified');
      const hits = certificate.exchanges.filter((e) => e.operationId === want.operationId && e.findings.some((f) => f.rule === want.rule && f.severity === 'error'));
      expect(hits.length, `no ${want.rule} failure on ${want.operationId}`).toBeGreaterThan(0);
      // The written certificate says the same, and the operation's verdict is fail.
      const written: RestCertificate = JSON.parse(readFileSync(path.join(reportDir, 'report.json'), 'utf8'));
      expect(written.verdict).toBe('not-certified');
      expect(written.operations.find((o) => o.operationId === want.operationId)?.verdict).toBe('fail');
      expect(written.rules.find((r) => r.id === want.rule)?.errors).toBeGreaterThan(0);
      const junit = readFileSync(path.join(reportDir, 'junit.xml'), 'utf8');
      expect(junit).toContain(`classname="${want.operationId}"`);
      expect(junit).toContain(`type="${want.rule}"`);
    } finally {
      active = {};
    }
  });
});
