// The delivery timings the contract promises (x-delivery-rules, read through the generated catalog) at one
// time scale, and the tolerances the sender certifier applies to them. Measurements are taken on the
// subscriber side, so a sender always looks a little late (network, its own bookkeeping): the early
// tolerance is small, the late one generous. Both widen by the stalls of the certifier's own event loop
// around the timestamps compared (on a busy machine its stamps are late by up to a stall). All are stated
// in every report. The model's type and the windows the rules judge with live with the rules
// (rules/observations/webhooks.ts, rules/shared/timing.ts).
import { deliveryRules } from 'storefront-contract';
import type { TimingModel } from '../rules/observations/webhooks.js';
import { ms } from '../rules/shared/timing.js';

export interface TimingOptions {
  /** The sender's clock factor (1 = real time; the simulator's --time-scale). */
  timeScale?: number;
  /** Extra lateness allowed on every timed step, in real ms. Default 1000. */
  lateSlackMs?: number;
  /** How long to watch for deliveries that must not come, in real ms. Default: the longest retry delay, scaled. */
  quietMs?: number;
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
    measuredDelayMs: 0,
  };
}

/** The model with the longest event-loop stall measured so far. */
export function withMeasuredDelay(t: TimingModel, delayMs: number): TimingModel {
  return { ...t, measuredDelayMs: Math.max(t.measuredDelayMs, delayMs) };
}

/** The tolerance sentence printed in reports. */
export function describeTolerances(t: TimingModel): string {
  return (
    `each timed step must fall within [expected × ${1 - t.earlyFraction} − ${t.earlySlackMs} ms, expected × ${1 + t.lateFraction} + ${t.lateSlackMs} ms]` +
    ` measured at the subscriber (retry delays from the ${t.from} of the previous attempt)` +
    `, each side widened by the stalls of the certifier's own event loop around the timestamps compared (the longest in this run: ${Math.round(t.measuredDelayMs)} ms); quiet periods ${ms(t.quietMs)}`
  );
}
