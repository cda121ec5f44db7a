// After the suite, no process a test started may still run (issue 38). vitest's globalSetup runs this in
// its main process: `setup` marks the run (an id in the environment every test's child inherits, the
// processes already alive) and the returned teardown lists, from /proc:
//   - the descendants of the vitest process, but vitest's own workers (direct children running vitest's
//     dist files) and esbuild's service (vite's, a direct child);
//   - any process whose environment carries this run's id, or the id of a run nested in it (a child that
//     was detached, or whose parent exited, is re-parented to init but keeps the environment it started with);
//   - any process started during the run whose working folder or command line points into the
//     repository's temporary folders (test-artifacts/, tmp/), unless its environment names another run.
// A process still dying when the suite ends is given time (the list is polled until empty, up to
// GRACE_MS: waiting on the state, not a sleep). What remains is named, pid and command line, on stderr,
// killed, and the run fails. Linux only (/proc); elsewhere the check says it is skipped.
// Off under Stryker (its workers run this config again and again in one process) and with
// SFC_LEFTOVER_CHECK=off.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';

export const RUN_ID_VARIABLE = 'SFC_TEST_RUN_ID';
/** How long a process may take to finish dying after the suite; SFC_LEFTOVER_GRACE_MS changes it (the check's own test). */
const GRACE_MS = Number(process.env.SFC_LEFTOVER_GRACE_MS ?? 10_000);
const repoRoot = path.resolve(import.meta.dirname, '../..');
/** The repository's temporary folders: what tests write and run in. */
export const TEMP_FOLDERS = ['test-artifacts', 'tmp'].map((f) => path.join(repoRoot, f));

export interface ProcessInfo {
  pid: number;
  ppid: number;
  state: string;
  /** Start time in clock ticks since boot (/proc/<pid>/stat field 22). */
  start: number;
  argv: string[];
  cwd?: string;
  /** The environment's value of RUN_ID_VARIABLE, when readable and set. */
  runId?: string;
}

function readProcess(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // `pid (comm) state ppid ...`: comm may hold spaces and parentheses, so split after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    let cwd: string | undefined;
    let runId: string | undefined;
    try {
      cwd = readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      // another user's process, or gone
    }
    try {
      const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      runId = env.find((e) => e.startsWith(`${RUN_ID_VARIABLE}=`))?.slice(RUN_ID_VARIABLE.length + 1);
    } catch {
      // unreadable
    }
    return { pid, ppid: Number(fields[1]), state: fields[0], start: Number(fields[19]), argv, cwd, runId };
  } catch {
    return undefined; // exited while being read
  }
}

export function listProcesses(): ProcessInfo[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readProcess(Number(name)))
    .filter((p): p is ProcessInfo => p !== undefined);
}

/** vitest's own helpers: a worker (a direct child of vitest, titled by it or running its dist files) or vite's esbuild service. */
export function isRunnerProcess(p: ProcessInfo, mainPid: number): boolean {
  if (p.ppid !== mainPid) return false;
  const command = p.argv.join(' ');
  // A forks worker names itself `node (vitest N)` (process.title, which is what /proc shows as its command line).
  // Before that, it runs tinypool's process entry (a worker the pool starts as another ends).
  // tinypool also counts the physical cores with a shell (`cat /proc/cpuinfo | grep "physical id" | ...`),
  // which a loaded machine can still be running when the check looks (a fresh clone's CI run saw it once).
  return (
    /^node \(vitest \d+\)$/.test(command) ||
    /[\\/](vitest[\\/]dist|tinypool[\\/]dist[\\/]entry)[\\/]/.test(command) ||
    /[\\/]esbuild\b.*--service/.test(command) ||
    isCpuProbe(p)
  );
}

/**
 * tinypool's count of the physical cores: a shell pipeline (`cat /proc/cpuinfo | grep "physical id" | sort |
 * uniq | wc -l`, then the same for "core id") that vitest and each of its workers run as they load it. Its
 * pipeline's `cat`, `grep`, `sort`, `uniq` and `wc` may still run when the check looks (a fresh clone's CI
 * run saw a worker's probe and its `wc -l`).
 */
function isCpuProbe(p: ProcessInfo): boolean {
  return /^\/bin\/sh -c cat \/proc\/cpuinfo \| grep "(physical|core) id"/.test(p.argv.join(' '));
}

/** A run id is this run's, or a run nested in it (a suite a test of this run started: `<outer>/<inner>`). */
const ownRun = (id: string | undefined, runId: string) => id !== undefined && (id === runId || id.startsWith(`${runId}/`));

const inside = (file: string | undefined, folders: string[]) => file !== undefined && folders.some((f) => file === f || file.startsWith(`${f}${path.sep}`));

