// Issue 37 item 1: every command of the README's "Commands" table works in a fresh clone, where nothing is
// built (no dist/: the packages' names resolve to their TypeScript sources only under the `sfc-source`
// export condition, which each npm script must pass itself). The list of commands is read from the
// table, so a new row fails here until this file runs it; each runs in its cheapest form that still
// starts the command's own code: `--help` where the real work takes tens of seconds (the docs build,
// generate, build, lint, bench), the real thing where it takes a second or two, and `npm start` for as
// long as it takes to print its banner, answer a request and deliver one webhook to `webhooks listen`.
// With `--help`, every static import of the script is loaded before the help is printed, which is where
// a missing condition failed (ERR_MODULE_NOT_FOUND).
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { freshClone, spawnIn, type FreshClone, type Spawned } from '../helpers/fresh-clone.js';
import { hangGuard } from '../helpers/hang-guard.js';

const README = path.join(repoRoot, 'README.md');

/** The backticked commands of each row's first cell of the README's "## Commands" table. */
function commandsTable(markdown: string): Array<{ row: string; commands: string[] }> {
  const section = markdown.split(/^## /m).find((s) => s.startsWith('Commands\n'));
  if (!section) throw new Error('README.md has no "## Commands" section');
  const rows = section.split('\n').filter((line) => line.startsWith('|')).slice(2);
  return rows.map((line) => {
    const cell = line.split(/(?<!\\)\|/)[1]!.trim();
    return { row: cell, commands: commandKeys(cell) };
  });
}

/**
 * A row's commands, each as its words and flags without placeholders (`<url>`), optional parts (`[...]`),
 * `...` and `--`: `npm run diff -- --base <git-ref>` is `npm run diff --base`. A cell's span that starts
 * with a flag continues the command before it (`certify --from-har <file>` / `--from-log <file>`).
 */
function commandKeys(cell: string): string[] {
  const keys: string[] = [];
  let last: string[] | undefined;
  for (const [, span] of cell.matchAll(/`([^`]+)`/g)) {
    const tokens = span!
      .replace(/\\\|/g, '|')
      .replace(/\[[^\]]*\]/g, ' ')
      .split(/\s+/)
      .filter((t) => t && t !== '--' && t !== '...' && !t.includes('<'));
    if (tokens[0] === 'npm' || tokens[0] === 'storefront-contract') last = tokens;
    else if (tokens[0]?.startsWith('--') && last) tokens.unshift(...last.filter((t) => !t.startsWith('--')));
    else continue;
    keys.push(tokens.join(' '));
  }
  return keys;
}

/** How a command runs in the clone: through npm, through the clone's bin (scripts/bin, as `npx` finds it), or `npx` itself. */
interface Run {
  /** The README commands (keys) this run stands for. */
  rows: string[];
  argv: (ctx: Context) => string[];
  /** Exit code (default 0). */
  code?: number | number[];
  /** What its output must show. */
  shows: RegExp[];
}

interface Context {
  clone: FreshClone;
  bin: string;
  scratch: string;
}

const npm = (...args: string[]) => () => ['npm', ...args];
const bin = (...args: string[]) => (c: Context) => [c.bin, ...args];

const RUNS: Run[] = [
  { rows: ['npm run test:node-versions'], argv: npm('run', 'test:node-versions', '--', '--help'), shows: [/usage: npm run test:node-versions/] },
  // The install tests themselves (this file among them) would build, pack and clone again: the cheapest real
  // run loads their configuration and collects this file with no test selected.
  {
    rows: ['npm run test:install'],
    argv: npm('run', 'test:install', '--', 'test/clone/readme-commands.test.ts', '-t', 'no test is named this'),
    shows: [/Test Files {2}1 skipped \(1\)/],
  },
  // The adapters run on one small file of the sandbox's HTTP-level tests, through MSW in Node.
  { rows: ['npm run test:adapters'], argv: npm('run', 'test:adapters', '--', 'test/sandbox/guards.test.ts'), shows: [/Test Files {2}1 passed \(1\)/] },
  { rows: ['npm run test:mutation'], argv: npm('run', 'test:mutation', '--', '--help'), shows: [/usage: npm run test:mutation/, /--incremental/] },
  { rows: ['npm run test:known-bugs'], argv: npm('run', 'test:known-bugs', '--', '--help'), shows: [/usage: npm run test:known-bugs/] },
  { rows: ['npm run test:under-load'], argv: npm('run', 'test:under-load', '--', '--help'), shows: [/usage: npm run test:under-load/] },
  { rows: ['npm run lint'], argv: npm('run', 'lint', '--', '--help'), shows: [/usage: npm run lint/] },
  { rows: ['npm run generate'], argv: npm('run', 'generate', '--', '--help'), shows: [/usage: npm run generate/] },
  { rows: ['npm run check:generated'], argv: npm('run', 'check:generated', '--', '--help'), shows: [/npm run check:generated/] },
  { rows: ['npm run bundle'], argv: npm('run', 'bundle', '--', '--help'), shows: [/usage: npm run bundle/] },
  { rows: ['npm run build'], argv: npm('run', 'build', '--', '--help'), shows: [/usage: npm run build/] },
  { rows: ['npm run bench'], argv: npm('run', 'bench', '--', '--help'), shows: [/usage: npm run bench/, /suites: \w/] },
  // The npm scripts below run the bin's subcommand (`cli/storefront-contract.ts certify`), so each stands
  // for its `= storefront-contract ...` too; the help shows the flags the README's rows name.
  {
    rows: ['npm run certify', 'storefront-contract certify', 'storefront-contract certify --shard', 'storefront-contract certify merge', 'storefront-contract certify --from-log'],
    argv: npm('run', 'certify', '--', '--help'),
    shows: [/Usage: storefront-contract certify/, /--base-url/, /--shard/, /storefront-contract certify merge <dir>/, /--from-log/],
  },
  { rows: ['npm run record --upstream --out', 'storefront-contract record'], argv: npm('run', 'record', '--', '--help'), shows: [/--upstream/, /--out/] },
  {
    rows: ['npm run certify:webhooks sender|receiver', 'storefront-contract certify-webhooks'],
    argv: npm('run', 'certify:webhooks', '--', '--help'),
    shows: [/certify-webhooks sender/, /certify-webhooks receiver/],
  },
  { rows: ['npm run docs'], argv: npm('run', 'docs', '--', '--help'), shows: [/usage: npm run docs/] },
  { rows: ['npm run diff --base'], argv: npm('run', 'diff', '--', '--base', 'HEAD'), shows: [/diff: PASS/] },
  { rows: ['npm run changelog'], argv: npm('run', 'changelog', '--', '--help'), shows: [/storefront-contract changelog/] },
  { rows: ['npm run sign-examples'], argv: npm('run', 'sign-examples', '--', '--check'), shows: [/sign-examples: \d+ example signatures, 0 stale/] },
  { rows: ['npm run lockfile:fix'], argv: npm('run', 'lockfile:fix'), shows: [/lockfile:fix: nothing missing/] },
  // The clone's bin, scripts/bin/storefront-contract.mjs (what `npx storefront-contract` runs in a clone:
  // the root manifest's bin), started through its own #! line.
  { rows: ['storefront-contract changelog'], argv: bin('changelog', '--help'), shows: [/storefront-contract changelog/] },
  { rows: ['storefront-contract proxy --upstream'], argv: bin('proxy', '--help'), shows: [/Usage: storefront-contract proxy/, /--har/] },
  // Its help loads every static import of the command (the workbench, the SDK's stdio transport); a session
  // runs in test/agents/mcp-session.test.ts.
  { rows: ['storefront-contract mcp'], argv: bin('mcp', '--help'), shows: [/Usage: storefront-contract mcp/, /--url <origin>/, /contract_diff/] },
  {
    rows: ['storefront-contract certify --from-har'],
    argv: (c) => [c.bin, 'certify', '--from-har', 'conformance/traffic/pos.har', '--report-dir', path.join(c.scratch, 'from-har')],
    shows: [/exchanges judged/],
  },
];

/** Run in order by the flows of the test below: the workbench and the two webhooks commands, the tests and their weights. */
const FLOW_ROWS = ['npm start', 'storefront-contract mock', 'npm run webhooks trigger', 'storefront-contract webhooks', 'npm run webhooks listen', 'npm test', 'npm run test:weights'];

describe('issue 37 item 1: every command of the README\'s Commands table, in a fresh clone with nothing built', () => {
  const table = commandsTable(readFileSync(README, 'utf8'));

  it('item 1: the table parses into its commands, and each is run by this file (a new row fails until it is)', () => {
    expect(table.length).toBeGreaterThan(15);
    for (const { row, commands } of table) expect(commands, `row ${row}`).not.toEqual([]);
    const listed = table.flatMap((r) => r.commands);
    expect(listed).toContain('npm run docs');
    expect(listed).toContain('storefront-contract certify --from-log');
    const covered = [...RUNS.flatMap((r) => r.rows), ...FLOW_ROWS];
    const missing = listed.filter((c) => !covered.includes(c));
    const stale = covered.filter((c) => !listed.includes(c));
    expect(missing, 'commands of README.md\'s Commands table that test/clone/readme-commands.test.ts does not run: add each to RUNS').toEqual([]);
    expect(stale, 'runs in RUNS for commands no longer in README.md\'s Commands table').toEqual([]);
    expect(new Set(covered).size, 'a command run twice').toBe(covered.length);
  });

  it('item 1: every npm script that runs this repository\'s TypeScript passes the sfc-source condition itself', () => {
    const scripts = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const runsTs = Object.entries(scripts).filter(([, line]) => /\b(tsx|node)\b/.test(line));
    expect(runsTs.length).toBeGreaterThan(10);
    expect(runsTs.filter(([, line]) => !line.includes('--conditions=sfc-source')).map(([name]) => name)).toEqual([]);
  });

  describe('in the clone', () => {
    let clone: FreshClone;
    const started: Spawned[] = [];
    const start = (command: string, args: string[]) => {
      const s = spawnIn(clone, command, args);
      started.push(s);
      return s;
    };

    beforeAll(async () => {
      clone = await freshClone();
    });
    afterAll(async () => {
      await Promise.all(started.map((s) => s.stop()));
      await clone?.remove();
    });

    it('item 1: is a git clone with nothing built, whose package names resolve inside it', () => {
      for (const built of ['dist', 'docs/site', 'packages/storefront-contract/dist', 'packages/storefront-contract-tools/dist']) {
        expect(existsSync(path.join(clone.dir, built)), built).toBe(false);
      }
      for (const name of ['storefront-contract', 'storefront-contract-tools']) {
        expect(realpathSync(path.join(clone.dir, 'node_modules', name))).toBe(realpathSync(path.join(clone.dir, 'packages', name)));
      }
      expect(existsSync(path.join(clone.dir, '.git'))).toBe(true);
      expect(clone.env.NODE_OPTIONS ?? '').not.toContain('sfc-source');
      // `npx storefront-contract` in a clone runs the root manifest's bin, which the runs below start directly.
      const manifest = JSON.parse(readFileSync(path.join(clone.dir, 'package.json'), 'utf8')) as { bin: Record<string, string> };
      expect(manifest.bin['storefront-contract']).toBe('scripts/bin/storefront-contract.mjs');
      expect(statSync(path.join(clone.dir, manifest.bin['storefront-contract']!)).mode & 0o111).not.toBe(0);
    });

    it('item 1: runs each command in its cheapest form', async () => {
      const ctx: Context = { clone, bin: path.join(clone.dir, 'scripts/bin/storefront-contract.mjs'), scratch: path.join(clone.dir, '..') };
      const failures: string[] = [];
      /** `code` null: the output alone judges (a process stopped by a signal, whose exit code npm decides). */
      const judge = (label: string, result: { code: number | null; output: string }, shows: RegExp[], code: number | number[] | null = 0) => {
        const codes = code === null ? undefined : ([] as number[]).concat(code);
        const missed = shows.filter((re) => !re.test(result.output));
        if ((codes && !codes.includes(result.code ?? -1)) || missed.length) {
          failures.push(`${label}: exit ${result.code}${codes ? ` (want ${codes.join(' or ')})` : ''}${missed.length ? `, output lacks ${missed.join(', ')}` : ''}\n${result.output.slice(-1500)}`);
        }
      };
      const runOne = async (command: string[], shows: RegExp[], code?: number | number[]) => {
        const result = await start(command[0]!, command.slice(1)).closed;
        judge(command.join(' '), result, shows, code);
      };

      // The workbench (npm start), a listener on it and an event raised on it: listen prints the delivery.
      const workbenchFlow = async () => {
        const mock = start('npm', ['start', '--', '--port', '0']);
        const banner = await mock.waitFor(/raise events:.*\n/);
        const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)![1]!;
        const denied = await fetch(`${url}/api/v1/demo-store/storefront/common/countries`);
        judge('npm start: GET countries without a token', { code: denied.status, output: await denied.text() }, [/"code":"unauthorized"/], 401);
        const listen = start('npm', ['run', 'webhooks', '--', 'listen', '--url', url, '--events', 'order.created']);
        await listen.waitFor(/Ready! Printing deliveries/);
        await runOne(['npm', 'run', 'webhooks', '--', 'trigger', 'order.created', '--url', url], [/order\.created/]);
        await listen.waitFor(/order\.created\s+evt_\w+\s+dlv_\w+\s+attempt 1\s+signature verified/);
        judge('npm run webhooks -- listen (stopped)', await listen.stop(), [/subscription wh_\w+ removed/], null);
        judge('npm start (stopped)', await mock.stop(), [/Mock workbench listening on/, /SIGTERM received, closing/], null);
      };
      // `npm test` on one small file, then `npm run test:weights` from the results it left.
      const testsFlow = async () => {
        // One worker: the config's four would start for one file.
        await runOne(['npm', 'test', '--', '--maxWorkers=1', '--minWorkers=1', 'test/setup/sequencer.test.ts'], [/Test Files\s+1 passed/]);
        await runOne(['npm', 'run', 'test:weights'], [/written to test\/weights\.json/]);
      };
      const queue = RUNS.slice();
      const worker = async () => {
        for (let next = queue.shift(); next; next = queue.shift()) await runOne(next.argv(ctx), next.shows, next.code);
      };
      await Promise.all([workbenchFlow(), testsFlow(), worker(), worker()]);
      expect(failures).toEqual([]);
    }, hangGuard(300_000));
  });
});
