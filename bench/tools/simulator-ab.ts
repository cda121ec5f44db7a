// npx tsx --conditions=sfc-source bench/tools/simulator-ab.ts [memory|disk] [reps]
// The simulator fan-out suite (bench/suites/simulator.ts) with the sending thread on and off, alternated
// in one process (thread first, then main, then main first...), each measurement against its own undici
// baseline: a design change judged on a loaded machine by the ratios of the same run (bench/NOTES.md).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from '../lib/alternate.js';
import { measure } from '../suites/simulator.js';

const disk = process.argv[2] === 'disk';
const reps = Number(process.argv[3] ?? 2);
const ratios: Record<'thread' | 'main', number[]> = { thread: [], main: [] };
for (let i = 0; i < reps; i++) {
  for (const side of i % 2 ? (['main', 'thread'] as const) : (['thread', 'main'] as const)) {
    const dir = disk ? mkdtempSync(path.join(os.tmpdir(), 'simulator-ab-')) : undefined;
    try {
      const [m] = await measure(dir, side, 3);
      ratios[side].push(m.ratio);
      const notes = m.notes ?? '';
      console.log(`${side.padEnd(6)} ${disk ? 'disk' : 'memory'} ratio ${m.ratio.toFixed(3)}  load ${os.loadavg()[0].toFixed(1)}  ${notes.slice(notes.indexOf('(subject'), notes.indexOf(')') + 1)}`);
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  }
}
console.log(`median ratio: thread ${median(ratios.thread).toFixed(3)} (${ratios.thread.map((r) => r.toFixed(2)).join(' ')}), main ${median(ratios.main).toFixed(3)} (${ratios.main.map((r) => r.toFixed(2)).join(' ')})`);
process.exit(0);
