// issue 38: the store clocks (workbench/clock/clocks.ts), the advance through due attempts (advance.ts) and
// the date-time reader (workbench/http/date-time.ts), driven through their own APIs in process: a wall
// clock the test moves by hand, a scheduler that keeps attempts in a list (the DueWork the simulator
// gives), clocks.json on a temporary folder. Every bound is checked on both sides.
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../helpers/cleanup.js';
import { advanceClock, ADVANCE_WAIT_MS, parseDuration, type DueWork } from '../../workbench/clock/advance.js';
import { ClockError, Clocks, dayOf, EARLIEST, LATEST, MAX_STORE_CLOCKS } from '../../workbench/clock/clocks.js';
import { DATE_TIME_WANTED, parseDateTime } from '../../workbench/http/date-time.js';
import { openStoreDatabase } from '../../workbench/store/database.js';
import { setting } from '../../workbench/store/settings.js';

const T = Date.parse('2030-06-15T12:00:00Z');
const DAY = 86_400_000;
const cleanup = cleanupAfterEach();

/** Clocks on a wall clock that moves only when the test says. */
function manual(options: { dataDir?: string; maxStores?: number } = {}) {
  const wall = { now: T };
  const clocks = Clocks.open({ ...options, wall: () => wall.now });
  return { wall, clocks };
}

