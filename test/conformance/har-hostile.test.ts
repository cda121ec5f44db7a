// issue 37 item 30: `certify --from-har` on hostile HAR files. A wrongly typed field of an entry is one
// line naming the file, the entry and the field (exit 2), never an internal message ("out.includes is not
// a function"); a truncated request body that claims a huge size is judged from the bytes the file holds,
// never padded out to the claim (a 1 KB file claiming 400 MB used to take about 490 MB).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { runCli } from '../helpers/cli-in-process.js';
import { run } from '../helpers/run.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'har-hostile-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Entry = Record<string, any>;
/** One createCustomer exchange as the recorder writes it, answered 413 (a body over the limit). */
function entry(): Entry {
  return {
    startedDateTime: '2026-11-26T10:00:00.000Z',
    time: 5,
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:4010/api/v1/demo-store/storefront/customers',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      // A credential: the judge learns it, and scrubs every text it prints against it.
      headers: [{ name: 'content-type', value: 'application/json' }, { name: 'authorization', value: 'Bearer har-hostile-token-123456' }],
      queryString: [],
      postData: { mimeType: 'application/json', text: '{"padding":"', _truncated: true, _padWith: 'x' },
      headersSize: -1,
      bodySize: 2 * 1024 * 1024,
    },
    response: {
      status: 413,
      statusText: 'Payload Too Large',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [{ name: 'content-type', value: 'application/json' }],
      content: { size: 120, mimeType: 'application/json', text: '{"success":false,"message":"The body is too large.","content":{"error":{"code":"payload_too_large","details":[]}}}' },
      redirectURL: '',
      headersSize: -1,
      bodySize: 120,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
    comment: 'create a customer with a 2 MiB body',
  };
}

function harFile(name: string, entries: unknown[]): string {
  const file = path.join(tmp, name);
  writeFileSync(file, JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } }));
  return file;
}

const certify = (file: string, reports: string) => runCli(['certify', '--from-har', file, '--report-dir', path.join(tmp, reports), '--quiet']);

describe('issue 37 item 30: certify --from-har on hostile files', () => {
  it.each<[string, (e: Entry) => void, RegExp]>([
    ['comment a number', (e) => (e.comment = 42), /entry 0: "comment" \(the step name\) must be a string \(got number\)/],
    ['comment an object', (e) => (e.comment = { step: 'x' }), /entry 0: "comment" \(the step name\) must be a string \(got object\)/],
    ['postData.text a number', (e) => (e.request.postData.text = 7), /entry 0: request\.postData\.text must be a string/],
    ['postData a string', (e) => (e.request.postData = 'body'), /entry 0: request\.postData must be an object/],
    ['content.text a list', (e) => (e.response.content.text = ['a']), /entry 0: response\.content\.text must be a string \(got a list\)/],
    ['content.encoding a number', (e) => (e.response.content.encoding = 64), /entry 0: response\.content\.encoding must be a string/],
    ['content a string', (e) => (e.response.content = 'x'), /entry 0: response\.content must be an object/],
    ['the entry null', (e) => Object.keys(e).forEach((k) => delete e[k]), /entry 0: no request method and url/],
  ])('item 30: %s is one line naming the file, the entry and the field (exit 2)', async (name, damage, want) => {
    const e = entry();
    damage(e);
    const file = harFile(`${name.replace(/\W+/g, '-')}.har`, [e]);
    const result = await certify(file, name.replace(/\W+/g, '-'));
    expect(result.code, result.output).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^certify: --from-har \S*\.har entry 0: /);
    expect(lines[0]).toContain(path.basename(file));
    expect(lines[0]).toMatch(want);
    expect(result.stderr).not.toMatch(/is not a function|TypeError|\n\s+at /);
  });

  it('item 30: the same entry undamaged is judged and certifies', async () => {
    const result = await certify(harFile('fine.har', [entry()]), 'fine');
    expect(result.code, result.output).toBe(0);
    const report = JSON.parse(readFileSync(path.join(tmp, 'fine', 'report.json'), 'utf8'));
    expect(report.exchanges).toHaveLength(1);
    expect(report.exchanges[0]).toMatchObject({ operationId: 'createCustomer', status: 413 });
  });

  it('item 30: a request body claiming 400 MB is judged from the bytes in the file: the real CLI grows by less than 64 MB over the same file claiming 2 MiB', async () => {
    const small = harFile('claims-2mib.har', [entry()]);
    const hugeEntry = entry();
    hugeEntry.request.bodySize = 400_000_000;
    const huge = harFile('claims-400mb.har', [hugeEntry]);
    expect(readFileSync(huge).length).toBeLessThan(2048);
    // The child writes its peak resident size (process.resourceUsage().maxRSS, KB) when it exits.
    const peak = async (file: string, name: string) => {
      const out = path.join(tmp, `${name}.maxrss`);
      const probe = `data:text/javascript,import fs from 'node:fs'; process.on('exit', () => fs.writeFileSync(${JSON.stringify(out)}, String(process.resourceUsage().maxRSS)));`;
      const result = await run(process.execPath, ['--conditions=sfc-source', '--import', 'tsx', '--import', probe, 'cli/storefront-contract.ts', 'certify', '--from-har', file, '--report-dir', path.join(tmp, name), '--quiet'], { cwd: repoRoot });
      expect(result.code, result.output).toBe(0);
      const report = JSON.parse(readFileSync(path.join(tmp, name, 'report.json'), 'utf8'));
      return { kb: Number(readFileSync(out, 'utf8')), exchanges: report.exchanges.map((e: any) => ({ ...e, durationMs: undefined })) };
    };
    const base = await peak(small, 'rss-small');
    const claimed = await peak(huge, 'rss-huge');
    expect(claimed.exchanges).toEqual(base.exchanges);
    expect(claimed.kb - base.kb, `${base.kb} KB for the 2 MiB claim, ${claimed.kb} KB for the 400 MB claim`).toBeLessThan(64 * 1024);
  });
});
