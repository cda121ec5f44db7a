// Replayed steps and generated cases go through the one exchange loop (conformance/rest/exchange.ts):
// in a real `certify --generate` run against the in-process workbench, every request is sent from the
// loop, the rules receive the same observation shape from both sources, and the report's per-exchange
// entries of both carry the same fields (a generated one adds what the case was). Besides, no other
// module of the certifier imports the HTTP send function.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import type { Exchange } from '../../conformance/rules/observations/rest.js';
import type { Workbench } from '../../workbench/index.js';
import { TEST_API_KEY } from './helpers.js';
import { hangGuard } from '../helpers/hang-guard.js';

// Every call of the HTTP send function, with the file that called it (the stack frame above the spy).
const sends = vi.hoisted(() => [] as Array<{ caller: string }>);
vi.mock('../../conformance/rest/http.js', async (importOriginal) => {
  const http = await importOriginal<typeof import('../../conformance/rest/http.js')>();
  return {
    ...http,
    send(...args: Parameters<typeof http.send>) {
      const frames = (new Error().stack ?? '').split('\n').slice(2);
      const caller = /\(?((?:file:\/\/)?\/[^():]+):\d+:\d+\)?\s*$/.exec(frames[0] ?? '')?.[1] ?? frames[0] ?? '';
      sends.push({ caller: caller.replace(/^file:\/\//, '') });
      return http.send(...args);
    },
  };
});

const SEED = 20261126;
let sandbox: Workbench;
let run: Awaited<ReturnType<typeof import('../../conformance/rest/certify.js').certify>>;
// What the rules were handed, each observation once.
const observed = new Set<Exchange>();

beforeAll(async () => {
  // Test files share a worker (vitest.config.ts): a file run before this one may have loaded the
  // certifier with the real send function, so this one loads fresh copies, which take the mock.
  vi.resetModules();
  const { certify } = await import('../../conformance/rest/certify.js');
  const { restRules } = await import('../../conformance/rules/rest/index.js');
  const { createWorkbench } = await import('../../workbench/index.js');
  sandbox = await createWorkbench({ port: 0, quiet: true, apiKeys: [TEST_API_KEY], webhooks: false });
  const rules = restRules.map((rule) => ({
    ...rule,
    check(observation: Exchange) {
      observed.add(observation);
      return rule.check(observation);
    },
  })) as typeof restRules;
  run = await certify({ baseUrl: sandbox.url, apiKey: TEST_API_KEY, generate: 2, seed: SEED, concurrency: 4, rules, only: ['listProducts', 'getVariant', 'createAnonymousUser'] });
}, hangGuard(120_000));
afterAll(async () => {
  await sandbox?.close();
  // The next file in this worker loads the certifier again, without this file's mock.
  vi.resetModules();
});

const sorted = (o: object) => Object.keys(o).sort();

describe('the one exchange loop', () => {
  it('has both replayed and generated exchanges', () => {
    const { certificate } = run;
    expect(certificate.exchanges.some((e) => e.generated)).toBe(true);
    expect(certificate.exchanges.some((e) => !e.generated)).toBe(true);
  });

  it('sends every request of both sources (and nothing else sends)', () => {
    // Sent: answered, or failed in transport (a loaded machine may reset a connection).
    const sent = run.certificate.exchanges.filter((e) => e.status !== undefined || e.error?.startsWith('request failed'));
    // Without a failure nothing is shrunk: one send per reported exchange; shrinking sends more.
    if (run.certificate.verdict === 'certified') expect(sends).toHaveLength(sent.length);
    else expect(sends.length).toBeGreaterThanOrEqual(sent.length);
    expect([...new Set(sends.map((s) => path.relative(repoRoot, s.caller)))]).toEqual(['conformance/rest/exchange.ts']);
  });

  it('hands the rules the same observation shape from both sources', () => {
    const all = [...observed];
    const replayed = all.filter((o) => !o.generated);
    const generated = all.filter((o) => o.generated);
    expect(replayed.length).toBeGreaterThan(0);
    expect(generated.length).toBeGreaterThan(0);
    // Every judged exchange of the report was observed; without a failure (nothing shrunk), nothing else.
    const reported = run.certificate.exchanges.filter((e) => e.judged && e.status !== undefined).map((e) => e.id).sort();
    const seen = [...new Set(all.map((o) => o.step.id))].sort();
    if (run.certificate.verdict === 'certified') expect(seen).toEqual(reported);
    else expect(seen).toEqual(expect.arrayContaining(reported));
    const shape = (o: Exchange) => ({
      observation: sorted(o).filter((k) => k !== 'generated'),
      // What ExchangeStep declares; a replayed step carries its recording besides.
      step: sorted(o.step).filter((k) => ['id', 'scenario', 'name', 'index', 'operation', 'recorded'].includes(k)),
      recorded: sorted(o.step.recorded),
      request: ['method', 'url', 'headers'].filter((k) => k in o.request),
      live: sorted(o.live),
      values: o.values instanceof Map,
      consistency: Array.isArray(o.consistency),
    });
    const want = shape(replayed[0]);
    expect(want.observation).toEqual(['consistency', 'live', 'request', 'step', 'values']);
    expect(want.step).toEqual(['id', 'index', 'name', 'operation', 'recorded', 'scenario']);
    for (const o of all) expect(shape(o), o.step.id).toEqual(want);
    for (const o of generated) expect(sorted(o.generated!)).toEqual(['designed', 'expect', 'kind', 'label', 'unknownIds']);
  });

  it('reports the exchanges of both sources with the same fields', () => {
    const fields = (e: object) => sorted(e).filter((k) => k !== 'generated');
    const answered = run.certificate.exchanges.filter((e) => e.status !== undefined);
    const want = fields(answered.find((e) => !e.generated)!);
    expect(want).toEqual(['durationMs', 'findings', 'id', 'index', 'judged', 'method', 'operationId', 'path', 'recordedStatus', 'scenario', 'status', 'step']);
    for (const e of answered) expect(fields(e), e.id).toEqual(want);
  });
});

describe('the HTTP send function', () => {
  it('is imported by the exchange loop alone', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(path.join(dir, d.name)) : d.name.endsWith('.ts') ? [path.join(dir, d.name)] : []));
    const importers = files(path.join(repoRoot, 'conformance'))
      .filter((file) => /import\s*\{[^}]*\bsend\b[^}]*\}\s*from\s*'[^']*\/http\.js'/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(repoRoot, file));
    expect(importers).toEqual(['conformance/rest/exchange.ts']);
  });
});
