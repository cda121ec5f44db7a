// Judging timings of the webhook sender rules: the window a timed step must fall in under the run's
// TimingModel, widened by the stalls of the certifier's own event loop around the timestamps compared,
// and whether our answer surely reached the sender before its time-out.
import type { TimingModel } from '../observations/webhooks.js';

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

/**
 * A duration for messages: whole ms under a second, else seconds to the ms. Never coarser: a finding at the
 * edge of a window (came 28.484 s, accepted from 28.485 s) must show why it is outside.
 */
export function ms(value: number): string {
  if (value >= 1000) return `${+(value / 1000).toFixed(3)} s`;
  return `${Math.round(value)} ms`;
}
