// Certify scaling rows: `certify --generate N` against the sandbox for N = 10 / 100 / 1,000 generated
// valid and invalid requests per operation, in this process: cases sent, seconds of the generative
// phase, cases per second and peak RSS. The replay before it is the same in every row and not counted.
import { certify } from '../../conformance/rest/certify.js';
import { createWorkbench } from '../../workbench/index.js';

export const GENERATED_CASES = [10, 100, 1000];
const API_KEY = 'sk_bench_scaling_0000000000';

export interface CertifyRow {
  casesPerOperation: number;
  cases?: number;
  seconds?: number;
  casesPerSecond?: number;
  peakRssMB?: number;
  verdict?: string;
  notMeasured?: string;
}

export async function certifyRows(): Promise<CertifyRow[]> {
  const rows: CertifyRow[] = [];
  for (const n of GENERATED_CASES) {
    process.stderr.write(`scaling: certify --generate ${n} against a fresh sandbox\n`);
    // A fresh sandbox per row: each row creates customers, so rows would otherwise see different worlds.
    const sandbox = await createWorkbench({ port: 0, quiet: true, apiKeys: [API_KEY], webhooks: false, preloadPrism: true });
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
    try {
      const { certificate } = await certify({ baseUrl: sandbox.url, apiKey: API_KEY, generate: n, seed: 42, concurrency: 4 });
      const g = certificate.generation!;
      rows.push({
        casesPerOperation: n,
        cases: g.cases,
        seconds: Number((g.durationMs / 1000).toFixed(1)),
        casesPerSecond: Math.round((g.cases / g.durationMs) * 1000),
        peakRssMB: Math.round(peak / 1024 / 1024),
        verdict: certificate.verdict,
      });
    } catch (e) {
      rows.push({ casesPerOperation: n, notMeasured: String((e as Error).message).split('\n')[0].slice(0, 200) });
    } finally {
      clearInterval(sampler);
      await sandbox.close();
    }
  }
  return rows;
}
