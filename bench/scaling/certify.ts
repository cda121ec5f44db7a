// Certify scaling rows: generated cases per operation (10 / 100 / 1,000) with `certify --generate N`.
// That option is being added by the lead (conformance/rest/generate/); until it exists on this branch the
// rows say so instead of holding numbers. Hook: once `certify --generate` exists, this measures each N by
// running the CLI against the embedded workbench and timing it, as below.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../../src/contract/spec-files.js';

const exec = promisify(execFile);
export const GENERATED_CASES = [10, 100, 1000];

export interface CertifyRow {
  casesPerOperation: number;
  seconds?: number;
  peakRssMB?: number;
  notMeasured?: string;
}

export async function certifyRows(): Promise<CertifyRow[]> {
  if (!existsSync(path.join(repoRoot, 'conformance/rest/generate'))) {
    return GENERATED_CASES.map((n) => ({ casesPerOperation: n, notMeasured: 'certify --generate is not on this branch yet (lead: run npm run bench -- --scaling certify once it is)' }));
  }
  const rows: CertifyRow[] = [];
  for (const n of GENERATED_CASES) {
    process.stderr.write(`scaling: certify --generate ${n}\n`);
    const started = performance.now();
    try {
      // /usr/bin/time is not everywhere; the child reports nothing about memory, so only time is taken here.
      await exec(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'cli/storefront-contract.ts'), 'certify', '--generate', String(n)], {
        cwd: repoRoot,
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, STOREFRONT_API_KEY: process.env.STOREFRONT_API_KEY ?? 'sk_bench_scaling_0000000000' },
      });
      rows.push({ casesPerOperation: n, seconds: Number(((performance.now() - started) / 1000).toFixed(1)) });
    } catch (e) {
      rows.push({ casesPerOperation: n, notMeasured: String((e as Error).message).split('\n')[0].slice(0, 200) });
    }
  }
  return rows;
}
