// The delivery timings the contract promises (x-delivery-rules, read through the generated catalog) at one
// time scale, and the tolerances the sender certifier applies to them. Measurements are taken on the
// subscriber side, so a sender always looks a little late (network, its own bookkeeping): the early
// tolerance is small, the late one generous. Both widen by the stalls of the certifier's own event loop
// around the timestamps compared (on a busy machine its stamps are late by up to a stall). All are stated
// in every report.
import { deliveryRules } from 'storefront-contract';

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
  /** The certifier's longest event-loop stall during the run, in ms (reported; the phases wait this much longer). */
  measuredDelayMs: number;
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

export interface Window {
  min: number;
  max: number;
}

/**
 * The accepted range for something expected `expectedMs` after its reference point, each side widened by
 * `stampDelayMs`: how late the certifier may have stamped the moments compared.
 */
export function windowFor(t: TimingModel, expectedMs: number, stampDelayMs = 0): Window {
  return {
    min: Math.max(0, expectedMs * (1 - t.earlyFraction) - t.earlySlackMs - stampDelayMs),
    max: expectedMs * (1 + t.lateFraction) + t.lateSlackMs + stampDelayMs,
  };
}

/** How late the certifier may have stamped any of these deliveries (see CapturedDelivery.stampDelayMs). */
export function stampDelay(...deliveries: Array<{ stampDelayMs?: number } | undefined>): number {
  return Math.max(0, ...deliveries.map((d) => d?.stampDelayMs ?? 0));
}

/**
 * Whether our answer to an attempt surely reached the sender before its time-out: it ended before the
 * earliest time-out the windows accept. Otherwise the sender may rightly have counted the attempt as
 * failed (and retried), so what follows it cannot be judged as a reaction to our answer.
 */
export function answeredInTime(t: TimingModel, attempt: { receivedAt: number; endedAt?: number; stampDelayMs?: number }): boolean {
  return attempt.endedAt !== undefined && attempt.endedAt - attempt.receivedAt < windowFor(t, t.timeoutMs, stampDelay(attempt)).min;
}

/** Why what followed an attempt is not judged, when our answer may have come too late for the sender. */
export function lateAnswerReason(t: TimingModel, attempt: { seq: number; receivedAt: number; endedAt?: number; stampDelayMs?: number }): string {
  const took = attempt.endedAt === undefined ? 'did not end' : `took ${ms(attempt.endedAt - attempt.receivedAt)}`;
  return `our answer to delivery #${attempt.seq} ${took}, with a ${Math.round(stampDelay(attempt))} ms stall of the certifier's event loop around it: too close to the sender's ${ms(t.timeoutMs)} time-out to tell (use a larger --time-scale)`;
}

export function ms(value: number): string {
  if (value >= 1000) return `${+(value / 1000).toFixed(value >= 10_000 ? 1 : 3)} s`;
  return `${Math.round(value)} ms`;
}

/** The tolerance sentence printed in reports. */
export function describeTolerances(t: TimingModel): string {
  return (
    `each timed step must fall within [expected × ${1 - t.earlyFraction} − ${t.earlySlackMs} ms, expected × ${1 + t.lateFraction} + ${t.lateSlackMs} ms]` +
    ` measured at the subscriber (retry delays from the ${t.from} of the previous attempt)` +
    `, each side widened by the stalls of the certifier's own event loop around the timestamps compared (the longest in this run: ${Math.round(t.measuredDelayMs)} ms); quiet periods ${ms(t.quietMs)}`
  );
}
