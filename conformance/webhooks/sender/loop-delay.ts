// How late the certifier's own event loop ran, and when. Arrivals and ends are stamped when the loop gets
// to them, so a stall (a busy machine, a garbage collection) makes a punctual sender look early or late by
// up to the stall: the timing rules widen each window by the stalls around the timestamps they compare,
// and the report states the longest one.
import { performance } from 'node:perf_hooks';

const PERIOD_MS = 5;
/** Lateness below this is timer jitter, not a stall. */
const JITTER_MS = 2;

export interface LoopDelay {
  /** The longest stall so far, in ms. */
  maxMs(): number;
  /** The longest stall touching any of these moments (performance.now() values), in ms. */
  around(...moments: Array<number | undefined>): number;
  /** Stops watching; returns maxMs(). */
  stop(): number;
}

export function watchLoopDelay(): LoopDelay {
  const stalls: Array<{ from: number; to: number }> = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const late = now - last - PERIOD_MS;
    if (late > JITTER_MS) stalls.push({ from: now - late, to: now });
    last = now;
  }, PERIOD_MS);
  timer.unref();
  const length = (s: { from: number; to: number }) => s.to - s.from;
  const maxMs = () => Math.ceil(stalls.reduce((m, s) => Math.max(m, length(s)), 0));
  return {
    maxMs,
    around(...moments) {
      let longest = 0;
      for (const at of moments) {
        if (at === undefined) continue;
        for (const s of stalls) if (s.from <= at + PERIOD_MS && s.to >= at - PERIOD_MS) longest = Math.max(longest, length(s));
      }
      return Math.ceil(longest);
    },
    stop() {
      clearInterval(timer);
      return maxMs();
    },
  };
}
