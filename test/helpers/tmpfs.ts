// A small tmpfs for tests of a full disk (or a file system out of inodes): mounted for real, on a new
// directory, unmounted after the test. Mounting needs the privilege to mount (CAP_SYS_ADMIN), which is
// tried for real once (being root is not enough in a restricted container) and named when missing.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

let probed: { ok: true } | { ok: false; why: string } | undefined;

/**
 * Whether this process may mount a tmpfs, found by mounting a 64 KB one for real (and unmounting it). When it
 * may not, why: the privilege, and what `mount` said.
 */
export function mountCapability(): { ok: true } | { ok: false; why: string } {
  if (probed) return probed;
  if (os.platform() !== 'linux') return (probed = { ok: false, why: `needs Linux to mount a tmpfs (this is ${os.platform()})` });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tmpfs-probe-'));
  try {
    const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0700', 'tmpfs', dir], { encoding: 'utf8' });
    if (r.status !== 0) {
      const said = (r.error?.message ?? r.stderr ?? '').trim().split('\n')[0];
      return (probed = { ok: false, why: `needs the privilege to mount a filesystem (CAP_SYS_ADMIN, as root outside a restricted container); \`mount -t tmpfs\` said: ${said || `exit ${r.status}`}` });
    }
    execFileSync('umount', [dir], { stdio: 'ignore' });
    return (probed = { ok: true });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A tmpfs with these mount options (`size=256k`, `nr_inodes=8`...) on a new directory, unmounted through
 * `defer`; undefined when this process may not mount one.
 */
export function mountTmpfs(options: string, defer: (fn: () => void) => void): string | undefined {
  if (!mountCapability().ok) return undefined;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `${options},mode=0700`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  defer(() => {
    // Lazy: libsql closes a database's file descriptors only once its prepared statements are garbage
    // collected (workbench/store/sqlite.ts), which may be after the test; the mount goes when they do.
    execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}
