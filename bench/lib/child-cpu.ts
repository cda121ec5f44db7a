// CPU time and resident memory of a child process, for benchmarks that time a server in a process of its own.
import { readFileSync } from 'node:fs';

/** CPU milliseconds (user + system) of process `pid`, from /proc (Linux; 0 elsewhere or once it exited). */
export function childCpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 per second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** Resident set size of process `pid` in MB, from /proc (Linux; undefined elsewhere or once it exited). */
export function childRssMB(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}
