// The timing model: the contract's delivery numbers at a time scale, and the windows the sender rules
// accept around each expected time.
import { describe, expect, it } from 'vitest';
import { deliveryRules } from '../../generated/webhooks/catalog.js';
import { timingModel, windowFor } from '../../conformance/webhooks/timing.js';

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
});
