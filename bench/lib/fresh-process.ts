// First-use costs measured where they happen: in a new Node process, with nothing warmed up. The
// script prints one number (milliseconds it timed itself); sides are run in turn, `runs` times each.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { median } from './alternate.js';

const exec = promisify(execFile);

export interface FreshSide {
  /** An .mjs file that prints the milliseconds of the work it times, and nothing else. */
  script: string;
  args?: string[];
}

async function once(side: FreshSide): Promise<number> {
  const { stdout } = await exec(process.execPath, [side.script, ...(side.args ?? [])], { maxBuffer: 1024 * 1024 });
  const ms = Number(stdout.trim());
  if (!Number.isFinite(ms)) throw new Error(`${side.script} printed ${JSON.stringify(stdout)}`);
  return ms;
}

/** Median milliseconds of each side over `runs` fresh processes, sides alternating. */
export async function freshProcessMedians(sides: Record<string, FreshSide>, runs = 9): Promise<Record<string, number>> {
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(sides).map((name) => [name, []]));
  for (let run = 0; run < runs; run++) {
    for (const [name, side] of Object.entries(sides)) samples[name].push(await once(side));
  }
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
}
