// The timing model: the contract's delivery numbers at a time scale, and the windows the sender rules
// accept around each expected time.
import { describe, expect, it } from 'vitest';
import { deliveryRules } from '../../generated/webhooks/catalog.js';
import { answeredInTime, windowFor } from '../../conformance/rules/shared/timing.js';
import { timingModel } from '../../conformance/webhooks/timing.js';

describe('timing model', () => {
  it('reads the contract numbers and scales them', () => {
    const t = timingModel({ timeScale: 0.01 });
    expect(t.timeoutMs).toBeCloseTo(deliveryRules.timeoutSeconds * 10);
    expect(t.retryDelaysMs).toEqual(deliveryRules.retryDelaysSeconds.map((s) => s * 10));
    expect(t.maxAttempts).toBe(deliveryRules.maxAttempts);
  });

  it.each([
    [5000, { min: 4735, max: 8500 }],
    [300_000, { min: 284_985, max: 451_000 }],
  ])('window around %d ms', (expected, want) => {
    const w = windowFor(timingModel(), expected);
    expect(w.min).toBeCloseTo(want.min);
    expect(w.max).toBeCloseTo(want.max);
  });

  it('widens both sides of a window by how late the certifier may have stamped the moments compared', () => {
    const w = windowFor(timingModel(), 5000, 40);
    expect(w.min).toBeCloseTo(4735 - 40);
    expect(w.max).toBeCloseTo(8500 + 40);
  });

  it('tells an answer that surely beat the sender\'s time-out from one that may not have', () => {
    const t = timingModel({ timeScale: 0.002 }); // time-out 60 ms: earliest accepted 42 ms
    expect(answeredInTime(t, { receivedAt: 0, endedAt: 5 })).toBe(true);
    expect(answeredInTime(t, { receivedAt: 0, endedAt: 5, stampDelayMs: 40 })).toBe(false);
    expect(answeredInTime(t, { receivedAt: 0 })).toBe(false);
  });
});
