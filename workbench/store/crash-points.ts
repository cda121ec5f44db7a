// Test hooks for the crash tests of the store (test/store/outbox-crash.test.ts): the process kills itself
// with SIGKILL the n-th time it reaches a named point between a write and its delivery, set by
// `SFC_TEST_CRASH_AT=<point>:<n>`. Unset (always, outside those tests) a point costs one comparison.
export const CRASH_POINTS = [
  /** A write and its events are in the transaction, not committed. */
  'write-uncommitted',
  /** Committed, not answered. */
  'write-committed',
  /** Attempts claimed (in flight, leased), not sent. */
  'attempts-claimed',
  /** An attempt's answer received (the receiver has the event), not recorded. */
  'attempt-answered',
] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];

let armed: { point: string; left: number } | null | undefined;

export function crashPoint(point: CrashPoint): void {
  if (armed === undefined) {
    // Read lazily: the in-memory store also runs in the browser (MSW), where there is no process.env.
    const spec = typeof process === 'undefined' ? undefined : process.env.SFC_TEST_CRASH_AT;
    const m = spec ? /^([a-z-]+):(\d+)$/.exec(spec) : null;
    armed = m ? { point: m[1]!, left: Number(m[2]) } : null;
  }
  if (armed === null || armed.point !== point) return;
  if (--armed.left <= 0) process.kill(process.pid, 'SIGKILL');
}
