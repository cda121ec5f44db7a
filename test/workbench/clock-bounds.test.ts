// Issue 37, items 24 and 27: the store clocks under hostile or odd use. A store put back on the wall
// clock holds no place among the 1,000 (set, reset, DELETE; a reset on the wall clock after UTC midnight),
// also across a restart with --data-dir, and the 409 advises what frees one. A date that does not exist is
// a 400 (the reader the cart's expires_at uses), `attempts_due_on_the_way` counts attempts, and a
// hand-edited clocks.json is refused at start by the real CLI with one line and exit 2.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { clocksFile, Clocks, MAX_STORE_CLOCKS } from '../../workbench/clock/clocks.js';
import type { Workbench } from '../../workbench/index.js';
import { mockArgs } from '../helpers/mock-cli.js';
import { run } from '../helpers/run.js';
import { backOffice, http as send, startSandbox, tempDir, waitFor } from '../sandbox/helpers.js';
import { hangGuard } from '../helpers/hang-guard.js';

const DAY = 86_400_000;
const clockOf = (wb: Workbench, store: string) => `${backOffice(wb, store)}/clock`;
const setClock = (wb: Workbench, store: string, now = '2031-03-10T12:00:00Z') => send(clockOf(wb, store), 'POST', { body: { now, frozen: true } });