describe('issue 38: a store clock', () => {
  it('is the wall clock until set; running keeps its offset as the wall moves; frozen stays', () => {
    const { wall, clocks } = manual();
    expect(clocks.wallNow()).toBe(T);
    expect(clocks.now('s')).toBe(T);
    expect(clocks.view('s')).toEqual({ store_id: 's', now: new Date(T).toISOString(), frozen: false, offset_ms: 0, wall_clock: true });
    expect(clocks.onWallClock('s')).toBe(true);
    expect(clocks.anyShifted).toBe(false);

    clocks.set('s', T + 5000);
    wall.now += 1000;
    expect(clocks.now('s')).toBe(T + 6000);
    expect(clocks.view('s')).toEqual({ store_id: 's', now: new Date(T + 6000).toISOString(), frozen: false, offset_ms: 5000, wall_clock: false });
    expect(clocks.onWallClock('s')).toBe(false);
    expect(clocks.anyShifted).toBe(true);
    // Without `frozen`, setting keeps the mode.
    clocks.set('s', T - 1000);
    wall.now += 1000;
    expect(clocks.now('s')).toBe(T);

    clocks.set('f', T + DAY, true);
    wall.now += 60_000;
    expect(clocks.now('f')).toBe(T + DAY);
    expect(clocks.view('f')).toEqual({ store_id: 'f', now: new Date(T + DAY).toISOString(), frozen: true, offset_ms: T + DAY - wall.now, wall_clock: false });
    clocks.set('f', T + 2 * DAY);
    wall.now += 60_000;
    expect(clocks.now('f')).toBe(T + 2 * DAY);
    // Frozen at the wall clock's own time is still a clock of its own.
    clocks.set('g', wall.now, true);
    expect(clocks.onWallClock('g')).toBe(false);
    expect(clocks.view('g')).toMatchObject({ frozen: true, offset_ms: 0, wall_clock: false });
    clocks.set('f', T, false);
    wall.now += 1;
    expect(clocks.now('f')).toBe(T + 1);
  });

  it('set running at the wall clock\'s time, or released, is the wall clock again: no entry, no place held', () => {
    const { wall, clocks } = manual({ maxStores: 1 });
    clocks.set('s', T + 1, true);
    clocks.set('s', wall.now, false);
    expect(clocks.onWallClock('s')).toBe(true);
    expect([...clocks.shifted().keys()]).toEqual([]);
    clocks.set('t', T + 1);
    expect(() => clocks.set('u', T)).toThrow(ClockError);
    clocks.release('t');
    expect(clocks.onWallClock('t')).toBe(true);
    expect(clocks.now('t')).toBe(wall.now);
    clocks.set('u', T + 5, true);
    expect(clocks.now('u')).toBe(T + 5);
  });

  it('is set between 2000 and 2100: both ends checked, the end excluded', () => {
    const { clocks } = manual();
    clocks.set('a', EARLIEST, true);
    expect(clocks.now('a')).toBe(Date.parse('2000-01-01T00:00:00Z'));
    clocks.set('b', LATEST - 1, true);
    expect(clocks.now('b')).toBe(Date.parse('2100-01-01T00:00:00Z') - 1);
    for (const at of [EARLIEST - 1, LATEST, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(() => clocks.set('c', at), String(at)).toThrow(new ClockError('a clock is set between 2000-01-01T00:00:00.000Z and 2100-01-01T00:00:00.000Z'));
    }
    expect(clocks.onWallClock('c')).toBe(true);
  });

  it(`at most ${MAX_STORE_CLOCKS} stores have a clock of their own; the refusal names the longest held and how to free it`, () => {
    expect(MAX_STORE_CLOCKS).toBe(1000);
    const { clocks } = manual({ maxStores: 2 });
    expect(clocks.maxStores).toBe(2);
    const long = `a${'x'.repeat(100)}`;
    clocks.set(long, T + 1);
    clocks.set('b', T + 1);
    clocks.ensureRoom(long);
    clocks.set(long, T + 2);
    expect(() => clocks.ensureRoom('c')).toThrow(ClockError);
    expect(() => clocks.set('c', T + 1)).toThrow(
      `2 stores already have a clock of their own; put one back on the wall clock to free its place: DELETE /__simulator/stores/{store_id}/clock (the longest held is store "${long.slice(0, 80)}")`,
    );
    expect(() => clocks.set('c', T + 1)).not.toThrow(long.slice(0, 81));
    clocks.release('b');
    clocks.ensureRoom('c');
    clocks.set('c', T + 1);
    expect(Manual.defaults().maxStores).toBe(MAX_STORE_CLOCKS);
  });

  it('tells its listeners of each change, not of a release that changed nothing, and stops when unsubscribed', () => {
    const { clocks } = manual();
    const seen: string[] = [];
    const stop = clocks.onChange((s) => seen.push(s));
    clocks.set('s', T + 1);
    clocks.release('s');
    clocks.release('s');
    clocks.release('never');
    expect(seen).toEqual(['s', 's']);
    stop();
    clocks.set('s', T + 1);
    expect(seen).toEqual(['s', 's']);
  });

  it('builds the shifted view once per change', () => {
    const { clocks } = manual();
    clocks.set('s', T + 1);
    const first = clocks.shifted();
    expect(clocks.shifted()).toBe(first);
    expect([...first]).toEqual([['s', { kind: 'running', offsetMs: 1 }]]);
    clocks.set('t', T, true);
    const second = clocks.shifted();
    expect(second).not.toBe(first);
    expect([...second.keys()]).toEqual(['s', 't']);
    clocks.setAnchor('s', dayOf(T));
    expect(clocks.shifted()).not.toBe(second);
  });

  it('keeps a reset\'s anchor only for a store with a clock of its own', () => {
    const { clocks } = manual();
    clocks.setAnchor('wall', dayOf(T));
    expect(clocks.anchorOf('wall')).toBeUndefined();
    expect(clocks.onWallClock('wall')).toBe(true);
    clocks.set('s', T + DAY, true);
    clocks.setAnchor('s', dayOf(T + DAY));
    expect(clocks.anchorOf('s')).toBe(dayOf(T + DAY));
    clocks.set('s', T + 2 * DAY);
    expect(clocks.anchorOf('s')).toBe(dayOf(T + DAY));
    clocks.setAnchor('s', undefined);
    expect(clocks.anchorOf('s')).toBeUndefined();
    expect(clocks.now('s')).toBe(T + 2 * DAY);
  });

  it('dayOf: UTC midnight of the day, also before 1970', () => {
    expect(dayOf(Date.parse('2026-03-04T10:11:12.345Z'))).toBe(Date.parse('2026-03-04T00:00:00Z'));
    expect(dayOf(Date.parse('2026-03-04T00:00:00Z'))).toBe(Date.parse('2026-03-04T00:00:00Z'));
    expect(dayOf(-1)).toBe(-DAY);
    expect(dayOf(-DAY)).toBe(-DAY);
  });
});

/** Defaults of Clocks.open without options (the real wall clock). */
const Manual = { defaults: () => Clocks.open() };

describe('issue 38: clocks.json', () => {
  it('is written on each change (0600, replaced whole, the folder made if missing) and read back at open', async () => {
    const dir = path.join(await cleanup.tempDir('clock-unit-'), 'data', 'more');
    const first = manual({ dataDir: dir });
    first.clocks.set('run', T + 5000);
    first.clocks.set('frozen', T - DAY, true);
    first.clocks.setAnchor('frozen', dayOf(T - DAY));
    const file = path.join(dir, 'clocks.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ v: 1, clocks: { run: { kind: 'running', offsetMs: 5000 }, frozen: { kind: 'frozen', at: T - DAY, anchor: dayOf(T - DAY) } } });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['clocks.json']);
    const again = manual({ dataDir: dir });
    again.wall.now = T + 10;
    expect(again.clocks.now('run')).toBe(T + 5010);
    expect(again.clocks.now('frozen')).toBe(T - DAY);
    expect(again.clocks.anchorOf('frozen')).toBe(dayOf(T - DAY));
    expect(again.clocks.anchorOf('run')).toBeUndefined();
    again.clocks.release('run');
    again.clocks.setAnchor('frozen', undefined);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ v: 1, clocks: { frozen: { kind: 'frozen', at: T - DAY } } });
    // A store put back with DELETE is dropped from the file too.
    again.clocks.release('frozen');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ v: 1, clocks: {} });
  });

  it('without a data dir nothing is written', () => {
    const { clocks } = manual();
    clocks.set('s', T + 1);
    expect(existsSync(path.join(process.cwd(), 'clocks.json'))).toBe(false);
  });

  const span = LATEST - EARLIEST;
  const midnight = Date.parse('2030-01-01T00:00:00Z');
  const fix = "correct it, remove that store's entry (its clock goes back to the wall clock) or delete the file (every store goes back)";
  const refused: Array<[string, string, string]> = [
    ['not JSON', '{"v":1,', ': not JSON ('],
    ['another version', JSON.stringify({ v: 2, clocks: {} }), ': not clocks of this version ({"v":1,"clocks":{...}}); delete the file to put every store back on the wall clock'],
    ['clocks null', JSON.stringify({ v: 1, clocks: null }), ': not clocks of this version'],
    ['clocks a list', JSON.stringify({ v: 1, clocks: [] }), ': not clocks of this version'],
    ['clocks a string', JSON.stringify({ v: 1, clocks: 'x' }), ': not clocks of this version'],
    ['no clocks', JSON.stringify({ v: 1 }), ': not clocks of this version'],
    ['null', 'null', ': not clocks of this version'],
    ['an entry that is null', JSON.stringify({ v: 1, clocks: { s: null } }), `: store "s": the entry is not {"kind":"running","offsetMs":n} or {"kind":"frozen","at":n}; ${fix}`],
    ['an entry that is a list', JSON.stringify({ v: 1, clocks: { s: [] } }), ': store "s": the entry is not {"kind"'],
    ['an entry that is a number', JSON.stringify({ v: 1, clocks: { s: 5 } }), ': store "s": the entry is not {"kind"'],
    ['an extra field', JSON.stringify({ v: 1, clocks: { s: { kind: 'frozen', at: T, [`x${'y'.repeat(60)}`]: 1 } } }), `: store "s": "x${'y'.repeat(39)}" is not a field of a clock (kind, offsetMs or at, anchor); ${fix}`],
    ['an offset that is a string', JSON.stringify({ v: 1, clocks: { s: { kind: 'running', offsetMs: '5' } } }), `: store "s": "offsetMs" is "5", not a number of ms from -${span} to ${span} (the store's time minus the wall clock's); ${fix}`],
    ['an offset past the span', JSON.stringify({ v: 1, clocks: { s: { kind: 'running', offsetMs: span + 1 } } }), `: store "s": "offsetMs" is ${span + 1}, not a number`],
    ['an offset before the span', JSON.stringify({ v: 1, clocks: { s: { kind: 'running', offsetMs: -span - 1 } } }), `: store "s": "offsetMs" is ${-span - 1}, not a number`],
    ['a frozen time before 2000', JSON.stringify({ v: 1, clocks: { s: { kind: 'frozen', at: EARLIEST - 1 } } }), `: store "s": "at" is ${EARLIEST - 1}, not a time in ms since the epoch from ${EARLIEST} (2000-01-01T00:00:00.000Z) to ${LATEST} (2100-01-01T00:00:00.000Z), excluded; ${fix}`],
    ['a frozen time at 2100', JSON.stringify({ v: 1, clocks: { s: { kind: 'frozen', at: LATEST } } }), `: store "s": "at" is ${LATEST}, not a time`],
    ['a frozen time that is a string', JSON.stringify({ v: 1, clocks: { s: { kind: 'frozen', at: 'now' } } }), ': store "s": "at" is "now", not a time'],
    ['another kind', JSON.stringify({ v: 1, clocks: { s: { kind: 'paused' } } }), `: store "s": "kind" is "paused", not "running" or "frozen"; ${fix}`],
    ['no kind', JSON.stringify({ v: 1, clocks: { s: {} } }), ': store "s": "kind" is undefined, not "running" or "frozen"'],
    ['an anchor that is not midnight', JSON.stringify({ v: 1, clocks: { s: { kind: 'frozen', at: T, anchor: midnight + 1 } } }), `: store "s": "anchor" is ${midnight + 1}, not a UTC midnight in ms since the epoch from ${EARLIEST} to ${LATEST}; ${fix}`],
    ['an anchor before 2000', JSON.stringify({ v: 1, clocks: { s: { kind: 'frozen', at: T, anchor: EARLIEST - DAY } } }), ': store "s": "anchor" is'],
    ['an anchor at 2100', JSON.stringify({ v: 1, clocks: { s: { kind: 'frozen', at: T, anchor: LATEST } } }), ': store "s": "anchor" is'],
    ['an anchor that is a string', JSON.stringify({ v: 1, clocks: { s: { kind: 'frozen', at: T, anchor: String(midnight) } } }), `: store "s": "anchor" is "${midnight}"`],
    ['an anchor that is a fraction', JSON.stringify({ v: 1, clocks: { s: { kind: 'frozen', at: T, anchor: midnight + 0.5 } } }), ': store "s": "anchor" is'],
    ['a long store name', JSON.stringify({ v: 1, clocks: { [`s${'z'.repeat(100)}`]: null } }), `: store "s${'z'.repeat(79)}": the entry`],
  ];

  it.each(refused)('%s is refused at open with the file, the store, the field and the fix', async (_name, text, why) => {
    const dir = await cleanup.tempDir('clock-unit-');
    const file = path.join(dir, 'clocks.json');
    writeFileSync(file, text);
    let thrown: unknown;
    try {
      Clocks.open({ dataDir: dir });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ClockError);
    expect((thrown as Error).message.startsWith(`${file}${why}`), (thrown as Error).message).toBe(true);
  });

  it("a hand-edited settings row of the database is refused with the row's own fix, never \"delete the file\" (the file holds every world)", () => {
    const store = openStoreDatabase();
    try {
      const kept = setting(store.db, '/data/workbench.sqlite', 'clocks');
      kept.write(JSON.stringify({ v: 1, clocks: { s: { kind: 'frozen', at: 'now' } } }));
      const message = (() => {
        try {
          Clocks.open({ kept });
        } catch (e) {
          return (e as Error).message;
        }
        return 'opened';
      })();
      expect(message).toContain('/data/workbench.sqlite (settings row "clocks"): store "s": "at" is "now", not a time');
      expect(message).toContain(`or delete that row (sqlite3 '/data/workbench.sqlite' "DELETE FROM settings WHERE key = 'clocks'") with the workbench stopped (every store goes back)`);
      expect(message).not.toContain('delete the file');
      kept.write('{"v":1,');
      expect(() => Clocks.open({ kept })).toThrow(/: not JSON \(.*\); delete that row \(sqlite3 .*\) with the workbench stopped to put every store back on the wall clock$/);
    } finally {
      store.close();
    }
  });

  it('the edges that are accepted: the full span of offsets, 2000 itself, an anchor at midnight; a wall-clock entry holds no place', async () => {
    const dir = await cleanup.tempDir('clock-unit-');
    writeFileSync(
      path.join(dir, 'clocks.json'),
      JSON.stringify({
        v: 1,
        clocks: {
          ahead: { kind: 'running', offsetMs: span },
          behind: { kind: 'running', offsetMs: -span },
          early: { kind: 'frozen', at: EARLIEST, anchor: EARLIEST },
          late: { kind: 'frozen', at: LATEST - 1, anchor: dayOf(LATEST - 1) },
          wall: { kind: 'running', offsetMs: 0, anchor: midnight },
        },
      }),
    );
    const { wall, clocks } = manual({ dataDir: dir, maxStores: 4 });
    expect(clocks.now('ahead')).toBe(wall.now + span);
    expect(clocks.now('behind')).toBe(wall.now - span);
    expect(clocks.now('early')).toBe(EARLIEST);
    expect(clocks.anchorOf('early')).toBe(EARLIEST);
    expect(clocks.anchorOf('late')).toBe(dayOf(LATEST - 1));
    expect(clocks.onWallClock('wall')).toBe(true);
    expect(clocks.anchorOf('wall')).toBeUndefined();
    expect(() => Clocks.open({ dataDir: dir, maxStores: 3 })).toThrow(`: store "late": the entry is one more than the 3 stores that may have a clock of their own; ${fix}`);
  });
});