/**
 * The processes the run left: descendants of `mainPid`, carriers of `runId`, or started after `since`
 * (clock ticks) and pointing into `tempFolders`; never `mainPid`, vitest's own helpers, a zombie (dead,
 * awaiting its parent) or a process alive before the run (`before`).
 */
export function findLeftovers(all: ProcessInfo[], o: { mainPid: number; runId: string; since: number; before: Set<number>; tempFolders: string[] }): ProcessInfo[] {
  const children = new Map<number, ProcessInfo[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  // The core-count probes of vitest and its workers (each imports tinypool), with their pipelines: never
  // leftovers. One a test started is that test's, and judged.
  const runners = new Set(all.filter((p) => isRunnerProcess(p, o.mainPid)).map((p) => p.pid));
  const probes = new Set<number>();
  const mark = (p: ProcessInfo) => {
    probes.add(p.pid);
    for (const c of children.get(p.pid) ?? []) mark(c);
  };
  for (const p of all) if (isCpuProbe(p) && (p.ppid === o.mainPid || runners.has(p.ppid))) mark(p);
  const found = new Map<number, ProcessInfo>();
  const walk = (pid: number) => {
    for (const c of children.get(pid) ?? []) {
      if (found.has(c.pid) || probes.has(c.pid)) continue;
      if (!isRunnerProcess(c, o.mainPid)) found.set(c.pid, c);
      walk(c.pid);
    }
  };
  walk(o.mainPid);
  for (const p of all) {
    if (p.pid === o.mainPid || found.has(p.pid) || probes.has(p.pid) || isRunnerProcess(p, o.mainPid)) continue;
    const marked = ownRun(p.runId, o.runId);
    // A process of another run (an outer suite whose test started this nested one, or a sibling run) is that
    // run's to judge: the MSW guide's own vitest once killed the guides test's tsc, which pointed into test-artifacts/.
    const anotherRun = p.runId !== undefined && !marked;
    const pointsIn = !anotherRun && p.start >= o.since && !o.before.has(p.pid) && (inside(p.cwd, o.tempFolders) || p.argv.some((a) => o.tempFolders.some((f) => a.includes(f))));
    if (marked || pointsIn) found.set(p.pid, p);
  }
  return [...found.values()].filter((p) => p.state !== 'Z' && p.pid !== o.mainPid && !o.before.has(p.pid));
}

/** A command line fit to print: values of flags that carry credentials, and webhook secrets, hidden. */
export function describeProcess(p: ProcessInfo): string {
  const argv = p.argv.map((a, i) => (i > 0 && /^--?[\w-]*(secret|token|password|api-key|key)$/i.test(p.argv[i - 1]) ? '[redacted]' : a.replace(/(--?[\w-]*(?:secret|token|password|api-key|key)=)\S+/gi, '$1[redacted]').replace(/whsec_\S+/g, 'whsec_[redacted]')));
  return `pid ${p.pid} (parent ${p.ppid}${p.cwd ? `, in ${p.cwd}` : ''}): ${argv.join(' ').slice(0, 500)}`;
}

function ownStartTicks(): number {
  return readProcess(process.pid)?.start ?? 0;
}

export default function setup(): (() => Promise<void>) | undefined {
  if (process.env.STRYKER_MUTATOR_WORKER !== undefined || process.env.SFC_LEFTOVER_CHECK === 'off') return undefined;
  if (process.platform !== 'linux') {
    console.warn('leftover-processes: not checked (it reads /proc, Linux only)');
    return undefined;
  }
  // Nested in an outer run (a test that runs vitest again: the MSW guide, this check's own test), the id
  // extends the outer one, so the outer run still counts this run's processes as its own, and this run
  // leaves the outer run's alone.
  const outer = process.env[RUN_ID_VARIABLE];
  const runId = outer ? `${outer}/${randomUUID()}` : randomUUID();
  process.env[RUN_ID_VARIABLE] = runId;
  const before = new Set(listProcesses().map((p) => p.pid));
  // Started after the vitest process (and not alive now: `before`), so a reused pid is not taken for one of ours.
  const since = ownStartTicks();
  return async () => {
    const options = { mainPid: process.pid, runId, since, before, tempFolders: TEMP_FOLDERS };
    const deadline = Date.now() + GRACE_MS;
    let left = findLeftovers(listProcesses(), options);
    while (left.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      left = findLeftovers(listProcesses(), options);
    }
    if (left.length === 0) return;
    const lines = left.map(describeProcess);
    for (const p of left) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    const message = `LEFTOVER PROCESSES: ${left.length} process${left.length === 1 ? '' : 'es'} started by the tests still ran ${GRACE_MS / 1000} s after the suite (now killed); stop each in afterAll/finally:\n${lines.map((l) => `  ${l}`).join('\n')}`;
    console.error(`\n${message}\n`);
    process.exitCode = 1;
    throw new Error(message);
  };
}
