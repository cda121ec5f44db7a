// The delivery timings the contract promises (x-delivery-rules, read through the generated catalog) at one
// time scale, and the tolerances the sender certifier applies to them. Measurements are taken on the
// subscriber side, so a sender always looks a little late (network, its own bookkeeping): the early
// tolerance is small, the late one generous. Both are stated in every report.
import { deliveryRules } from '../../generated/webhooks/catalog.js';

export interface TimingOptions {
  /** The sender's clock factor (1 = real time; the simulator's --time-scale). */
  timeScale?: number;
  /** Extra lateness allowed on every timed step, in real ms. Default 1000. */
  lateSlackMs?: number;
  /** How long to watch for deliveries that must not come, in real ms. Default: the longest retry delay, scaled. */
  quietMs?: number;
}

export interface TimingModel {
  timeScale: number;
  /** Attempt time-out, scaled. */
  timeoutMs: number;
  /** Retry n is due this long after attempt n ended (or started; see `from`). */
  retryDelaysMs: number[];
  from: 'end' | 'start';
  maxAttempts: number;
  /** Fraction of the expected value allowed either side of it (late side), and the absolute slack. */
  lateFraction: number;
  lateSlackMs: number;
  earlyFraction: number;
  earlySlackMs: number;
  quietMs: number;
}

export function timingModel(options: TimingOptions = {}): TimingModel {
  const timeScale = options.timeScale ?? 1;
  if (!(Number.isFinite(timeScale) && timeScale > 0)) throw new RangeError(`--time-scale must be a positive number, got ${timeScale}`);
  const retryDelaysMs = deliveryRules.retryDelaysSeconds.map((s) => s * 1000 * timeScale);
  return {
    timeScale,
    timeoutMs: deliveryRules.timeoutSeconds * 1000 * timeScale,
    retryDelaysMs,
    from: String(deliveryRules.retryDelayFrom).includes('start') ? 'start' : 'end',
    maxAttempts: deliveryRules.maxAttempts,
    lateFraction: 0.5,
    lateSlackMs: options.lateSlackMs ?? 1000,
    earlyFraction: 0.05,
    // Timers may fire a few ms early; loopback adds a little on the sender's side only.
    earlySlackMs: 15,
    quietMs: options.quietMs ?? Math.max(...retryDelaysMs, 250),
  };
}

export interface Window {
  min: number;
  max: number;
}

/** The accepted range for something expected `expectedMs` after its reference point. */
export function windowFor(t: TimingModel, expectedMs: number): Window {
  return {
    min: Math.max(0, expectedMs * (1 - t.earlyFraction) - t.earlySlackMs),
    max: expectedMs * (1 + t.lateFraction) + t.lateSlackMs,
  };
}

export function ms(value: number): string {
  if (value >= 1000) return `${+(value / 1000).toFixed(value >= 10_000 ? 1 : 3)} s`;
  return `${Math.round(value)} ms`;
}

/** The tolerance sentence printed in reports. */
export function describeTolerances(t: TimingModel): string {
  return (
    `each timed step must fall within [expected × ${1 - t.earlyFraction} − ${t.earlySlackMs} ms, expected × ${1 + t.lateFraction} + ${t.lateSlackMs} ms]` +
    ` measured at the subscriber (retry delays from the ${t.from} of the previous attempt); quiet periods ${ms(t.quietMs)}`
  );
}