/**
 * The simulator's due work, as a list: each attempt is due at a store time; `kick` puts what is due on
 * the wire, `nextAttempt` records one (at the store's time then) and may schedule a retry.
 */
function scheduler(clocks: Clocks, attempts: Array<{ store: string; due: number; retryAfter?: number[] }>) {
  const pending = attempts.map((a, i) => ({ ...a, id: i, retries: [...(a.retryAfter ?? [])] }));
  const wire: typeof pending = [];
  const sent: Array<{ id: number; store: string; due: number; at: number }> = [];
  const counters: Array<{ store: string; after: number; count: number; stopped: boolean }> = [];
  let kicks = 0;
  const work: DueWork = {
    nextDueOf: (store) => {
      const dues = pending.filter((a) => a.store === store).map((a) => a.due);
      return dues.length ? Math.min(...dues) : undefined;
    },
    inFlightOf: (store) => wire.filter((a) => a.store === store).length,
    kick: () => {
      kicks++;
      for (const a of [...pending].sort((x, y) => x.due - y.due)) {
        if (a.due <= clocks.now(a.store)) {
          pending.splice(pending.indexOf(a), 1);
          wire.push(a);
        }
      }
    },
    nextAttempt: async () => {
      await Promise.resolve();
      const a = wire.shift();
      if (!a) return;
      const at = clocks.now(a.store);
      sent.push({ id: a.id, store: a.store, due: a.due, at });
      for (const c of counters) if (!c.stopped && c.store === a.store && a.due > c.after) c.count++;
      const next = a.retries.shift();
      if (next !== undefined) pending.push({ ...a, due: at + next });
    },
    countAttempts: (store, after) => {
      const c = { store, after, count: 0, stopped: false };
      counters.push(c);
      return {
        get count() {
          return c.count;
        },
        stop: () => {
          c.stopped = true;
        },
      };
    },
  };
  return { work, sent, counters, pending, kicks: () => kicks };
}

