// A seeded, schema-driven fuzzer over every storefront and Admin operation of the workbench (sandbox +
// simulator): valid requests, requests breaking exactly one constraint, credential variants, malformed
// JSON bodies and raw-socket garbage. Whatever comes, the answer is never a 5XX, every answer is the
// contract's envelope, and every valid request is served. The generator is the certifier's own
// (conformance/rest/generate), so a failure prints fast-check's seed and shrunk counterexample.
import net from 'node:net';
import fc from 'fast-check';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../../conformance/rest/http.js';
import { credentialVariants, invalidRequests, securityRequests, validRequests, violationsOf } from '../../conformance/rest/generate/cases.js';
import { isDocumented, loadOperationSpecs, type OperationSpec } from '../../conformance/rest/generate/operation-specs.js';
import { toOutgoing, type GeneratedRequest, type Target } from '../../conformance/rest/generate/request.js';
import { World } from '../../conformance/rest/generate/world.js';
import { apiBaseUrl, basePath, type ApiName } from '../../src/contract/paths.js';
import { documents } from '../../scripts/lib/repo.js';
import { adminOperations } from '../../generated/operations/admin.js';
import { storefrontOperations } from '../../generated/operations/storefront.js';
import { createWorkbench, type Workbench } from '../../workbench/index.js';
import { hangGuard } from '../helpers/hang-guard.js';

const SEED = Number(process.env.FUZZ_SEED ?? 1123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 15);
const API_KEY = 'sk_fuzz_store_key_0123456789';
const ADMIN_TOKEN = 'adm_fuzz_token_0123456789abcdef';
const STORE = 'demo-store';

let wb: Workbench;
let dispatcher: Agent;
const specs = new Map<ApiName, OperationSpec[]>();
const targets = new Map<ApiName, Target>();
const world = new World();

beforeAll(async () => {
  wb = await createWorkbench({ port: 0, quiet: true, apiKeys: [API_KEY], webhooks: { adminTokens: [ADMIN_TOKEN], timeScale: 0.01 } });
  dispatcher = new Agent({ connections: 8 });
  for (const api of ['storefront', 'admin'] as const) {
    specs.set(api, await loadOperationSpecs(documents[api]));
    targets.set(api, { apiBase: apiBaseUrl(wb.url, api, STORE), apiBasePath: basePath(api, STORE), apiKey: API_KEY, token: api === 'admin' ? ADMIN_TOKEN : undefined });
  }
  const anon = await send(toOutgoing(specs.get('storefront')!.find((o) => o.operationId === 'createAnonymousUser')!, { kind: 'valid', label: '', pathParams: {}, query: {}, headers: {}, credentials: 'valid', expect: 'accepted', unknownIds: false }, targets.get('storefront')!), dispatcher, true);
  targets.get('storefront')!.token = (anon.body as { content: { access_token: string } }).content.access_token;
}, hangGuard(60_000));
afterAll(async () => {
  await dispatcher?.close();
  await wb?.close();
});

/** What every answer must be, whatever was sent: no 5XX, the envelope, success matching the status. */
function envelopeProblem(status: number, body: unknown, parseError?: string): string | undefined {
  if (status >= 500) return `answered ${status}`;
  if (parseError || !body || typeof body !== 'object') return `answered ${status} without a JSON envelope`;
  const e = body as { success?: unknown; message?: unknown };
  if (e.success !== (status < 300)) return `success is ${String(e.success)} on a ${status}`;
  if (typeof e.message !== 'string' || !e.message) return `no message on a ${status}`;
  return undefined;
}

async function exchange(api: ApiName, op: OperationSpec, req: GeneratedRequest): Promise<string | undefined> {
  const request = toOutgoing(op, req, targets.get(api)!);
  const reply = await send(request, dispatcher, true);
  const wrong = envelopeProblem(reply.status, reply.body, reply.parseError);
  if (wrong) return `${op.operationId} (${req.label}): ${wrong}`;
  if (req.kind === 'valid') {
    // A valid request may still meet the state of the store: a documented 409 (5 enabled webhooks at
    // most), or a documented 404 when it names ids the world does not hold.
    const served = reply.status < 300 || (reply.status === 404 && req.unknownIds && isDocumented(op, 404)) || (reply.status === 409 && isDocumented(op, 409));
    if (!served) return `${op.operationId} (${req.label}): a valid request was answered ${reply.status}: ${(reply.body as { message: string }).message}`;
    if (reply.status < 300) world.learnFromAccepted(op, new URL(request.url), targets.get(api)!.apiBasePath, req.body && 'json' in req.body ? req.body.json : undefined);
  } else if (reply.status < 400) {
    return `${op.operationId} (${req.label}): an invalid request was answered ${reply.status}`;
  }
  return undefined;
}

async function fuzz(api: ApiName, op: OperationSpec, arbitrary: fc.Arbitrary<GeneratedRequest>, numRuns: number, tag: string): Promise<void> {
  await fc.assert(
    fc.asyncProperty(arbitrary, async (req) => {
      const problem = await exchange(api, op, req);
      if (problem) throw new Error(problem);
    }),
    // A fixed number of cases from a fixed seed, and no time limit that would cut them short on a loaded
    // machine: the same cases run everywhere (each test's own time-out is the only clock).
    { seed: SEED + tag.length + op.operationId.length, numRuns, includeErrorInReport: true },
  );
}

