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