describe('issue 38: advancing a store clock', () => {
  it('sends each attempt due on the way at its own due time, in order, retries included; then stands at the target', async () => {
    const { clocks } = manual();
    clocks.set('s', T, true);
    const s = scheduler(clocks, [
      { store: 's', due: T + 60_000 },
      { store: 's', due: T + 1000, retryAfter: [5000, 30_000] },
      { store: 's', due: T + 3_600_001 },
      { store: 'other', due: T + 2000 },
    ]);
    const sentOnTheWay = await advanceClock(clocks, s.work, 's', T + 3_600_000, true);
    expect(s.sent.map((a) => [a.id, a.at - T])).toEqual([
      [1, 1000],
      [1, 6000],
      [1, 36_000],
      [0, 60_000],
    ]);
    expect(sentOnTheWay).toBe(4);
    expect(s.counters).toEqual([{ store: 's', after: T, count: 4, stopped: true }]);
    expect(clocks.now('s')).toBe(T + 3_600_000);
    expect(clocks.view('s').frozen).toBe(true);
    // The attempt due a millisecond past the target waits, and so does the other store's.
    expect(s.pending.map((a) => a.id).sort()).toEqual([2, 3]);
  });

  it('an attempt due exactly at the target is sent; the clock is left running when asked', async () => {
    const { wall, clocks } = manual();
    clocks.set('s', T, true);
    const s = scheduler(clocks, [{ store: 's', due: T + 10_000 }]);
    expect(await advanceClock(clocks, s.work, 's', T + 10_000, false)).toBe(1);
    expect(s.sent.map((a) => a.at)).toEqual([T + 10_000]);
    wall.now += 5;
    expect(clocks.now('s')).toBe(T + 10_005);
  });

  it('what is due at the start is sent first, and counts only when due after the start', async () => {
    const { clocks } = manual();
    clocks.set('s', T, true);
    const s = scheduler(clocks, [
      { store: 's', due: T - 1000 },
      { store: 's', due: T },
      { store: 's', due: T + 1 },
    ]);
    expect(await advanceClock(clocks, s.work, 's', T + 1, true)).toBe(1);
    expect(s.sent.map((a) => [a.id, a.at])).toEqual([
      [0, T],
      [1, T],
      [2, T + 1],
    ]);
  });

  it('moving back, or not at all, sends nothing and simply sets the clock; without the simulator it sets the clock', async () => {
    const { clocks } = manual();
    clocks.set('s', T, true);
    const s = scheduler(clocks, [{ store: 's', due: T - 5 }]);
    expect(await advanceClock(clocks, s.work, 's', T, true)).toBe(0);
    expect(await advanceClock(clocks, s.work, 's', T - DAY, true)).toBe(0);
    expect(s.kicks()).toBe(0);
    expect(s.sent).toEqual([]);
    expect(clocks.now('s')).toBe(T - DAY);
    expect(await advanceClock(clocks, undefined, 's', T + DAY, false)).toBe(0);
    expect(clocks.view('s')).toMatchObject({ now: new Date(T + DAY).toISOString(), frozen: false });
  });

  it('waits for what is on the wire before moving on', async () => {
    const { clocks } = manual();
    clocks.set('s', T, true);
    const s = scheduler(clocks, [
      { store: 's', due: T + 1000 },
      { store: 's', due: T + 1000 },
      { store: 's', due: T + 2000 },
    ]);
    await advanceClock(clocks, s.work, 's', T + 5000, true);
    expect(s.sent.map((a) => [a.id, a.at - T])).toEqual([
      [0, 1000],
      [1, 1000],
      [2, 2000],
    ]);
  });

  it(`answers within ${ADVANCE_WAIT_MS / 1000} s in a request (the rest goes on in the background)`, () => {
    expect(ADVANCE_WAIT_MS).toBe(30_000);
  });
});

