// certifyWebhooksAgainstWorkbench (the webhook half of `npm run certify -- --all`): an in-process
// workbench certified as a sender, a receiver-kit app as a receiver, the same three report files as the
// REST certifier for each, and no secret in any of them.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { certifyWebhooksAgainstWorkbench } from '../../conformance/webhooks/index.js';
import { startReceiverApp } from '../webhooks/apps/index.js';
import { ProcessedCounter } from './receivers.js';

const SECRET = 'whsec_workbench_test_9a7e';
const dir = mkdtempSync(path.join(tmpdir(), 'certify-webhooks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('certifyWebhooksAgainstWorkbench', () => {
  it('certifies the simulator and a kit receiver and writes both report sets', async () => {
    const counter = new ProcessedCounter();
    const { app, state } = await startReceiverApp('node', { secrets: [SECRET], onUnhandled: counter.count });
    const probe = await counter.serve(() => state.handled);
    try {
      const result = await certifyWebhooksAgainstWorkbench({ reportDir: dir, receiver: { url: app.url, secret: SECRET, probeUrl: probe.url } });
      const failed = [result.sender, result.receiver].flatMap((run) => run?.certificate.rules.filter((x) => x.status === 'failed').map((x) => ({ id: x.id, findings: x.findings })) ?? []);
      expect(result.certified, JSON.stringify(failed)).toBe(true);
      const names = result.files.map((f) => path.relative(dir, f)).sort();
      expect(names).toEqual(
        ['webhooks-receiver/junit.xml', 'webhooks-receiver/report.html', 'webhooks-receiver/report.json', 'webhooks-sender/junit.xml', 'webhooks-sender/report.html', 'webhooks-sender/report.json'],
      );
      for (const file of result.files) {
        expect(existsSync(file)).toBe(true);
        const text = readFileSync(file, 'utf8');
        expect(text).not.toContain(SECRET);
        expect(text).not.toContain(result.sender.observations.secret);
      }
      const cert = JSON.parse(readFileSync(path.join(dir, 'webhooks-sender/report.json'), 'utf8'));
      expect(cert).toMatchObject({ kind: 'storefront-contract/certificate', certifies: 'webhook-sender', verdict: 'certified', spec: { api: 'webhooks' } });
      expect(cert.settings.tolerances).toContain('quiet periods');
      expect(readFileSync(path.join(dir, 'webhooks-sender/junit.xml'), 'utf8')).toContain('<testcase classname="webhook-sender" name="sender-retry-schedule"');
      expect(readFileSync(path.join(dir, 'webhooks-receiver/report.html'), 'utf8')).toContain('<h1>Storefront webhook receiver certification</h1>');
    } finally {
      await app.close();
      await probe.close();
    }
  });
});
