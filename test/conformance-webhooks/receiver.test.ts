// The receiver certifier end to end: apps built with the receiver kit (every adapter) pass; each faulty
// receiver fails with the rule that names its defect.
import { describe, expect, it } from 'vitest';
import { NO_PROBE_URL } from '../../conformance/rules/webhooks/receiver-idempotent.js';
import { runReceiver } from '../../conformance/webhooks/run.js';
import { ADAPTERS, startReceiverApp } from '../webhooks/apps/index.js';
import { ProcessedCounter, startFaultyReceiver, type ReceiverFault } from './receivers.js';

const SECRET = 'whsec_certifier_receiver_test_5d1c';
const failing = (r: Awaited<ReturnType<typeof runReceiver>>) => r.certificate.rules.filter((x) => x.status === 'failed').map((x) => x.id);

describe('receiver certification: apps built with the receiver kit', () => {
  it.each(ADAPTERS)('%s app is certified', async (kind) => {
    const counter = new ProcessedCounter();
    const { app, state } = await startReceiverApp(kind, { secrets: [SECRET], onUnhandled: counter.count });
    const probe = await counter.serve(() => state.handled);
    try {
      const result = await runReceiver({ url: app.url, secret: SECRET, probeUrl: probe.url, reportDir: '' }, { writeFiles: false });
      expect(failing(result)).toEqual([]);
      expect(result.certificate.verdict).toBe('certified');
      expect(result.certificate.rules.filter((r) => r.status === 'skipped')).toEqual([]);
      expect(JSON.stringify(result.certificate)).not.toContain(SECRET);
      // The out-of-order probe reached the app's staleness guard: the older update was skipped.
      expect(state.stale.length).toBeGreaterThan(0);
    } finally {
      await app.close();
      await probe.close();
    }
  });
});

const FAULTS: Array<[ReceiverFault, string]> = [
  ['accepts-any-signature', 'receiver-rejects-bad-signature'],
  ['verifies-reserialized-json', 'receiver-verifies-raw-bytes'],
  ['500-on-malformed-signature', 'receiver-no-5xx-on-bad-input'],
  ['processes-duplicates', 'receiver-idempotent'],
  ['410-on-bad-signature', 'receiver-never-410'],
];

describe('receiver certification: faulty receivers', () => {
  it.each(FAULTS)('%s fails %s', async (fault, rule) => {
    const { app, probe } = await startFaultyReceiver(SECRET, fault);
    try {
      const result = await runReceiver({ url: app.url, secret: SECRET, probeUrl: probe.url, reportDir: '' }, { writeFiles: false });
      expect(failing(result)).toContain(rule);
      expect(result.certificate.verdict).toBe('not-certified');
    } finally {
      await app.close();
      await probe.close();
    }
  });

  it('a receiver without faults on the same harness passes (the harness itself is sound)', async () => {
    const { app, probe } = await startFaultyReceiver(SECRET, 'none');
    try {
      const result = await runReceiver({ url: app.url, secret: SECRET, probeUrl: probe.url, reportDir: '' }, { writeFiles: false });
      expect(failing(result)).toEqual([]);
    } finally {
      await app.close();
      await probe.close();
    }
  });
});

describe('receiver certification: what the contract leaves to the receiver', () => {
  it('a receiver acknowledging correctly signed content it cannot use is certified, with advice (fails only with --strict)', async () => {
    const { app, probe } = await startFaultyReceiver(SECRET, 'acknowledges-signed-bad-content');
    try {
      const result = await runReceiver({ url: app.url, secret: SECRET, probeUrl: probe.url, reportDir: '' }, { writeFiles: false });
      expect(failing(result)).toEqual([]);
      expect(result.certificate.verdict).toBe('certified');
      const rule = result.certificate.rules.find((r) => r.id === 'receiver-rejects-bad-content')!;
      expect(rule).toMatchObject({ status: 'warned', severity: 'warning', source: { kind: 'designed' } });
      expect(rule.warnings).toBeGreaterThan(0);

      const strict = await runReceiver({ url: app.url, secret: SECRET, probeUrl: probe.url, reportDir: '', strict: true }, { writeFiles: false });
      expect(strict.certificate.verdict).toBe('not-certified');
      expect(failing(strict)).toEqual(['receiver-rejects-bad-content']);
    } finally {
      await app.close();
      await probe.close();
    }
  });

  it('without --probe-url, idempotency and test-delivery processing are skipped with the reason, never passed', async () => {
    const { app } = await startReceiverApp('node', { secrets: [SECRET] });
    try {
      const result = await runReceiver({ url: app.url, secret: SECRET, reportDir: '' }, { writeFiles: false });
      const status = (id: string) => result.certificate.rules.find((r) => r.id === id)!;
      expect(status('receiver-idempotent')).toMatchObject({ status: 'skipped', skipped: NO_PROBE_URL });
      expect(NO_PROBE_URL).toBe('no --probe-url given: idempotency cannot be observed');
      expect(status('receiver-test-delivery').status).toBe('skipped');
      expect(result.certificate.verdict).toBe('certified');
    } finally {
      await app.close();
    }
  });
});
