// The guide's runnable examples (examples/receivers/*.ts) really run: each is started as its own
// process on a free port and receives a signed delivery, a test delivery and a forged one.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { buildDelivery } from '../../conformance/vectors/webhook-fixtures.js';

const EXAMPLE_SECRET = 'whsec_test_examples_5e0c';
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill();
});

function start(example: string): Promise<string> {
  const child = spawn(process.execPath, ['--conditions=sfc-source', '--import', 'tsx', path.join(repoRoot, 'examples/receivers', `${example}.ts`)], {
    cwd: repoRoot,
    env: { ...process.env, WEBHOOK_SECRET: EXAMPLE_SECRET, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /http:\/\/127\.0\.0\.1:\d+\/webhooks/.exec(output)?.[0];
      if (url) resolve(url);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`example ${example} exited with ${code}: ${output}`)));
  });
}

async function post(url: string, d: ReturnType<typeof buildDelivery>) {
  const res = await request(url, { method: 'POST', headers: d.headers, body: d.raw });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
}

describe.each(['node', 'express', 'fastify', 'fetch'])('examples/receivers/%s.ts', (example) => {
  it('starts, handles a delivery once, routes a test delivery, refuses a forged one', async () => {
    const url = await start(example);
    const d = buildDelivery({ secret: EXAMPLE_SECRET });
    expect(await post(url, d)).toMatchObject({ status: 200, body: { status: 'handled' } });
    expect(await post(url, d)).toMatchObject({ status: 200, body: { status: 'duplicate' } });
    expect(await post(url, buildDelivery({ secret: EXAMPLE_SECRET, isTest: true }))).toMatchObject({ status: 200, body: { status: 'test' } });
    expect(await post(url, buildDelivery({ secret: 'whsec_forged' }))).toMatchObject({ status: 401, body: { reason: 'mismatch' } });
  });
});
