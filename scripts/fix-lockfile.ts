// npm run lockfile:fix
// The npm registry reachable from these machines lacks some other-platform binaries (for example
// @rollup/rollup-android-arm-eabi, @next/swc-darwin-arm64@15): npm install silently drops optional
// dependencies it cannot resolve, and `npm ci` then refuses the lock ("Missing: ... from lock file").
// This adds an entry for each missing optional dependency, with the os/cpu its name states, so
// `npm ci` sees a complete lock and skips them on this platform as it would any foreign binary.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './lib/repo.js';

const OS = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openbsd', 'netbsd', 'sunos', 'aix', 'openharmony'];
const CPU: Array<[RegExp, string]> = [
  [/arm64|aarch64/, 'arm64'], [/x64|x86_64|amd64/, 'x64'], [/ia32|x86(?!_)/, 'ia32'], [/riscv64/, 'riscv64'],
  [/ppc64/, 'ppc64'], [/s390x/, 's390x'], [/loong64/, 'loong64'], [/wasm32/, 'wasm32'], [/arm/, 'arm'],
];

function platformOf(name: string): { os?: string[]; cpu?: string[] } {
  const base = name.split('/').pop()!;
  const os = /windows/.test(base) ? 'win32' : OS.find((o) => base.includes(o));
  const cpu = CPU.find(([re]) => re.test(base))?.[1];
  return { ...(os ? { os: [os] } : {}), ...(cpu ? { cpu: [cpu] } : {}) };
}

/**
 * Where node would find `name` from the package at `location` (nested first, then each ancestor): whether
 * that entry is `version`, or, with no version (a range, which npm checks), whether there is one at all.
 */
function resolves(packages: Record<string, any>, location: string, name: string, version?: string): boolean {
  let at = location;
  for (;;) {
    const candidate = at ? `${at}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[candidate]) return version === undefined || packages[candidate].version === version;
    if (!at) return false;
    const idx = at.lastIndexOf('/node_modules/');
    at = idx === -1 ? '' : at.slice(0, idx);
  }
}

const file = path.join(repoRoot, 'package-lock.json');
const lock = JSON.parse(readFileSync(file, 'utf8'));
const added: string[] = [];
for (const [location, entry] of Object.entries<any>({ ...lock.packages })) {
  for (const [name, wanted] of Object.entries<string>(entry.optionalDependencies ?? {})) {
    // An exact version, or the lowest of a caret or tilde range (`^0.1.0`: 0.1.0 satisfies it).
    const version = /^[\^~]?(\d+\.\d+\.\d+)$/.exec(wanted)?.[1];
    if (!version || resolves(lock.packages, location, name, version === wanted ? version : undefined)) continue;
    const target = location ? `${location}/node_modules/${name}` : `node_modules/${name}`;
    lock.packages[target] = { version, optional: true, ...platformOf(name) };
    added.push(`${target}@${version}`);
  }
}
// Keep npm's own key order (sorted) so the diff stays small.
const [rootKey, ...rest] = Object.keys(lock.packages);
lock.packages = Object.fromEntries([rootKey, ...rest.sort()].map((k) => [k, lock.packages[k]]));
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length ? `lockfile:fix: added ${added.length} optional entries:\n  ${added.join('\n  ')}` : 'lockfile:fix: nothing missing');
