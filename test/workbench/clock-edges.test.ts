// issue 38: the store clocks' edges that clock-unit.test.ts leaves open (found by mutation testing): what
// clocks.json holds and how often it is rewritten, that writing it leaves no descriptor open, long values in
// a refusal, durations of several digits, the store clock running while an attempt is on the wire, and the
// bound on the steps of one advance.
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../helpers/cleanup.js';
import { advanceClock, parseDuration, type DueWork } from '../../workbench/clock/advance.js';
import { ClockError, Clocks, dayOf } from '../../workbench/clock/clocks.js';

const T = Date.parse('2030-06-15T12:00:00Z');
const DAY = 86_400_000;
const cleanup = cleanupAfterEach();

describe('issue 38: clocks.json, edge by edge', () => {
  it('a store set to run at the wall clock\'s own time has no entry in the file', async () => {
    const dir = await cleanup.tempDir('clock-edges-');
    const wall = { now: T };
    const clocks = Clocks.open({ dataDir: dir, wall: () => wall.now });
    clocks.set('s', T + 1000, true);
    clocks.set('t', T + 1000, true);
    clocks.set('s', wall.now, false);
    expect(JSON.parse(readFileSync(path.join(dir, 'clocks.json'), 'utf8'))).toEqual({ v: 1, clocks: { t: { kind: 'frozen', at: T + 1000 } } });
  });

  it('an anchor set again to the same day does not rewrite the file; another day does', async () => {
    const dir = await cleanup.tempDir('clock-edges-');
    const file = path.join(dir, 'clocks.json');
    const clocks = Clocks.open({ dataDir: dir, wall: () => T });
    clocks.set('s', T + DAY, true);
    clocks.setAnchor('s', dayOf(T));
    const written = statSync(file).ino;
    clocks.setAnchor('s', dayOf(T));
    expect(statSync(file).ino).toBe(written);
    clocks.setAnchor('s', dayOf(T + DAY));
    expect(statSync(file).ino).not.toBe(written);
  });

  it.skipIf(!process.platform.startsWith('linux'))('writing it leaves no file descriptor open', async () => {
    const dir = await cleanup.tempDir('clock-edges-');
    const clocks = Clocks.open({ dataDir: dir, wall: () => T });
    const open = () => readdirSync('/proc/self/fd').length;
    const before = open();
    for (let i = 0; i < 20; i++) clocks.set('s', T + i + 1, true);
    expect(open()).toBe(before);
  });

  it('a long value in a refusal is shown cut at 40 characters', async () => {
    const dir = await cleanup.tempDir('clock-edges-');
    writeFileSync(path.join(dir, 'clocks.json'), JSON.stringify({ v: 1, clocks: { s: { kind: 'k'.repeat(100) } } }));
    let message = '';
    try {
      Clocks.open({ dataDir: dir });
    } catch (e) {
      expect(e).toBeInstanceOf(ClockError);
      message = (e as Error).message;
    }
    expect(message).toContain(`: store "s": "kind" is "${'k'.repeat(39)}, not "running" or "frozen"`);
  });
});

describe('issue 38: durations of several digits in each part', () => {
  it.each([
    ['P10W', 70 * DAY],
    ['P12D', 12 * DAY],
    ['PT10H', 36_000_000],
    ['PT15M', 900_000],
    ['PT15S', 15_000],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });
});

/** A scheduler whose attempts each take `takesMs` of wall time on the wire and retry `retryMs` after they end, `retries` times. */
function scheduler(clocks: Clocks, wall: { now: number }, first: number, takesMs: number, retryMs: number, retries: number) {
  let pending: number[] = [first];
  let wire: number[] = [];
  let left = retries;
  const sent: Array<{ due: number; at: number; ended: number }> = [];
  const work: DueWork = {
    nextDueOf: () => (pending.length ? Math.min(...pending) : undefined),
    inFlightOf: () => wire.length,
    kick: () => {
      wire = wire.concat(pending.filter((d) => d <= clocks.now('s')));
      pending = pending.filter((d) => d > clocks.now('s'));
    },
    nextAttempt: async () => {
      await Promise.resolve();
      const due = wire.shift();
      if (due === undefined) return;
      const at = clocks.now('s');
      wall.now += takesMs;
      const ended = clocks.now('s');
      sent.push({ due, at, ended });
      if (left-- > 0) pending.push(ended + retryMs);
    },
    countAttempts: () => ({
      get count() {
        return sent.length;
      },
      stop: () => {},
    }),
  };
  return { work, sent };
}

describe('issue 38: the store clock while an advance sends', () => {
  it('runs while an attempt is on the wire, so its retry is due after the attempt really ended', async () => {
    const wall = { now: T };
    const clocks = Clocks.open({ wall: () => wall.now });
    clocks.set('s', T, true);
    const s = scheduler(clocks, wall, T + 1000, 7, 5000, 1);
    expect(await advanceClock(clocks, s.work, 's', T + 60_000, true)).toBe(2);
    expect(s.sent).toEqual([
      { due: T + 1000, at: T + 1000, ended: T + 1007 },
      { due: T + 6007, at: T + 6007, ended: T + 6014 },
    ]);
    expect(clocks.view('s')).toMatchObject({ now: new Date(T + 60_000).toISOString(), frozen: true });
  });

  it('stops after 100,000 steps when attempts keep falling due (a runaway), then stands at the target', async () => {
    const wall = { now: T };
    const clocks = Clocks.open({ wall: () => wall.now });
    clocks.set('s', T, true);
    const s = scheduler(clocks, wall, T + 1, 0, 1, Number.POSITIVE_INFINITY);
    expect(await advanceClock(clocks, s.work, 's', T + DAY, true)).toBe(100_000);
    expect(s.sent.at(-1)).toEqual({ due: T + 100_000, at: T + 100_000, ended: T + 100_000 });
    expect(clocks.now('s')).toBe(T + DAY);
  }, 60_000);
});
