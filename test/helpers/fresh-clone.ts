// A `git clone` of this repository with nothing built, for tests of what a new contributor runs first.
//
// The clone is real (`git clone --shared`, checked out at HEAD plus the tracked changes of the working
// tree, `git stash create`; untracked and ignored files are not in it, as in any clone): no dist/, no
// docs/site/, no build or test caches. `npm ci` is not run in it (1-2 minutes and 1.5 GB); its
// node_modules is a real folder whose entries are links to this checkout's installed packages, the tree
// `npm ci` makes from the same lock, except:
//   - the workspace links (`storefront-contract`, `storefront-contract-tools`: whatever links into
//     ../packages/) point at the clone's own packages/, which have no dist/, not at this checkout's,
//     where `npm run build` (the packed-install test) may have left one;
//   - the dot folders (.vite: vitest's results; .cache: build caches) are left out, as a fresh install has none.
// Children get the environment a shell would give them: without vitest's variables and without the
// `--conditions=sfc-source` this suite adds to NODE_OPTIONS (with it, a script that forgets the
// condition would still find the sources, which is how `npm run docs` broke unseen).
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readlink, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../scripts/lib/repo.js';
import { run } from './run.js';
import { hangGuard } from './hang-guard.js';

export interface FreshClone {
  dir: string;
  /** The commit checked out: HEAD, or a commit of HEAD plus the working tree's tracked changes. */
  commit: string;
  env: NodeJS.ProcessEnv;
  remove(): Promise<void>;
}

async function git(args: string[], cwd: string): Promise<string> {
  const result = await run('git', args, { cwd, timeoutMs: hangGuard(60_000) });
  if (result.code !== 0) throw new Error(`git ${args.join(' ')} failed in ${cwd}: ${result.output}`);
  return result.stdout.trim();
}

/** The environment of a terminal: this process's, less what vitest and this suite's config add. */
export function shellEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const key of Object.keys(env)) if (/^(__)?VITEST/.test(key) || key === 'TEST') delete env[key];
  if (env.NODE_ENV === 'test') delete env.NODE_ENV;
  const nodeOptions = (env.NODE_OPTIONS ?? '').split(/\s+/).filter((o) => o && o !== '--conditions=sfc-source');
  if (nodeOptions.length) env.NODE_OPTIONS = nodeOptions.join(' ');
  else delete env.NODE_OPTIONS;
  delete env.FORCE_COLOR;
  return env;
}

export async function freshClone(): Promise<FreshClone> {
  const parent = await mkdtemp(path.join(os.tmpdir(), 'sfc-clone-'));
  const dir = path.join(parent, 'storefront-contract');
  const identity = ['-c', 'user.name=fresh-clone test', '-c', 'user.email=fresh-clone@localhost'];
  const commit = (await git([...identity, 'stash', 'create'], repoRoot)) || (await git(['rev-parse', 'HEAD'], repoRoot));
  // --shared: the clone reads this repository's objects (the stash commit among them) instead of copying them.
  await git(['clone', '--quiet', '--shared', '--no-checkout', repoRoot, dir], parent);
  await git(['-c', 'advice.detachedHead=false', 'checkout', '--quiet', '--detach', commit], dir);

  const installed = path.join(repoRoot, 'node_modules');
  const modules = path.join(dir, 'node_modules');
  await mkdir(modules);
  for (const entry of await readdir(installed)) {
    if (entry.startsWith('.') && entry !== '.bin') continue;
    const target = await readlink(path.join(installed, entry)).catch(() => undefined);
    const workspace = target !== undefined && /^\.\.[\\/]packages[\\/]/.test(target);
    await symlink(workspace ? target : path.join(installed, entry), path.join(modules, entry), 'dir');
  }
  return { dir, commit, env: shellEnv(), remove: () => rm(parent, { recursive: true, force: true }) };
}

export interface Spawned {
  child: ChildProcess;
  /** stdout and stderr as they arrive. */
  output(): string;
  /** Resolves with the output so far once it matches `pattern`; rejects if the process ends first. */
  waitFor(pattern: RegExp): Promise<string>;
  /** Resolves once the process and every process of its group holding its output have ended. */
  closed: Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>;
  /**
   * SIGTERM to the process that does the work (the innermost node process, under npm, its shell and tsx),
   * as a service manager stops it; the processes above it exit with it. Not to the whole group, as Ctrl-C
   * would: tsx relays a signal it gets to its child and SIGKILLs the child unless it confirms within 30 ms,
   * which a loaded machine misses, so the child would die before its own shutdown (and what it prints).
   */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>;
}

/** Starts `command` in the clone as the leader of its own process group, so `stop()` reaches its children. */
export function spawnIn(clone: FreshClone, command: string, args: string[]): Spawned {
  const child = spawn(command, args, { cwd: clone.dir, env: clone.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const waiters: Array<() => void> = [];
  const onData = (chunk: Buffer) => {
    output += chunk;
    for (const w of waiters.slice()) w();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, output }));
  });
  const group = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // The group has already ended.
    }
  };
  return {
    child,
    output: () => output,
    closed,
    waitFor(pattern) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!pattern.test(output)) return;
          waiters.splice(waiters.indexOf(check), 1);
          resolve(output);
        };
        waiters.push(check);
        check();
        void closed.then(() => reject(new Error(`\`${command} ${args.join(' ')}\` ended before printing ${pattern}:\n${output}`)));
      });
    },
    async stop() {
      const leaves = groupLeaves(child.pid!);
      if (leaves.length === 0) group('SIGTERM');
      for (const pid of leaves) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // Already gone.
        }
      }
      // Not a timing assertion: a group that ignores SIGTERM is killed so no process outlives the test.
      const force = setTimeout(() => group('SIGKILL'), 20_000);
      try {
        return await closed;
      } finally {
        clearTimeout(force);
      }
    },
  };
}

/**
 * The node processes of group `pgid` with no node process under them: the one running the command's
 * code, not npm, its shell, tsx's launcher or the esbuild service tsx's loader starts (from /proc: Linux).
 */
function groupLeaves(pgid: number): number[] {
  const members = new Map<number, { ppid: number; node: boolean }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so read after the last ')'.
      const [, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const node = readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'node';
      if (Number(pgrp) === pgid) members.set(Number(entry), { ppid: Number(ppid), node });
    } catch {
      // The process ended while listing.
    }
  }
  const nodeParents = new Set([...members.values()].filter((m) => m.node).map((m) => m.ppid));
  return [...members].filter(([pid, m]) => m.node && !nodeParents.has(pid)).map(([pid]) => pid);
}
