// Timing two or more functions fairly on a shared, busy machine: short rounds taken in turn, so a
// burst of load from elsewhere hits every side alike, and the median round per side as its figure.

export interface AlternateOptions {
  rounds?: number;
  roundMs?: number;
  warmupCalls?: number;
}

/** Median milliseconds per call of each task. */
export function alternate(tasks: Record<string, () => unknown>, options: AlternateOptions = {}): Record<string, number> {
  const { rounds = 21, roundMs = 100, warmupCalls = 50 } = options;
  const entries = Object.entries(tasks);
  for (const [, task] of entries) for (let i = 0; i < warmupCalls; i++) task();
  const samples = new Map<string, number[]>(entries.map(([name]) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, task] of entries) {
      let calls = 0;
      const started = performance.now();
      let elapsed = 0;
      while (elapsed < roundMs) {
        task();
        calls++;
        elapsed = performance.now() - started;
      }
      samples.get(name)!.push(elapsed / calls);
    }
  }
  return Object.fromEntries(entries.map(([name]) => [name, median(samples.get(name)!)]));
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export interface Tally {
  /** Items done (exchanges, cases, deliveries). */
  n: number;
  ms: number;
}

/**
 * Asynchronous runs timed in turn, one warm-up each, then `rounds` rounds whose order flips every round
 * so drift in the machine's state hits every side alike: the totals per side.
 */
export async function alternateRuns<K extends string>(sides: Record<K, () => Promise<Tally>>, rounds: number): Promise<Record<K, Tally>> {
  const names = Object.keys(sides) as K[];
  for (const name of names) await sides[name]();
  const total = Object.fromEntries(names.map((name) => [name, { n: 0, ms: 0 }])) as Record<K, Tally>;
  for (let round = 0; round < rounds; round++) {
    for (const name of round % 2 ? [...names].reverse() : names) {
      const r = await sides[name]();
      total[name].n += r.n;
      total[name].ms += r.ms;
    }
  }
  return total;
}

/** Items per second of a tally. */
export const perSecond = (t: Tally): number => (t.n / t.ms) * 1000;
