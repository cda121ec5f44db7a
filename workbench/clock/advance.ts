// Moving a store's clock forward the way time would pass: every webhook attempt that falls due on the way
// is sent at its own due time, in order, and its answer is recorded before the clock moves on, so a
// failing receiver's retry ladder plays out (attempt 2 five seconds after attempt 1 ends, ...) and a 410
// disables the subscription at the time it was answered. Between two due attempts the clock jumps; during
// an attempt it runs, so durations and the next due time are real.
import type { Clocks } from './clocks.js';

/** What the clock needs from the webhook simulator (workbench/simulator/index.ts `dueWork`). */
export interface DueWork {
  /** The store's earliest scheduled attempt (store time), if any. */
  nextDueOf(storeId: string): number | undefined;
  /** Attempts of the store on the wire now. */
  inFlightOf(storeId: string): number;
  /** Asks the scheduler to claim what is due now. */
  kick(): void;
  /** Resolves when the next attempt (of any store) is recorded, or after `ms`. */
  nextAttempt(ms: number): Promise<void>;
  /**
   * Counts the store's attempts recorded from now on whose due time (store time) is after `after`, until
   * `stop()`: what an advance reports as sent on the way (one due time can hold many attempts).
   */
  countAttempts(storeId: string, after: number): { readonly count: number; stop(): void };
}

/** The longest a single HTTP request waits for an advance; the rest goes on in the background (GET shows it). */
export const ADVANCE_WAIT_MS = 30_000;
/** A bound on the due times one advance steps through (a store has at most a few hundred pending). */
const MAX_STEPS = 100_000;

/**
 * Moves `storeId`'s clock to `target` through every attempt due on the way (see above), then leaves it
 * frozen or running as `frozen` says; answers how many attempts fell due on the way and were sent (each
 * step jumps to one due time, which may hold any number of attempts). Without webhook work it simply sets
 * the clock.
 */
export async function advanceClock(clocks: Clocks, work: DueWork | undefined, storeId: string, target: number, frozen: boolean): Promise<number> {
  let sent = 0;
  const start = clocks.now(storeId);
  if (work && target > start) {
    const counter = work.countAttempts(storeId, start);
    try {
      for (let steps = 0; ; steps++) {
        await drain(clocks, work, storeId);
        const due = work.nextDueOf(storeId);
        if (due === undefined || due > target || steps >= MAX_STEPS) break;
        // Jump to the attempt's due time and let the clock run while it is on the wire. (drain() has just
        // sent what was due at the store's time, so `due` is ahead of it unless the wall clock ticked between
        // the two reads; then it is kicked, not jumped back to.)
        // Stryker disable next-line ConditionalExpression,EqualityOperator: after drain() nothing is due at or before the store's time, unless the wall clock ticks between two reads, which no test can place
        if (due > clocks.now(storeId)) clocks.set(storeId, due, false);
        else work.kick();
      }
    } finally {
      sent = counter.count;
      counter.stop();
    }
  }
  clocks.set(storeId, target, frozen);
  return sent;
}

/** Waits until nothing of the store is on the wire and nothing is due at its current time. */
async function drain(clocks: Clocks, work: DueWork, storeId: string): Promise<void> {
  for (;;) {
    const due = work.nextDueOf(storeId);
    const onTheWire = work.inFlightOf(storeId) > 0;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: what is due at the store's time is also kicked by advanceClock's loop (its else branch), so this check only saves a step
    const dueNow = due !== undefined && due <= clocks.now(storeId);
    if (!onTheWire && !dueNow) return;
    work.kick();
    await work.nextAttempt(50);
  }
}

/** `P1DT2H30M`, `PT90S`, `P2W`: an ISO 8601 duration of weeks, days, hours, minutes and seconds, in ms. */
export function parseDuration(text: string): number | undefined {
  const m = /^P(?:(\d{1,6})W)?(?:(\d{1,6})D)?(?:T(?:(\d{1,6})H)?(?:(\d{1,6})M)?(?:(\d{1,9}(?:\.\d{1,3})?)S)?)?$/.exec(text);
  if (!m || text === 'P' || text.endsWith('T')) return undefined;
  const [, w, d, h, min, s] = m;
  return ((Number(w ?? 0) * 7 + Number(d ?? 0)) * 86_400 + Number(h ?? 0) * 3600 + Number(min ?? 0) * 60 + Number(s ?? 0)) * 1000;
}
