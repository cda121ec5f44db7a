// `npm run sign-examples`: adding or editing an event example needs no hand-computed signature.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyRepo, type RepoCopy } from '../helpers/repo-copy.js';
import { run } from '../helpers/run.js';

let repo: RepoCopy;
beforeAll(async () => {
  repo = await copyRepo(['spec', 'scripts', 'src', 'generated', 'workbench/contract', 'packages', 'package.json', 'tsconfig.json']);
});
afterAll(async () => {
  await repo?.remove();
});

const sign = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'scripts/sign-examples.ts', ...args], { cwd: repo.dir });

describe('sign-examples', () => {
  it('finds every committed signature current', async () => {
    const result = await sign('--check');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/50 example signatures, 0 stale/);
  });

  it('after an example body changes, --check names the message and the fix; signing makes it current', async () => {
    const example = path.join(repo.dir, 'spec/asyncapi/examples/order.created.yaml');
    await writeFile(example, (await readFile(example, 'utf8')).replace('event_id: evt_01JP71SB1203SRX72ERNJHY54J', 'event_id: evt_01JP71SB1203SRX72ERNJHY54K'));
    const stale = await sign('--check');
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/stale: spec\/asyncapi\/messages\/order\.created\.yaml example OrderCreated: .* run npm run sign-examples/);

    const signed = await sign();
    expect(signed.code).toBe(0);
    expect(signed.stdout).toMatch(/signed: spec\/asyncapi\/messages\/order\.created\.yaml example OrderCreated/);
    expect(signed.stdout).toMatch(/1 rewritten/);
    expect((await sign('--check')).code).toBe(0);
  });
});
