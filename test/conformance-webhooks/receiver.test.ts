// The receiver certifier end to end: apps built with the receiver kit (every adapter) pass; each faulty
// receiver fails with the rule that names its defect.
import { describe, expect, it } from 'vitest';
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