describe('issue 37 item 24: a store back on the wall clock holds no clock slot', () => {
  let wb: Workbench;
  beforeAll(async () => {
    wb = await startSandbox({ webhooks: false });
  });
  afterAll(async () => wb?.close());

  it(`item 24: the real bound of ${MAX_STORE_CLOCKS}: 999 held, a set-reset-DELETE store frees its slot, the 1,000th is taken, the 1,001st is a 409 whose DELETE frees one`, async () => {
    // 999 stores set on the running workbench's own clocks (what POST .../clock does, without 999 requests; the
    // fault-store test goes through HTTP all the way), then the bound over HTTP.
    const clocks = wb.sandbox!.sandbox.clocks;
    for (let i = 0; i < MAX_STORE_CLOCKS - 1; i++) clocks.set(`slot-${i}`, Date.parse('2030-01-01T00:00:00Z'), true);
    expect((await send(clockOf(wb, 'slot-998'))).json.content).toMatchObject({ wall_clock: false, now: '2030-01-01T00:00:00.000Z' });

    // The hostile sequence of the issue: its reset recorded an anchor that kept the slot after DELETE.
    const visitor = 'slot-visitor';
    expect((await setClock(wb, visitor)).status).toBe(200);
    expect((await send(`${backOffice(wb, visitor)}/reset`, 'POST')).status).toBe(200);
    const released = await send(clockOf(wb, visitor), 'DELETE');
    expect(released.json.content.wall_clock).toBe(true);

    expect((await setClock(wb, 'slot-1000th')).status).toBe(200);
    const refused = await setClock(wb, 'slot-1001st');
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ success: false, content: { error: { code: 'conflict' } } });
    expect(refused.json.message).toContain(`${MAX_STORE_CLOCKS} stores already have a clock of their own`);
    expect(refused.json.message).toContain('DELETE /__simulator/stores/{store_id}/clock');
    expect(refused.json.message).toContain('store "slot-0"');
    expect((await send(clockOf(wb, 'slot-1001st'))).json.content.wall_clock).toBe(true);
    // Leaving a store on the wall clock needs no place, even now.
    const unchanged = await send(clockOf(wb, 'slot-1001st'), 'POST', { body: { frozen: false } });
    expect(unchanged.status, unchanged.text).toBe(200);
    expect(unchanged.json.content.wall_clock).toBe(true);

    // What the message advises frees a place.
    expect((await send(clockOf(wb, 'slot-0'), 'DELETE')).status).toBe(200);
    expect((await setClock(wb, 'slot-1001st')).status).toBe(200);
    // A store whose clock is moved again keeps its own slot (no second one needed).
    expect((await send(clockOf(wb, 'slot-1'), 'POST', { body: { advance: 'PT1H' } })).status).toBe(200);
    expect(wb.sandbox!.sandbox.clocks.shifted().size).toBe(MAX_STORE_CLOCKS);
  });

  it('item 24: with --data-dir, a reset on the wall clock after UTC midnight records nothing, DELETE drops the anchor, and both sides of the bound hold across a restart', async () => {
    const { dir, remove } = await tempDir('clock-slots-');
    // 23:30 UTC on the sandbox's first day; the wall clock moves on by hand.
    let wall = Date.parse('2026-06-01T23:30:00Z');
    // The clocks kept in a file of the test's own (Clocks' file port) so that the wall clock can be moved by hand.
    const file = path.join(dir, 'kept-clocks.json');
    const stored = () => (existsSync(file) ? Object.keys(JSON.parse(readFileSync(file, 'utf8')).clocks) : []);
    const start = () => startSandbox({ webhooks: false, sandbox: { dataDir: dir, clocks: Clocks.open({ kept: clocksFile(file), wall: () => wall, maxStores: 2 }) } });
    let first: Workbench | undefined = await start();
    try {
      const carts = async (wb: Workbench, store: string) => (await send(`${backOffice(wb, store)}/world/carts`)).json.map((c: { id: string; expires_at: string }) => `${c.id} ${c.expires_at}`);
      const before = await carts(first, 'wall-store');
      wall += DAY; // past midnight: the store's clock (the wall clock) is on another day than the sandbox's
      expect((await send(`${backOffice(first, 'wall-store')}/reset`, 'POST')).status).toBe(200);
      expect(stored()).not.toContain('wall-store');
      // Dated from the sandbox's day like every store on the wall clock: the reset world is the seeded one.
      expect(await carts(first, 'wall-store')).toEqual(before);

      // A clock of its own, a reset (its anchor), then DELETE: no entry left, and the world is the wall clock's again.
      expect((await setClock(first, 'visitor')).status).toBe(200);
      expect((await send(`${backOffice(first, 'visitor')}/reset`, 'POST')).status).toBe(200);
      expect((await carts(first, 'visitor')).some((c: string) => c.includes(' 2031-'))).toBe(true);
      expect(stored()).toEqual(['visitor']);
      expect((await send(clockOf(first, 'visitor'), 'DELETE')).status).toBe(200);
      expect(stored()).toEqual([]);
      expect((await carts(first, 'visitor')).some((c: string) => c.includes(' 2031-'))).toBe(false);

      // A limit of 2: one below, at, one past.
      expect((await setClock(first, 'a')).status).toBe(200);
      expect((await setClock(first, 'b')).status).toBe(200);
      expect((await setClock(first, 'c')).status).toBe(409);
      await first.close();
      first = undefined;

      const second = await start();
      try {
        expect(stored().sort()).toEqual(['a', 'b']);
        expect((await send(clockOf(second, 'a'))).json.content).toMatchObject({ wall_clock: false, now: '2031-03-10T12:00:00.000Z' });
        const full = await setClock(second, 'c');
        expect(full.status).toBe(409);
        expect(full.json.message).toContain('store "a"');
        expect((await send(clockOf(second, 'a'), 'DELETE')).status).toBe(200);
        expect((await setClock(second, 'c')).status).toBe(200);
        expect(stored().sort()).toEqual(['b', 'c']);
      } finally {
        await second.close();
      }
    } finally {
      await first?.close();
      await remove();
    }
  });

  it('item 24: a clocks.json of an older version, with wall-clock entries kept for an anchor, starts with those places free', async () => {
    const { dir, remove } = await tempDir('clock-legacy-');
    try {
      const legacy = { v: 1, clocks: { old: { kind: 'running', offsetMs: 0, anchor: Date.parse('2031-03-10T00:00:00Z') }, kept: { kind: 'frozen', at: Date.parse('2031-03-10T12:00:00Z') } } };
      writeFileSync(path.join(dir, 'clocks.json'), JSON.stringify(legacy));
      const clocks = Clocks.open({ dataDir: dir, maxStores: 2 });
      expect([...clocks.shifted().keys()]).toEqual(['kept']);
      expect(clocks.anchorOf('old')).toBeUndefined();
      clocks.set('new', Date.parse('2030-01-01T00:00:00Z'), true);
      expect(() => clocks.ensureRoom('third')).toThrow(/2 stores already have a clock of their own/);
    } finally {
      await remove();
    }
  });
});