describe('issue 38: ISO 8601 durations', () => {
  it.each([
    ['PT1S', 1000],
    ['PT1.5S', 1500],
    ['PT0.001S', 1],
    ['PT90S', 90_000],
    ['PT1M', 60_000],
    ['PT1H', 3_600_000],
    ['P1D', 86_400_000],
    ['P2W', 14 * 86_400_000],
    ['P1W1D', 8 * 86_400_000],
    ['P1DT2H30M', 95_400_000],
    ['P1DT1H1M1.25S', 90_061_250],
    ['P999999D', 999_999 * 86_400_000],
    ['PT999999999S', 999_999_999_000],
    ['PT0S', 0],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', 'P', 'PT', 'P1DT', 'P1Y', 'P1M', 'PT1.2345S', 'P1000000D', 'PT1000000000S', 'p1d', 'pt1s', 'xP1D', 'P1DX', 'P1D ', 'PT1S1M', 'P1H', 'PT-1S', '1D'])('%j is refused', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});

describe('issue 38: RFC 3339 date-times that exist', () => {
  it('says what it wants', () => {
    expect(DATE_TIME_WANTED).toBe('must be an RFC 3339 date-time that exists, with an offset, such as 2026-12-01T10:00:00Z');
  });

  it.each([
    ['2026-12-01T10:00:00Z', Date.UTC(2026, 11, 1, 10)],
    ['2026-12-01t10:00:00z', Date.UTC(2026, 11, 1, 10)],
    ['2026-12-01T10:00:00.123456789Z', Date.UTC(2026, 11, 1, 10, 0, 0, 123)],
    ['2026-12-01T10:00:00+05:30', Date.UTC(2026, 11, 1, 4, 30)],
    ['2026-12-01T10:00:00-23:59', Date.UTC(2026, 11, 2, 9, 59)],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29)],
    ['2000-02-29T00:00:00Z', Date.UTC(2000, 1, 29)],
    ['2026-01-31T23:59:59Z', Date.UTC(2026, 0, 31, 23, 59, 59)],
    ['2026-03-31T00:00:00Z', Date.UTC(2026, 2, 31)],
    ['2026-05-31T00:00:00Z', Date.UTC(2026, 4, 31)],
    ['2026-07-31T00:00:00Z', Date.UTC(2026, 6, 31)],
    ['2026-08-31T00:00:00Z', Date.UTC(2026, 7, 31)],
    ['2026-10-31T00:00:00Z', Date.UTC(2026, 9, 31)],
    ['2026-12-31T00:00:00Z', Date.UTC(2026, 11, 31)],
    ['2026-04-30T00:00:00Z', Date.UTC(2026, 3, 30)],
    ['2026-02-28T00:00:00Z', Date.UTC(2026, 1, 28)],
    ['2026-01-01T00:00:00Z', Date.UTC(2026, 0, 1)],
  ])('%s exists', (text, ms) => {
    expect(parseDateTime(text)).toBe(ms);
  });

  it.each([
    '2026-02-29T00:00:00Z',
    '2100-02-29T00:00:00Z',
    '2026-02-30T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-06-31T00:00:00Z',
    '2026-09-31T00:00:00Z',
    '2026-11-31T00:00:00Z',
    '2026-01-32T00:00:00Z',
    '2026-00-10T00:00:00Z',
    '2026-13-10T00:00:00Z',
    '2026-01-00T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-01-01T23:60:00Z',
    '2026-12-31T23:59:60Z',
    '2026-01-01T00:00:00+24:00',
    '2026-01-01T00:00:00+00:60',
    '2026-01-01T00:00:00',
    '2026-01-01 00:00:00Z',
    '2026-01-01',
    'x2026-01-01T00:00:00Z',
    '2026-01-01T00:00:00Zx',
    '2026-01-01T00:00:00.Z',
    '2026-01-01T00:00:00.1234567890Z',
    '2026-01-01T00:00:00+0100',
    '26-01-01T00:00:00Z',
  ])('%s does not', (text) => {
    expect(parseDateTime(text)).toBeUndefined();
  });

  it.each([undefined, null, 20261201, {}, ['2026-12-01T10:00:00Z']])('%j is no date-time', (value) => {
    expect(parseDateTime(value)).toBeUndefined();
  });
});
