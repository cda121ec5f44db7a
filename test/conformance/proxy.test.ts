// The validating proxy (`storefront-contract proxy`) between a recorded client session and the suite's
// faulty servers: the session is the certifier replaying conformance/traffic/*.har through the proxy (with
// undici), so the certifier's verdict on each faulty server and the proxy's are about the same exchanges.
// The proxy must report every fault the certifier catches in one exchange (the rules that need no
// recording), pass the upstream's bytes through unchanged (gzip included, and while a rule fails), stream
// both ways, and `certify --from-har` on the HAR it wrote must find what it found live. In process the
// proxy judges on its own thread (`inline`: findings are there as soon as an answer is); the command's test
// runs it as users do, its judge on a worker thread.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { certify } from '../../conformance/rest/certify.js';
import type { ExchangeResult } from '../../conformance/rest/exchange.js';
import type { Har } from '../../conformance/rest/har.js';
import { judgeTrafficFile, TrafficFileError } from '../../conformance/rest/observed/files.js';
import { TrafficJudge, trafficRules, violationLine, type ObservedExchange, type Violation } from '../../conformance/rest/observed/judge.js';
import { createValidatingProxy, type ValidatingProxy } from '../../conformance/rest/observed/proxy.js';
import { MAX_REMEMBERED_SECRETS, Redactor } from '../../conformance/rest/recorder/redact.js';
import type { RestCertificate } from '../../conformance/report/certificate.js';
import type { Rule } from '../../conformance/rules/model.js';
import type { Exchange } from '../../conformance/rules/observations/rest.js';
import { restRules } from '../../conformance/rules/rest/index.js';
import type { MockServer } from '../../workbench/adapters/node-http.js';
import { faultyCases } from './faulty-cases.js';
import { startMock, TEST_API_KEY, transformingProxy, type Running, type Transform } from './helpers.js';
import { closedPort } from '../helpers/closed-port.js';
import { cleanupAfterEach, killChild } from '../helpers/cleanup.js';
import { hangGuard } from '../helpers/hang-guard.js';

const cleanup = cleanupAfterEach();

let mock: MockServer;
let faulty: Running;
let tmp: string;
/** The faulty server's defect now; none between tests. */
let active: Transform = {};
const sentUpstream: string[] = [];

