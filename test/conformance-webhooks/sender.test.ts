// The sender certifier end to end: the webhook simulator passes under a small time scale; a fake sender
// following the contract passes; each deliberately faulty sender fails with the rule that names its fault
// (the cases are in sender-cases.ts, split with sender-faults.test.ts).
// Timing rules run with the certifier's stated tolerances; the tests assert verdicts, never durations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../workbench/adapters/node-http.js';
import { createSimulator, type Simulator } from '../../workbench/simulator/index.js';
import { runSender } from '../../conformance/webhooks/run.js';
import { certifyFakeSender } from './certify-fake-sender.js';
import { startFakeSender } from './fake-sender.js';
import { FIRST_HALF } from './sender-cases.js';
import { hangGuard } from '../helpers/hang-guard.js';

const base = { port: 0, event: 'order.created', expectHeaders: {}, reportDir: '' };
const failing = (r: Awaited<ReturnType<typeof runSender>>) => r.certificate.rules.filter((x) => x.status === 'failed').map((x) => x.id);

describe('sender certification: the webhook simulator', () => {
  let sim: Simulator;
  let mock: MockServer;
  beforeAll(async () => {
    sim = createSimulator({ timeScale: 0.005 });
    mock = await createMockServer({ port: 0, quiet: true, extensions: [sim.extension] });
    await sim.ready();
  });
  afterAll(async () => {
    await sim?.close();
    await mock?.close();
  });

  it('is certified, every rule judged, the secret nowhere in the certificate', async () => {
    // The wait for each phase's first delivery is the certifier's patience, a hang guard here (the sending
    // thread is started in beforeAll; a loaded machine still delays each delivery).
    const result = await runSender({ ...base, adminUrl: mock.url, adminToken: 'certifier-test-token', timeScale: 0.005, waitMs: hangGuard(10_000) }, { writeFiles: false });
    const findings = result.certificate.rules.filter((x) => x.status !== 'passed').map((x) => ({ id: x.id, skipped: x.skipped, findings: x.findings }));
    expect(failing(result), JSON.stringify({ findings, settings: result.certificate.settings })).toEqual([]);
    expect(result.certificate.verdict).toBe('certified');
    expect(result.certificate.rules.filter((r) => r.status === 'skipped').map((r) => r.id)).toEqual([]);
    const text = JSON.stringify(result.certificate);
    expect(text).not.toContain(result.observations.secret);
    expect(text).not.toContain('certifier-test-token');
    expect(result.certificate.settings.tolerances).toMatch(/expected × 0\.95/);
    // 1 delivered + 1 test + 2 time-out phase + 4 retries + 1 gone.
    expect(result.observations.deliveries).toHaveLength(9);
  });
});

describe('sender certification: fake senders (first half)', () => {
  it.each(FIRST_HALF)('%s', certifyFakeSender);
});

// Time-out 300 ms, retries after 50 ms, 300 ms, 3 s: stalls of 60 ms are a fifth of the time-out. (At
// 0.004 and 25 ms the run failed twice when it ran beside the suite's heaviest files: the machine's own
// load came on top of the stalls made here.)
const BUSY_TIME_SCALE = 0.01;
const STALL_MS = 60;

describe('sender certification on a busy machine', () => {
  it('a sender following the contract is certified while the certifier\'s event loop stalls; the report states the longest stall', async () => {
    // Stalls of the certifier's own event loop late-stamp arrivals and ends, so a punctual sender would
    // look early by up to a stall: each window widens by the stalls measured around its timestamps.
    const stall = setInterval(() => {
      const until = performance.now() + STALL_MS;
      while (performance.now() < until) {
        // busy: another workload on the same core
      }
    }, 150);
    const sender = await startFakeSender({ timeScale: BUSY_TIME_SCALE });
    try {
      const result = await runSender({ ...base, adminUrl: sender.url, adminToken: 't', timeScale: BUSY_TIME_SCALE, quietMs: 700 }, { writeFiles: false });
      const findings = result.certificate.rules.filter((x) => x.status === 'failed').map((x) => ({ id: x.id, findings: x.findings }));
      expect(failing(result), JSON.stringify({ findings, settings: result.certificate.settings })).toEqual([]);
      expect(result.certificate.verdict).toBe('certified');
      expect(result.certificate.settings.eventLoopDelayMaxMs).toBeGreaterThanOrEqual(50);
      expect(result.certificate.settings.tolerances).toMatch(/widened by the stalls of the certifier's own event loop around the timestamps compared \(the longest in this run: \d+ ms\)/);
    } finally {
      clearInterval(stall);
      await sender.close();
    }
  });
});