describe('issue 37 item 27: dates that do not exist, attempts counted, a hand-edited clocks.json', () => {
  let wb: Workbench;
  beforeAll(async () => {
    wb = await startSandbox({ webhooks: { timeoutMs: 2000 } });
  });
  afterAll(async () => wb?.close());

  it('a running clock that ran past 2100: "frozen" alone is refused naming "frozen" and the way out, not "advance"; "now" in range still moves it', async () => {
    const store = 'ran-past-the-range';
    const set = await send(clockOf(wb, store), 'POST', { body: { now: '2099-12-31T23:59:59.900Z', frozen: false } });
    expect(set.status, set.text).toBe(200);
    await new Promise((r) => setTimeout(r, 250));
    const freeze = await send(clockOf(wb, store), 'POST', { body: { frozen: true } });
    expect(freeze.status, freeze.text).toBe(400);
    expect(freeze.json.content.error.details).toEqual([expect.objectContaining({ location: 'body', name: 'frozen' })]);
    expect(freeze.json.message).toMatch(/'frozen' cannot be changed while the clock reads 2100-01-01T00:00:00\.\d{3}Z, past the range .*: set "now" to a time in it, or DELETE the clock/);
    const back = await send(clockOf(wb, store), 'POST', { body: { now: '2099-06-01T00:00:00Z', frozen: true } });
    expect(back.status, back.text).toBe(200);
    expect(back.json.content).toMatchObject({ now: '2099-06-01T00:00:00.000Z', frozen: true });
  });

  it.each([
    ['2026-02-30T10:00:00Z', 400],
    ['2026-02-29T10:00:00Z', 400],
    ['2026-04-31T10:00:00Z', 400],
    ['2026-02-28T24:00:00Z', 400],
    ['2026-02-28T23:60:00Z', 400],
    ['2026-02-28T23:59:60Z', 400],
    ['2026-02-28T10:00:00+24:00', 400],
    ['2026-13-01T10:00:00Z', 400],
    ['2028-02-29T10:00:00Z', 200],
    ['2026-02-28T23:59:59.999+05:30', 200],
  ])('item 27: the clock and a cart\'s expires_at answer %s alike (%i)', async (date, status) => {
    const store = 'dates-that-exist';
    const clock = await send(clockOf(wb, store), 'POST', { body: { now: date, frozen: true } });
    expect(clock.status, clock.text).toBe(status);
    const cart = await send(`${backOffice(wb, store)}/carts`, 'POST', { body: { expires_at: date } });
    expect(cart.status, cart.text).toBe(status === 200 ? 201 : 400);
    if (status === 400) {
      expect(clock.json).toMatchObject({ success: false, content: { error: { code: 'invalid_body', details: [{ location: 'body', name: 'now' }] } } });
      expect(cart.json.content.error.details).toEqual([expect.objectContaining({ location: 'body', name: 'expires_at' })]);
      // One reader, one wording: the same explanation for both fields.
      expect(clock.json.content.error.details[0].message).toBe(cart.json.content.error.details[0].message.replace(/ \(a past time makes an expired cart\)$/, ''));
      // Nothing moved to another day.
      expect((await send(clockOf(wb, store))).json.content.now).not.toMatch(/^2026-03-0[12]/);
    } else {
      expect(clock.json.content.now).toBe(new Date(date).toISOString());
      expect(cart.json.content.cart.expires_at).toBe(date);
    }
  });

  it('item 27: attempts_due_on_the_way counts the attempts sent, not the due times stepped through', async () => {
    const store = 'attempts-counted';
    let received = 0;
    const receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received++;
        res.writeHead(500).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
      const admin = { authorization: 'Bearer clock-bounds-admin' };
      await send(clockOf(wb, store), 'POST', { body: { now: '2027-02-01T10:00:00Z', frozen: true } });
      // 5 subscriptions (the most a store holds) x 3 events: 15 deliveries; each due time of the ladder holds 15 attempts.
      for (let i = 0; i < 5; i++) {
        const sub = await send(`${wb.url}/api/v1/${store}/admin/webhooks`, 'POST', { headers: admin, body: { url: `${url}/hook-${i}`, events: ['order.created'] } });
        expect(sub.status, sub.text).toBe(201);
      }
      for (let i = 0; i < 3; i++) expect((await send(`${wb.url}/__simulator/stores/${store}/events`, 'POST', { body: { event: 'order.created' } })).status).toBe(202);
      // Frozen: the 15 first attempts are due now and sent at once; the retries wait for the clock.
      await waitFor(() => received >= 15, '15 first attempts', 20_000);
      const before = received;
      const advanced = await send(clockOf(wb, store), 'POST', { body: { advance: 'P1D' } });
      expect(advanced.status, advanced.text).toBe(200);
      const sent = received - before;
      expect(sent).toBe(45); // retries 2, 3 and 4 of 15 deliveries
      expect(advanced.json.content.attempts_due_on_the_way).toBe(sent);
      expect(advanced.json.message).toContain('45 webhook attempts fell due on the way and were sent');
    } finally {
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  });

  const HAND_EDITED: Array<[string, Record<string, unknown>]> = [
    ['at', { kind: 'frozen', at: 1e300 }],
    ['offsetMs', { kind: 'running', offsetMs: 1e20 }],
    ['anchor', { kind: 'frozen', at: Date.parse('2030-01-01T00:00:00Z'), anchor: 12345 }],
    ['kind', { kind: 'paused', at: 0 }],
    ['"extra"', { kind: 'frozen', at: Date.parse('2030-01-01T00:00:00Z'), extra: 1 }],
  ];

  it.each(HAND_EDITED)('item 27: a clocks.json whose %s is out of range is refused on reading, naming file, store, field and fix', async (field, entry) => {
    const { dir, remove } = await tempDir('clock-file-');
    try {
      const file = path.join(dir, 'clocks.json');
      writeFileSync(file, JSON.stringify({ v: 1, clocks: { 'edited-store': entry } }));
      expect(() => Clocks.open({ dataDir: dir })).toThrow(`${file}: store "edited-store": ${field.startsWith('"') ? field : `"${field}"`} `);
    } finally {
      await remove();
    }
  });

  it('item 27: the real CLI refuses a hand-edited clocks.json at start: one line naming file, store, field and fix, exit 2 (it used to start and answer 500)', async () => {
    const { dir, remove } = await tempDir('clock-file-');
    try {
      const file = path.join(dir, 'clocks.json');
      writeFileSync(file, JSON.stringify({ v: 1, clocks: { 'edited-store': { kind: 'frozen', at: 1e300 } } }));
      const r = await run(process.execPath, mockArgs(['--data-dir', dir, '--port', '0', '--quiet']), { cwd: repoRoot, timeoutMs: hangGuard(60_000) });
      expect(r.code, r.output).toBe(2);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trim().split('\n');
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toContain(`--data-dir ${dir}: ${file}: store "edited-store": "at" is 1e+300, not a time`);
      expect(lines[0]).toMatch(/correct it, remove that store's entry .* or delete the file/);
    } finally {
      await remove();
    }
  });
});
