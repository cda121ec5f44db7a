// The reports are written and parseable: report.json carries the certificate fields, junit.xml is
// well-formed XML, report.html is one self-contained file.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specInfo } from '../../generated/spec-info.js';
import { certify } from '../../conformance/rest/certify.js';
import type { RestCertificate } from '../../conformance/report/certificate.js';

let dir: string;
let cert: RestCertificate;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'certify-reports-'));
  const { files } = await certify({ reportDir: dir });
  expect(files.map((f) => path.basename(f)).sort()).toEqual(['junit.xml', 'report.html', 'report.json']);
  cert = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('report.json', () => {
  it('is a certificate: spec hash and version, package version, target, time, verdict', () => {
    const pkg = JSON.parse(readFileSync('packages/storefront-contract-tools/package.json', 'utf8'));
    expect(cert.kind).toBe('storefront-contract/certificate');
    expect(cert.certifies).toBe('rest');
    expect(cert.spec).toEqual({ api: 'storefront', ...specInfo.storefront });
    expect(cert.tool).toMatchObject({ package: pkg.name, version: pkg.version });
    expect(cert.target.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(Number.isNaN(Date.parse(cert.startedAt))).toBe(false);
    expect(Date.parse(cert.finishedAt)).toBeGreaterThanOrEqual(Date.parse(cert.startedAt));
    expect(cert.verdict).toBe('certified');
  });

  it('has a verdict per operation and status, and the coverage matrix', () => {
    expect(cert.operations).toHaveLength(12);
    for (const op of cert.operations) {
      expect(op.verdict).toBe('pass');
      for (const s of op.statuses) expect(['pass', 'fail', 'not-run']).toContain(s.verdict);
      for (const cell of Object.values(cert.coverage[op.operationId])) expect(Object.keys(cell).sort()).toEqual(['exercised', 'passed', 'recorded']);
    }
  });
});

describe('junit.xml', () => {
  it('is well-formed XML with one testcase per judged exchange', () => {
    const xml = readFileSync(path.join(dir, 'junit.xml'), 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml.match(/<testcase /g)?.length).toBe(cert.exchangeSummary.judged);
    expect(xml).toMatch(/<testsuites name="storefront REST certification" tests="\d+" failures="0"/);
  });
});

describe('report.html', () => {
  it('is one page with the verdict and the matrix, and no external assets', () => {
    const html = readFileSync(path.join(dir, 'report.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('CERTIFIED');
    expect(html).toContain('Coverage: operation × documented status');
    for (const op of cert.operations) expect(html).toContain(op.operationId);
    expect(html).not.toMatch(/<script|<link|src=|url\(/i);
  });
});
