// Certifies one fake sender of sender-cases.ts and checks the verdict: certified when it follows the
// contract, else not certified with an error finding of the rule its fault breaks.
import { expect } from 'vitest';
import { runSender } from '../../conformance/webhooks/run.js';
import { startFakeSender } from './fake-sender.js';
import { TIME_SCALE, type SenderCase } from './sender-cases.js';

const base = { port: 0, event: 'order.created', expectHeaders: {}, reportDir: '' };

export async function certifyFakeSender(_name: string, { fault, rule, strict }: SenderCase[1]): Promise<void> {
  const sender = await startFakeSender({ timeScale: TIME_SCALE, fault });
  try {
    // A lost event is waited for 2 s (not the default 10 s): the senders here answer within milliseconds.
    const waitMs = fault === 'drops-first-delivery' ? 2000 : undefined;
    const result = await runSender({ ...base, adminUrl: sender.url, adminToken: 't', timeScale: TIME_SCALE, quietMs: 700, strict, waitMs }, { writeFiles: false });
    const failing = result.certificate.rules.filter((x) => x.status === 'failed').map((x) => x.id);
    if (!rule) {
      expect(failing).toEqual([]);
      expect(result.certificate.verdict).toBe('certified');
    } else {
      expect(failing).toContain(rule);
      expect(result.certificate.verdict).toBe('not-certified');
      const findings = result.certificate.rules.find((r) => r.id === rule)!.findings.filter((f) => f.severity === 'error');
      expect(findings.length).toBeGreaterThan(0);
    }
  } finally {
    await sender.close();
  }
}
