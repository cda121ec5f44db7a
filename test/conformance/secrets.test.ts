// No secret appears in any report, any progress line or any committed recording.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../workbench/adapters/node-http.js';
import { certify } from '../../conformance/rest/certify.js';
import { trafficDir } from '../../conformance/rest/load.js';
import { progressLine } from '../../conformance/report/progress.js';
import { summaryText } from '../../conformance/report/summary.js';
import { startMock, TEST_API_KEY } from './helpers.js';

// Tokens the strict mock issues look like `mock_<base64url>`; refresh tokens `mock_refresh_...`.
const ISSUED_TOKEN = /mock_[A-Za-z0-9_-]{20,}/;

let mock: MockServer;
let dir: string;
beforeAll(async () => {
  mock = await startMock();
  dir = mkdtempSync(path.join(os.tmpdir(), 'certify-secrets-'));
});
afterAll(async () => {
  await mock?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('secrets', () => {
  it('never reach the reports or the progress output', async () => {
    const lines: string[] = [];
    const restricted = 'sk_test_restricted_5e4d3c2b1a';
    const { certificate, files } = await certify({
      baseUrl: mock.url,
      apiKey: TEST_API_KEY,
      inputs: { restricted_api_key: restricted },
      reportDir: dir,
      onResult: (r) => lines.push(progressLine(r)),
    });
    expect(certificate.verdict).toBe('certified');
    const texts = [...files.map((f) => readFileSync(f, 'utf8')), lines.join('\n'), summaryText(certificate, files)];
    for (const text of texts) {
      expect(text).not.toContain(TEST_API_KEY);
      expect(text).not.toContain(restricted);
      expect(text).not.toMatch(ISSUED_TOKEN);
    }
  });

  it('never reach the committed recordings', () => {
    for (const file of readdirSync(trafficDir).filter((f) => f.endsWith('.har'))) {
      const text = readFileSync(path.join(trafficDir, file), 'utf8');
      expect(text, file).not.toMatch(/sk_(live|pos)_[0-9a-f]{8,}/);
      expect(text, file).not.toMatch(ISSUED_TOKEN);
      const har = JSON.parse(text);
      for (const entry of har.log.entries) {
        for (const h of entry.request.headers) {
          if (h.name.toLowerCase() === 'x-api-key') expect(h.value, `${file} ${entry.comment}`).toMatch(/^REDACTED_api_key_\d+$/);
          if (h.name.toLowerCase() === 'authorization') expect(h.value, `${file} ${entry.comment}`).toMatch(/^Bearer REDACTED_access_token_\d+$/);
        }
        const body = entry.response.content.text ?? '';
        for (const key of ['access_token', 'refresh_token', 'otp', 'otp_token']) {
          for (const m of body.matchAll(new RegExp(`"${key}":"([^"]*)"`, 'g'))) expect(m[1], `${file} ${entry.comment} ${key}`).toMatch(/^REDACTED_/);
        }
      }
    }
  });
});