beforeAll(async () => {
  mock = await startMock();
  faulty = await transformingProxy(mock.url, {
    request: (req) => {
      if (req.body !== undefined) sentUpstream.push(req.body);
      return active.request?.(req);
    },
    response: (res, req, inner) => active.response?.(res, req, inner),
    serialize: (res, req) => active.serialize?.(res, req) ?? Buffer.from(typeof res.body === 'string' ? res.body : JSON.stringify(res.body)),
  });
  tmp = mkdtempSync(path.join(os.tmpdir(), 'proxy-'));
});
afterAll(async () => {
  await faulty?.close();
  await mock?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** What two judgements of the same traffic are compared on: each exchange's findings, each rule's counts. */
function findingsOf(cert: RestCertificate) {
  return {
    exchanges: cert.exchanges.map((e: ExchangeResult) => ({ id: e.id, operationId: e.operationId, path: e.path, status: e.status, judged: e.judged, findings: e.findings })),
    rules: cert.rules.map((r) => ({ id: r.id, status: r.status, judged: r.judged, errors: r.errors, warnings: r.warnings, findings: r.findings })),
    summary: cert.exchangeSummary,
    verdict: cert.verdict,
  };
}

const errorsOn = (cert: RestCertificate, operationId: string, rule: string) => cert.exchanges.filter((e) => e.operationId === operationId && e.findings.some((f) => f.rule === rule && f.severity === 'error'));

// What one exchange cannot show: each of these rules compares with something the traffic does not hold.
const BEYOND_ONE_EXCHANGE: Record<string, string> = {
  'invalid-input-rejected': 'page 0 is invalid input, but the proxy judges answers, not requests: a 200 to it is a documented status with a valid body',
  'structural-drift': 'compares the live body with the recorded one',
  'cross-call-consistency': "compares values across calls, as a scenario's bindings declare them",
  'generated-accepted': 'a valid request answered with a documented 400: only the generator knows the request was valid',
  'generated-refused': 'an invalid request served: the proxy does not validate requests',
};

const cases = faultyCases(() => mock.url);

describe('the validating proxy between a recorded client session and a faulty server', () => {
  it('runs every rule that needs no recording, and the rules it does not run are the ones one exchange cannot show', () => {
    expect(trafficRules.map((r) => r.id)).toEqual(['status-documented', 'content-type-json', 'response-schema', 'envelope', 'pagination', 'pagination-past-end', 'auth-enforced']);
    expect(restRules.filter((r) => !trafficRules.includes(r)).map((r) => r.id).sort()).toEqual(Object.keys(BEYOND_ONE_EXCHANGE).sort());
    // Every faulty server is in one list or the other.
    for (const [, c] of cases) expect(trafficRules.some((r) => r.id === c.want.rule) || c.want.rule in BEYOND_ONE_EXCHANGE).toBe(true);
  });

  const seen = cases.filter(([, c]) => !(c.want.rule in BEYOND_ONE_EXCHANGE));
  it.each(seen)('%s: the certifier and the proxy both report it; --from-har finds the same', async (name, { transform, want, strict }) => {
    active = await transform();
    const har = path.join(tmp, `${name.replace(/\W+/g, '-')}.har`);
    const lines: Violation[] = [];
    const proxy = await createValidatingProxy({ upstream: faulty.url, harFile: har, strict, inline: true, onViolation: (v) => lines.push(v) });
    let certified: RestCertificate;
    let live: RestCertificate;
    try {
      // The client session: the recorded scenarios replayed through the proxy (the steps the operation needs).
      ({ certificate: certified } = await certify({ baseUrl: proxy.url, apiKey: TEST_API_KEY, only: [want.operationId], strict }));
    } finally {
      live = await proxy.close();
      active = {};
    }
    expect(errorsOn(certified, want.operationId, want.rule).length, `the certifier misses ${want.rule}`).toBeGreaterThan(0);
    expect(live.verdict).toBe('not-certified');
    expect(errorsOn(live, want.operationId, want.rule).length, `the proxy misses ${want.rule} on ${want.operationId}`).toBeGreaterThan(0);
    expect(live.rules.find((r) => r.id === want.rule)?.status).toBe('failed');
    // Printed as it happened, one line per finding.
    const printed = lines.filter((v) => v.rule === want.rule && v.operationId === want.operationId && v.severity === 'error');
    expect(printed.length).toBeGreaterThan(0);
    expect(violationLine(printed[0])).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z [A-Z]+ /\\S* ${want.operationId} \\d{3} error ${want.rule}: .+`));
    // The secrets of the session (the key, the tokens the mock issued) are in no line and no report.
    expect(JSON.stringify(lines) + JSON.stringify(live)).not.toContain(TEST_API_KEY);
    // Offline: the HAR the proxy wrote, judged again, gives the same findings.
    const offline = await judgeTrafficFile({ file: har, format: 'har', strict });
    expect(findingsOf(offline)).toEqual(findingsOf(live));
  });

  it('the same findings from an NDJSON access log of that traffic; a bad line is named', async () => {
    active = cases.find(([, c]) => c.want.rule === 'envelope')![1].transform() as Transform;
    const har = path.join(tmp, 'log.har');
    const proxy = await createValidatingProxy({ upstream: faulty.url, harFile: har, inline: true });
    try {
      await certify({ baseUrl: proxy.url, apiKey: TEST_API_KEY, only: ['listProducts'] });
    } finally {
      await proxy.close();
      active = {};
    }
    const entries = (JSON.parse(readFileSync(har, 'utf8')) as Har).log.entries;
    const headers = (list: Array<{ name: string; value: string }>) => Object.fromEntries(list.map((h) => [h.name, h.value]));
    const log = path.join(tmp, 'access.ndjson');
    const lines = entries.map((e) => {
      // The 200s as the bytes sent (gzip, with its Content-Encoding), the others as text.
      const gzipped = e.response.status === 200;
      return JSON.stringify({
        time: e.startedDateTime,
        method: e.request.method,
        url: e.request.url,
        status: e.response.status,
        request_headers: headers(e.request.headers),
        ...(e.request.postData && !e.request.postData._truncated ? { request_body: e.request.postData.text } : {}),
        response_headers: { ...headers(e.response.headers), ...(gzipped ? { 'content-encoding': 'gzip' } : {}) },
        ...(gzipped ? { response_body_base64: gzipSync(e.response.content.text!).toString('base64') } : { response_body: e.response.content.text }),
        duration_ms: e.time,
      });
    });
    // A blank line is skipped.
    writeFileSync(log, `${lines[0]}\n\n${lines.slice(1).join('\n')}\n`);
    const fromLog = await judgeTrafficFile({ file: log, format: 'log' });
    const fromHar = await judgeTrafficFile({ file: har, format: 'har' });
    expect(errorsOn(fromLog, 'listProducts', 'envelope').length).toBeGreaterThan(0);
    expect({ ...findingsOf(fromLog), exchanges: findingsOf(fromLog).exchanges.map((e) => ({ ...e, id: undefined })) }).toEqual({ ...findingsOf(fromHar), exchanges: findingsOf(fromHar).exchanges.map((e) => ({ ...e, id: undefined })) });

    writeFileSync(log, `${JSON.stringify({ method: 'GET', url: 'http://x/api/v1/s/storefront/common/countries', status: 200, response_body: '{}' })}\n{"method":"GET","url":"/relative","status":200}\n`);
    await expect(judgeTrafficFile({ file: log, format: 'log' })).rejects.toThrow(TrafficFileError);
    await expect(judgeTrafficFile({ file: log, format: 'log' })).rejects.toThrow(/line 2: "url" "\/relative" is not an absolute URL/);
  });
});

/** Bytes of one answer, straight from the wire (undici's request does not decode). */
async function raw(url: string, headers: Record<string, string>, method = 'GET', body?: string) {
  const res = await request(url, { method: method as 'GET', headers, body });
  return { status: res.statusCode, headers: res.headers, bytes: Buffer.from(await res.body.arrayBuffer()) };
}

async function mockToken(): Promise<string> {
  const r = await raw(`${mock.url}/api/v1/demo-store/storefront/auth/anonymous`, { 'x-api-key': TEST_API_KEY }, 'POST');
  return JSON.parse(r.bytes.toString()).content.access_token;
}

describe('what the proxy passes through', () => {
  let proxy: ValidatingProxy;
  const notes: string[] = [];
  beforeAll(async () => {
    proxy = await createValidatingProxy({ upstream: faulty.url, maxBodyBytes: 8192, inline: true, onNote: (l) => notes.push(l) });
  });
  afterAll(() => proxy?.close());

  it('a gzip answer that breaks the schema reaches the client byte for byte; the proxy judges a decoded copy', async () => {
    active = {
      response(res, req, inner) {
        if (inner !== '/common/countries' || res.status !== 200) return;
        (res.body as any).content.countries[0].country_name = 42;
        if (/gzip/.test(req.headers['accept-encoding'] ?? '')) res.headers['content-encoding'] = 'gzip';
      },
      // Odd whitespace and key order survive too: nothing is re-serialised.
      serialize: (res) => {
        const text = typeof res.body === 'string' ? res.body : `  ${JSON.stringify(res.body, null, 3)}\n`;
        return res.headers['content-encoding'] === 'gzip' ? gzipSync(text) : Buffer.from(text);
      },
    };
    try {
      const headers = { authorization: `Bearer ${await mockToken()}`, 'accept-encoding': 'gzip' };
      const direct = await raw(`${faulty.url}/api/v1/demo-store/storefront/common/countries`, headers);
      const via = await raw(`${proxy.url}/api/v1/demo-store/storefront/common/countries`, headers);
      expect(direct.headers['content-encoding']).toBe('gzip');
      expect(via.headers['content-encoding']).toBe('gzip');
      expect(via.status).toBe(direct.status);
      expect(via.bytes.equals(direct.bytes)).toBe(true);
      expect(JSON.parse(gunzipSync(via.bytes).toString()).content.countries[0].country_name).toBe(42);
    } finally {
      active = {};
    }
    const last = (await proxy.report()).exchanges.at(-1)!;
    expect(last.operationId).toBe('listCountries');
    expect(last.findings.map((f) => `${f.rule} ${f.severity}`)).toEqual(['response-schema error']);
  });

  it("a large answer is judged on the proxy's second thread, from the bytes as they came (gzip), with the same findings", async () => {
    active = {
      response(res, req, inner) {
        if (inner !== '/common/countries' || res.status !== 200) return;
        (res.body as any).content.countries[0].country_name = 42;
        res.headers['content-encoding'] = 'gzip';
      },
      serialize: (res) => (res.headers['content-encoding'] === 'gzip' ? gzipSync(JSON.stringify(res.body)) : Buffer.from(JSON.stringify(res.body))),
    };
    // Every answer of 100 bytes or more goes to the second thread here (64 KB by default).
    const lines: Violation[] = [];
    const threaded = await createValidatingProxy({ upstream: faulty.url, offloadBytes: 100, onViolation: (v) => lines.push(v) });
    let report: RestCertificate;
    try {
      const headers = { authorization: `Bearer ${await mockToken()}`, 'accept-encoding': 'gzip' };
      const direct = await raw(`${faulty.url}/api/v1/demo-store/storefront/common/countries`, headers);
      const via = await raw(`${threaded.url}/api/v1/demo-store/storefront/common/countries`, headers);
      expect(via.bytes.equals(direct.bytes)).toBe(true);
      // Judged before the proxy closes: the judge's thread runs at nice 19, and closing waits for it only a
      // bounded time, after which an exchange still waiting is reported abandoned.
      await vi.waitFor(async () => expect((await threaded.report()).exchanges).toHaveLength(1), { timeout: hangGuard(60_000), interval: 50 });
    } finally {
      report = await threaded.close();
      active = {};
    }
    expect(report.exchanges.map((e) => [e.operationId, e.findings.map((f) => `${f.rule} ${f.severity}`)])).toEqual([['listCountries', ['response-schema error']]]);
    expect(lines.map((v) => v.rule)).toEqual(['response-schema']);
  });

  it("item 22: the judge's thread runs at the lowest CPU priority (nice 19) while the forwarding thread keeps the process's", async () => {
    // Linux gives each thread its own nice value (field 19 of /proc/<pid>/task/<tid>/stat).
    const niceOfThreads = () =>
      readdirSync('/proc/self/task').map((tid) => {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      });
    const before = niceOfThreads().filter((n) => n === 19).length;
    const threaded = await createValidatingProxy({ upstream: faulty.url, offloadBytes: 100 });
    try {
      const headers = { authorization: `Bearer ${await mockToken()}` };
      expect((await raw(`${threaded.url}/api/v1/demo-store/storefront/common/countries`, headers)).status).toBe(200);
      await vi.waitFor(async () => expect((await threaded.report()).exchanges).toHaveLength(1), { timeout: hangGuard(30_000), interval: 50 });
      expect(niceOfThreads().filter((n) => n === 19).length).toBe(before + 1);
      expect(readFileSync('/proc/self/stat', 'utf8').slice(readFileSync('/proc/self/stat', 'utf8').lastIndexOf(')') + 2).split(' ')[16]).toBe('0');
    } finally {
      await threaded.close();
    }
    await vi.waitFor(() => expect(niceOfThreads().filter((n) => n === 19).length).toBe(before));
  });

  it('a body over --max-body streams through whole and is advice ("not judged"), not a failure', async () => {
    const headers = { authorization: `Bearer ${await mockToken()}` };
    const direct = await raw(`${faulty.url}/api/v1/demo-store/storefront/catalog/products?limit=20`, headers);
    const via = await raw(`${proxy.url}/api/v1/demo-store/storefront/catalog/products?limit=20`, headers);
    expect(direct.bytes.length).toBeGreaterThan(8192);
    expect(via.bytes.equals(direct.bytes)).toBe(true);
    const last = (await proxy.report()).exchanges.at(-1)!;
    expect(last).toMatchObject({ operationId: 'listProducts', judged: false });
    expect(last.findings).toEqual([{ rule: 'body-not-judged', subject: 'body', severity: 'warning', message: expect.stringMatching(/over the proxy's limit of 8192 bytes: passed through unjudged$/) }]);
    expect((await proxy.report()).traffic?.notJudged.bodyNotJudged).toBe(1);
  });

  it('a request body reaches the upstream byte for byte', async () => {
    const body = '{ "first_name" : "Añá",\n  "email": "a@example.com" }';
    sentUpstream.length = 0;
    await raw(`${proxy.url}/api/v1/demo-store/storefront/customers`, { authorization: `Bearer ${await mockToken()}`, 'content-type': 'application/json' }, 'POST', body);
    expect(sentUpstream).toEqual([body]);
  });

  it('the live summary: JSON for this machine, the envelope for a foreign page, 404 and 405 under /__proxy', async () => {
    const ok = await raw(`${proxy.url}/__proxy/summary`, {});
    expect(ok.status).toBe(200);
    const summary = JSON.parse(ok.bytes.toString());
    expect(summary).toMatchObject({ upstream: faulty.url, verdict: 'violations', exchanges: { notJudged: { bodyNotJudged: 1 } }, rules: { 'response-schema': { errors: 1 } } });
    expect(summary.recent.at(-1)).toMatchObject({ operationId: 'listProducts', rule: 'body-not-judged', severity: 'warning' });
    const foreign = await raw(`${proxy.url}/__proxy/summary`, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.bytes.toString())).toMatchObject({ success: false, content: { error: { code: 'forbidden' } } });
    expect((await raw(`${proxy.url}/__proxy/nothing`, {})).status).toBe(404);
    // Stopping over HTTP is for the command (it says how it stops); a proxy started without it refuses.
    expect((await raw(`${proxy.url}/__proxy/stop`, {}, 'POST')).status).toBe(404);
    const post = await raw(`${proxy.url}/__proxy/summary`, {}, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET');
  });

  it('a path the contract does not have is forwarded and noted, not judged', async () => {
    const via = await raw(`${proxy.url}/api/v1/demo-store/storefront/no/such/thing`, {});
    expect(via.status).toBe(404);
    expect(notes.at(-1)).toMatch(/GET \/no\/such\/thing 404: no operation of the contract has this path and method \(not judged\)$/);
  });
});

describe('the proxy never blocks or alters traffic', () => {
  it('streams both ways: the client reads the head of an answer the upstream has not finished, the upstream the head of a body the client has not finished', async () => {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let gotHead!: () => void;
    const upstreamGotHead = new Promise<void>((r) => (gotHead = r));
    const upstream = http.createServer((req, res) => {
      if (req.method === 'POST') {
        req.once('data', () => gotHead());
        req.on('end', () => res.end('{}'));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"success":true,');
      void released.then(() => res.end('"message":"ok","content":{"countries":[]}}'));
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const proxy = await createValidatingProxy({ upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, inline: true });
    try {
      const res = await request(`${proxy.url}/api/v1/demo-store/storefront/common/countries`);
      const reader = res.body[Symbol.asyncIterator]();
      expect(String((await reader.next()).value)).toBe('{"success":true,');
      release();
      let rest = '';
      for (let c = await reader.next(); !c.done; c = await reader.next()) rest += c.value;
      expect(rest).toBe('"message":"ok","content":{"countries":[]}}');

      // The request side: the upstream sees the first chunk before the client sends the last.
      let sendRest!: () => void;
      const later = new Promise<void>((r) => (sendRest = r));
      async function* chunks() {
        yield Buffer.from('{"a":');
        await later;
        yield Buffer.from('1}');
      }
      const posted = request(`${proxy.url}/api/v1/demo-store/storefront/customers`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Readable.from(chunks()) });
      await upstreamGotHead;
      sendRest();
      expect((await posted).statusCode).toBe(200);
    } finally {
      await proxy.close();
      await new Promise<void>((r) => upstream.close(() => r()));
    }
  });

  it('a rule that crashes is reported and the exchange passes through; an unreachable upstream is a 502 envelope', async () => {
    const crashing: Rule<Exchange> = { id: 'crashing', target: 'rest', severity: 'error', source: { kind: 'stated', ref: 'section 5' }, summary: 'crashes', check: () => { throw new Error('boom'); } };
    const lines: Violation[] = [];
    const proxy = await createValidatingProxy({ upstream: faulty.url, rules: [crashing], onViolation: (v) => lines.push(v) });
    try {
      const direct = await raw(`${faulty.url}/api/v1/demo-store/storefront/common/countries`, {});
      const via = await raw(`${proxy.url}/api/v1/demo-store/storefront/common/countries`, {});
      expect(via.bytes.equals(direct.bytes)).toBe(true);
      expect(lines.map((v) => `${v.rule}: ${v.message}`)).toEqual(['crashing: the rule crashed (a certifier bug): boom']);
    } finally {
      await proxy.close();
    }
    const dead = await createValidatingProxy({ upstream: `http://127.0.0.1:${await closedPort()}`, inline: true });
    try {
      const answer = await raw(`${dead.url}/api/v1/demo-store/storefront/common/countries`, {});
      expect(answer.status).toBe(502);
      expect(JSON.parse(answer.bytes.toString())).toMatchObject({ success: false, content: { error: { code: 'bad_gateway' } } });
      expect(await dead.summary()).toMatchObject({ upstreamFailures: 1, exchanges: { seen: 0 } });
    } finally {
      await dead.close();
    }
  });
});


describe('memory stays bounded over a long session', () => {
  it('the redactor remembers the latest secrets, a bounded number of them', () => {
    const redactor = new Redactor();
    const token = (i: number) => `token-${String(i).padStart(6, '0')}-issued`;
    for (let i = 0; i < MAX_REMEMBERED_SECRETS + 10; i++) redactor.mark('access_token', token(i));
    expect(redactor.text(`echo ${token(0)}`)).toBe(`echo ${token(0)}`);
    expect(redactor.text(`echo ${token(MAX_REMEMBERED_SECRETS + 9)}`)).toBe(`echo REDACTED_access_token_${MAX_REMEMBERED_SECRETS + 10}`);
  });

  it("--store-id: another store's traffic is counted, not judged; paths outside the storefront API too", () => {
    const judge = new TrafficJudge({ source: 'proxy', storeId: 'my-store' });
    const at = (url: string): ObservedExchange => ({ method: 'GET', url, requestHeaders: [], status: 200, responseHeaders: [], responseText: '{}', durationMs: 1 });
    expect(judge.judge(at('http://x/api/v1/other-store/storefront/common/countries')).kind).toBe('other-store');
    expect(judge.judge(at('http://x/api/v1/my-store/admin/webhooks')).kind).toBe('outside-storefront');
    expect(judge.judge(at('http://x/__simulator/stores/my-store/world')).kind).toBe('outside-storefront');
    expect(judge.judge(at('http://x/api/v1/my-store/storefront/common/countries')).kind).toBe('judged');
    expect(judge.certificate('http://x').traffic?.notJudged).toEqual({ outsideStorefront: 2, otherStore: 1, noOperation: 0, bodyNotJudged: 0 });
  });

  it('counts every exchange, lists a bounded number, and a bounded number of findings per rule', () => {
    const judge = new TrafficJudge({ source: 'proxy', keep: { withFindings: 3, passing: 2 }, maxFindingsPerRule: 4 });
    const exchange = (i: number): ObservedExchange => ({
      started: new Date(0),
      method: 'GET',
      url: `http://127.0.0.1:1/api/v1/demo-store/storefront/common/countries?i=${i}`,
      requestHeaders: [{ name: 'Authorization', value: `Bearer token-number-${i}` }],
      status: 200,
      responseHeaders: [{ name: 'content-type', value: 'application/json' }],
      // Every other answer breaks the envelope.
      responseText: JSON.stringify({ success: i % 2 === 0, message: 'ok', content: { countries: [] } }),
      durationMs: 1,
    });
    for (let i = 0; i < 200; i++) judge.judge(exchange(i));
    const cert = judge.certificate('http://127.0.0.1:1');
    expect(cert.exchangeSummary).toEqual({ exchanges: 200, judged: 200, passed: 100, failed: 100, unsent: 0 });
    expect(cert.exchanges).toHaveLength(5);
    expect(cert.traffic?.notListed).toBe(195);
    const envelope = cert.rules.find((r) => r.id === 'envelope')!;
    expect(envelope).toMatchObject({ errors: 100, findingsNotListed: 96 });
    expect(envelope.findings).toHaveLength(4);
    expect(cert.coverage.listCountries['200']).toEqual({ recorded: false, exercised: true, passed: false });
    expect((judge.summary().recent as unknown[]).length).toBeLessThanOrEqual(20);
    // The bearer tokens seen are secrets: not one is in the report.
    expect(JSON.stringify(cert)).not.toMatch(/token-number-/);
  });
});

describe('the commands', () => {
  it('storefront-contract proxy prints each violation, writes the drift report and the HAR when stopped (exit 1); certify --from-har on that HAR finds the same', async () => {
    const dir = path.join(tmp, 'cli');
    active = cases.find(([, c]) => c.want.rule === 'response-schema')![1].transform() as Transform;
    const child = spawn(process.execPath, ['--import', 'tsx', 'cli/storefront-contract.ts', 'proxy', '--upstream', faulty.url, '--har', path.join(dir, 's.har'), '--report-dir', path.join(dir, 'live')], { stdio: ['ignore', 'pipe', 'pipe'] });
    // Stopped after the test whatever happens (a failed expectation, the proxy never listening, the test's
    // time-out, when a `finally` would wait on a promise that never settles).
    cleanup.defer(() => killChild(child));
    let stdout = '';
    let stderr = '';
    child.stderr!.on('data', (c) => (stderr += c));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (c) => {
        stdout += c;
        const m = /^proxy: (http:\/\/127\.0\.0\.1:\d+) -> /m.exec(stdout);
        if (m) resolve(m[1]);
      });
      child.once('exit', (code) => reject(new Error(`proxy exited ${code}: ${stderr}`)));
    });
    let token: string;
    try {
      token = await mockToken();
      await raw(`${url}/api/v1/demo-store/storefront/catalog/products?limit=2`, { authorization: `Bearer ${token}` });
    } finally {
      active = {};
    }
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    // As a script that started it through npx stops it (npx does not pass signals on); SIGTERM does the same.
    expect((await raw(`${url}/__proxy/stop`, {}, 'POST')).status).toBe(202);
    expect(await exited).toBe(1);
    expect(stdout).toMatch(/Z GET \/catalog\/products\?limit=2 listProducts 200 error response-schema: the 200 body does not match the schema: /);
    expect(stdout).toMatch(/^VIOLATIONS: storefront traffic through the proxy to http:\/\/127\.0\.0\.1:\d+ \(store demo-store\)$/m);
    expect(stdout + stderr).not.toContain(token);
    expect(stderr).not.toMatch(/\n\s+at /);
    const har = readFileSync(path.join(dir, 's.har'), 'utf8');
    expect(har).not.toContain(token);
    expect(har).toContain('Bearer REDACTED_access_token_1');

    const offline = spawn(process.execPath, ['--import', 'tsx', 'cli/storefront-contract.ts', 'certify', '--from-har', path.join(dir, 's.har'), '--report-dir', path.join(dir, 'offline'), '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
    cleanup.defer(() => killChild(offline));
    let summary = '';
    offline.stdout!.on('data', (c) => (summary += c));
    expect(await new Promise((resolve) => offline.once('exit', resolve))).toBe(1);
    expect(summary).toMatch(/^VIOLATIONS: storefront traffic in .*s\.har \(http:\/\/127\.0\.0\.1:\d+, store demo-store\)$/m);
    const read = (d: string): RestCertificate => JSON.parse(readFileSync(path.join(dir, d, 'report.json'), 'utf8'));
    expect(findingsOf(read('offline'))).toEqual(findingsOf(read('live')));
    expect(read('live').tool.command).toBe('storefront-contract proxy');
  }, hangGuard(120_000)); // two CLI processes started with tsx: a safety net for a loaded machine (26 s seen at load 30), not a speed check
});
