// CPU time a child process has used so far, for benchmarks that time a server in a process of its own.
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
