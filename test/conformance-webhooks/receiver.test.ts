// The receiver certifier end to end: apps built with the receiver kit (every adapter) pass; each faulty
// receiver fails with the rule that names its defect.
import { describe, expect, it } from 'vitest';
import { NO_PROBE_URL } from '../../conformance/rules/webhooks/receiver-idempotent.js';
import { runReceiver } from '../../conformance/webhooks/run.js';
import { UNKNOWN_EVENT } from '../../conformance/webhooks/receiver/probes.js';
import { receiverRules } from '../../conformance/rules/webhooks/index.js';
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

// One faulty receiver per receiver rule. Rules on designed parts of the contract only advise, so their
// faulty receivers are certified under --strict (strict: true), where a warning fails.
const FAULTS: Array<[ReceiverFault, { rule: string; strict?: boolean }]> = [
  ['refuses-product-events', { rule: 'receiver-accepts-valid' }],
  ['verifies-reserialized-json', { rule: 'receiver-verifies-raw-bytes' }],
  ['accepts-any-signature', { rule: 'receiver-rejects-bad-signature' }],
  ['refuses-unknown-fields', { rule: 'receiver-tolerates-unknown', strict: true }],
  ['acknowledges-signed-bad-content', { rule: 'receiver-rejects-bad-content', strict: true }],
  ['ignores-header-mismatch', { rule: 'receiver-header-body-mismatch' , strict: true }],
  ['500-on-malformed-signature', { rule: 'receiver-no-5xx-on-bad-input' , strict: true }],
  ['processes-duplicates', { rule: 'receiver-idempotent' }],
  ['refuses-older-updates', { rule: 'receiver-out-of-order' }],
  ['processes-test-deliveries', { rule: 'receiver-test-delivery' , strict: true }],
  ['accepts-oversized-bodies', { rule: 'receiver-oversized-body', strict: true }],
  ['410-on-bad-signature', { rule: 'receiver-never-410' , strict: true }],
  ['410-on-unknown-event', { rule: 'receiver-never-410' , strict: true }],
];

describe('receiver certification: faulty receivers', () => {
  it('the table has a faulty receiver for every receiver rule', () => {
    expect(new Set(FAULTS.map(([, f]) => f.rule))).toEqual(new Set(receiverRules.map((r) => r.id)));
  });

  it.each(FAULTS)('%s fails %j', async (fault, { rule, strict }) => {
    const { app, probe } = await startFaultyReceiver(SECRET, fault);
    try {
      const result = await runReceiver({ url: app.url, secret: SECRET, probeUrl: probe.url, reportDir: '', strict }, { writeFiles: false });
      expect(failing(result)).toContain(rule);
      expect(result.certificate.verdict).toBe('not-certified');
      // The finding names the probe it judged.
      const findings = result.certificate.rules.find((r) => r.id === rule)!.findings;
      expect(findings.length).toBeGreaterThan(0);
      expect(findings.every((f) => f.subject.length > 0)).toBe(true);
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
  it('a receiver acknowledging unknown fields and events it does not know is certified with no advice, --strict included', async () => {
    const { app, probe } = await startFaultyReceiver(SECRET, 'tolerant');
    try {
      const result = await runReceiver({ url: app.url, secret: SECRET, probeUrl: probe.url, reportDir: '', strict: true }, { writeFiles: false });
      expect(failing(result)).toEqual([]);
      expect(result.certificate.verdict).toBe('certified');
      expect(result.certificate.rules.filter((r) => r.status === 'warned' || r.status === 'skipped')).toEqual([]);
      // Both were really sent and acknowledged.
      const unknown = result.certificate.probes!.filter((p) => p.group === 'unknown');
      expect(unknown.map((p) => [p.name, p.status])).toEqual([
        ['valid delivery with fields this contract version does not name', 200],
        [`valid delivery of an event the catalog does not list (${UNKNOWN_EVENT})`, 200],
      ]);
    } finally {
      await app.close();
      await probe.close();
    }
  });

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

  // What the contract does not state is advice: a receiver that only departs from the kit's design is
  // certified, warned, and fails only under --strict.
  it.each([
    ['ignores-header-mismatch', 'receiver-header-body-mismatch'],
    ['500-on-malformed-signature', 'receiver-no-5xx-on-bad-input'],
    ['410-on-bad-signature', 'receiver-never-410'],
    ['processes-test-deliveries', 'receiver-test-delivery'],
  ] as const)('%s is certified with advice from %s (the contract does not state it)', async (fault, id) => {
    const { app, probe } = await startFaultyReceiver(SECRET, fault);
    try {
      const result = await runReceiver({ url: app.url, secret: SECRET, probeUrl: probe.url, reportDir: '' }, { writeFiles: false });
      expect(failing(result)).toEqual([]);
      expect(result.certificate.verdict).toBe('certified');
      const rule = result.certificate.rules.find((r) => r.id === id)!;
      expect(rule).toMatchObject({ status: 'warned', errors: 0 });
      expect(rule.warnings).toBeGreaterThan(0);
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