describe.each(['storefront', 'admin'] as const)('fuzzing the %s API', (api) => {
  it('covers every operation of the document', () => {
    const table = api === 'storefront' ? storefrontOperations : adminOperations;
    expect(specs.get(api)!.map((op) => op.operationId).sort()).toEqual(Object.keys(table).sort());
  });

  it('valid, single-violation and credential requests: never a 5XX, always the envelope, valid ones served', async () => {
    for (const op of specs.get(api)!) {
      const valid = validRequests(op, world);
      await fuzz(api, op, valid, RUNS, 'valid');
      const violations = violationsOf(op);
      const invalid = invalidRequests(valid, violations);
      if (invalid) await fuzz(api, op, invalid, Math.max(RUNS, violations.length * 2), 'invalid');
      const variants = credentialVariants(op);
      const security = securityRequests(valid, variants);
      if (security) await fuzz(api, op, security, variants.length * 2, 'security');
    }
  }, hangGuard(240_000));

  it('malformed JSON bodies of any shape: a 4XX envelope', async () => {
    const withBody = specs.get(api)!.filter((op) => op.body);
    expect(withBody.length).toBeGreaterThan(0);
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 64 }),
      fc.json().map((j) => j.slice(0, Math.max(1, j.length - 1))), // truncated JSON
      fc.constantFrom('{', '{"a":}', '[1,', 'nul', '{"__proto__":{"x":1}', '\u0000', '{"a":1}garbage', ' '),
    );
    for (const op of withBody) {
      await fuzz(
        api,
        op,
        fc.tuple(validRequests(op, world), text).map(([r, raw]) => ({ ...r, kind: 'invalid' as const, label: `raw body ${JSON.stringify(raw).slice(0, 40)}`, body: { raw, contentType: 'application/json' }, expect: 400 as const })),
        RUNS,
        'malformed',
      );
    }
  }, hangGuard(120_000));
});

describe('raw-socket garbage', () => {
  /**
   * Sends bytes on a fresh connection (then half-closes it) and reads until the server closes it. A server
   * that closes without answering, or keeps the connection open without a complete answer, fails: every
   * request gets a status. The limit only bounds a hung server; the answer's content is judged by the test.
   */
  function raw(bytes: string | Buffer, limitMs = 30_000): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: '127.0.0.1', port: wb.port });
      const chunks: Buffer[] = [];
      const text = () => Buffer.concat(chunks).toString('latin1');
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no answer within ${limitMs} ms to ${JSON.stringify(String(bytes).slice(0, 120))}; got ${JSON.stringify(text().slice(0, 120))}`));
      }, limitMs);
      socket.on('data', (c) => chunks.push(c));
      socket.on('error', () => {}); // a reset after the answer; the answer (or its absence) is judged on close
      socket.on('close', () => {
        clearTimeout(timer);
        if (!/^HTTP\/1\.[01] \d{3} /.test(text())) reject(new Error(`the server closed the connection without a status line for ${JSON.stringify(String(bytes).slice(0, 120))}; got ${JSON.stringify(text().slice(0, 120))}`));
        else resolve(text());
      });
      socket.end(bytes);
    });
  }

  it('issue 38: answers every malformed request line, header block and body framing with a status (never silence), a 4XX envelope, never a 5XX', async () => {
    const path = `${basePath('storefront', STORE)}/common/countries`;
    const lines = fc.oneof(
      // Something besides line ends: blank lines alone are no request (RFC 9112 2.2 has a server ignore
      // empty lines before the request line), so the server rightly waits, then closes without a word.
      fc.string({ unit: 'binary-ascii', maxLength: 80 }).filter((s) => /[^\r\n]/.test(s)).map((s) => `${s}\r\n\r\n`),
      fc.constantFrom(
        `GET ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n`,
        `GET ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
        `POST ${path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`,
        `GET ${path}\u0000 HTTP/1.1\r\nHost: x\r\n\r\n`,
        `GET ${path} HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n`,
        `GET ${path} HTTP/9.9\r\nHost: x\r\n\r\n`,
        `GET ${path} HTTP/1.1\r\nHost: x\r\nX-Long: ${'a'.repeat(20_000)}\r\n\r\n`,
        `GET /${'%'.repeat(300)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      ),
    );
    await fc.assert(
      fc.asyncProperty(lines, async (request) => {
        const answer = await raw(request);
        const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1]);
        expect(status, answer.slice(0, 200)).toBeGreaterThanOrEqual(200);
        expect(status, answer.slice(0, 200)).toBeLessThan(500);
        const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
        if (status >= 400) expect(JSON.parse(body.slice(body.indexOf('{'))), answer.slice(0, 200)).toMatchObject({ success: false, message: expect.any(String) });
      }),
      { seed: SEED, numRuns: 40 },
    );
    // The server is still up and well afterwards.
    const after = await fetch(`${wb.url}${path}`, { headers: { authorization: `Bearer ${targets.get('storefront')!.token}` } });
    expect(after.status).toBe(200);
  }, hangGuard(120_000));
});
