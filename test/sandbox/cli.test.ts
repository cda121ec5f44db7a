// `storefront-contract mock` (npm start) with the sandbox: the banner names the seeded ids to use, and the
// sandbox's flags (--seed, --lenient-auth, --ownership, --data, --no-sandbox) work and refuse contradictions in one line.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { mockArgs, mockCli } from '../helpers/mock-cli.js';
import { sandboxApiKey } from '../../workbench/index.js';
import { http, KEY } from './helpers.js';
import { runCli } from '../helpers/cli-in-process.js';
import { hangGuard } from '../helpers/hang-guard.js';

const args = mockArgs;
const mock = mockCli();
const start = (rest: string[]) => mock.start(['--port', '0', '--quiet', ...rest], 'raise events');

describe('npm start with the sandbox', () => {
  it('prints the seeded ids in a few lines, and --seed changes them', async () => {
    const one = await start([]);
    expect(one.stdout).toContain('(sandbox, strict auth)');
    expect(one.stdout).toMatch(/sandbox {5}seed 1, store demo-store: \d+ products in \d+ categories, \d+ customers, \d+ carts, \d+ orders/);
    expect(one.stdout).toMatch(/carts crt_8N2F6Q crt_\w{6} /);
    expect(one.stdout).toMatch(/customers cst_9XK2PL cst_\w{6} /);
    expect(one.stdout).toContain('groups cgrp_default (default) cgrp_wholesale cgrp_gold cgrp_staff');
    expect(one.stdout).toContain('GET /__simulator/stores/demo-store/world');
    expect(one.stdout.split('\n').length).toBeLessThan(25);
    // demo-store's key, printed on purpose (a sandbox test key), opens demo-store and only it.
    const key = /store API key of demo-store: (sk_test_\w+) \(a sandbox test key/.exec(one.stdout)?.[1];
    expect(key).toBe(sandboxApiKey('demo-store'));
    expect((await http(`${one.url}/api/v1/demo-store/storefront/auth/anonymous`, 'POST', { headers: { 'x-api-key': key! } })).status).toBe(200);
    expect((await http(`${one.url}/api/v1/other-store/storefront/auth/anonymous`, 'POST', { headers: { 'x-api-key': key! } })).status).toBe(401);
    const seven = await start(['--seed', '7', '--lenient-auth']);
    const carts = (s: string) => /carts (.*)/.exec(s)![1];
    expect(carts(seven.stdout)).not.toBe(carts(one.stdout));
    expect(seven.stdout).toContain('any well-formed bearer token is accepted (--lenient-auth)');
    // --lenient-auth accepts any key too; the banner still gives the store's own (another seed, another key).
    expect(seven.stdout).toContain(`store API key: any well-formed key (--lenient-auth); demo-store's own is ${sandboxApiKey('demo-store', { seed: 7 })}`);
    expect((await http(`${seven.url}/api/v1/demo-store/storefront/auth/anonymous`, 'POST', { headers: { 'x-api-key': 'sk_made_up' } })).status).toBe(200);
    const lenient = await http(`${seven.url}/api/v1/demo-store/storefront/common/countries`, 'GET', { headers: { authorization: 'Bearer whatever' } });
    expect(lenient.status).toBe(200);
    const strict = await http(`${one.url}/api/v1/demo-store/storefront/common/countries`, 'GET', { headers: { authorization: 'Bearer whatever' } });
    expect(strict.status).toBe(401);
    for (const c of [one.child, seven.child]) c.kill('SIGTERM');
  });

  it('--ownership strict is named in the banner and listed by --help', async () => {
    const strict = await start(['--ownership', 'strict']);
    expect(strict.stdout).toContain('(sandbox, strict auth, strict ownership)');
    expect(strict.stdout).toContain("ownership strict: a token reads only its customer's cards, orders and carts");
    strict.child.kill('SIGTERM');
    const help = spawnSync(process.execPath, args(['--help']), { cwd: repoRoot, encoding: 'utf8', timeout: hangGuard(60_000) });
    expect(help.stdout).toMatch(/--ownership <mode> +who reads a customer's cards, orders and carts: open/);
  });

  it('--no-sandbox serves the spec\'s examples again', async () => {
    const plain = await start(['--no-sandbox']);
    expect(plain.stdout).toContain('(examples only)');
    const anon = await http(`${plain.url}/api/v1/demo-store/storefront/auth/anonymous`, 'POST', { headers: KEY });
    expect(anon.json.content.user.id).toBe('usr_6D1E0R');
    plain.child.kill('SIGTERM');
  });

  it.each([
    [['--strict-auth', '--lenient-auth'], '--strict-auth and --lenient-auth contradict each other'],
    [['--no-sandbox', '--seed', '3'], '--seed, --data, --lenient-auth, --any-api-key, --ownership, --max-worlds and --token-lifetime configure the sandbox, which --no-sandbox turns off'],
    [['--no-sandbox', '--ownership', 'strict'], '--seed, --data, --lenient-auth, --any-api-key, --ownership, --max-worlds and --token-lifetime configure the sandbox, which --no-sandbox turns off'],
    [['--api-key', 'sk_one', '--any-api-key'], '--any-api-key and --api-key contradict each other'],
    [['--ownership', 'mine'], '--ownership is open or strict, got "mine"'],
    [['--seed', 'a b'], '--seed must be a number or a word'],
    [['--data', '/nonexistent/sandbox-fixtures'], 'no such directory'],
    [['--compact-after', '100', '--data-dir', '/tmp/unused-sandbox-dir'], '--compact-after was removed in 0.3: writes are kept in workbench.sqlite, which needs no compaction; drop the flag'],
  ])('%j is refused in one line', async (flags, problem) => {
    // In-process (test/helpers/cli-in-process.ts): refused before anything starts.
    const r = await runCli(['mock', '--port', '0', ...flags]);
    expect(r.code).toBe(2);
    const lines = r.stderr.split('\n').filter((l) => l && !l.startsWith('npm warn'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(problem);
  });
});
