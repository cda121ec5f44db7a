// The world log's port (workbench/store/world-log.ts) behaves the same in its two implementations, in the
// workbench's database and in memory (the browser build): entries per store in order, counted, replaced by
// a fold, forgotten by a reset; identities by their token digest, a later state replacing an earlier one
// without counting twice; another store's rows never seen. In process, no HTTP.
import { describe, expect, it } from 'vitest';
import { openStoreDatabase } from '../../workbench/store/database.js';
import { MemoryWorldLog, SqliteWorldLog, type WorldLog } from '../../workbench/store/world-log.js';

const IMPLEMENTATIONS: Array<[string, () => { log: WorldLog; close(): void }]> = [
  ['in memory', () => ({ log: new MemoryWorldLog(), close: () => {} })],
  [
    'in the database',
    () => {
      const opened = openStoreDatabase();
      return { log: new SqliteWorldLog(opened.db, opened.location), close: () => opened.close() };
    },
  ],
];

describe('the world log in a data directory', () => {
  it('says it is persistent and where it is', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(`${tmpdir()}/world-log-`);
    const opened = openStoreDatabase(dir);
    try {
      const log = new SqliteWorldLog(opened.db, opened.location);
      expect(log.persistent).toBe(true);
      expect(log.location).toBe(`${dir}/workbench.sqlite`);
    } finally {
      opened.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(IMPLEMENTATIONS)('the world log %s', (_name, open) => {
  it('keeps each store\'s entries in order, counts them, and never shows another store\'s', () => {
    const { log, close } = open();
    try {
      expect(log.has('a')).toBe(false);
      expect(log.count('a')).toBe(0);
      expect([...log.entries('a')]).toEqual([]);
      log.append('a', '{"n":1}');
      log.append('b', '{"n":"b1"}');
      log.append('a', '{"n":2}');
      log.append('a', '{"n":3}');
      expect(log.has('a')).toBe(true);
      expect(log.has('b')).toBe(true);
      expect(log.has('c')).toBe(false);
      expect(log.count('a')).toBe(3);
      expect(log.count('b')).toBe(1);
      expect([...log.entries('a')]).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
      expect([...log.entries('b')]).toEqual(['{"n":"b1"}']);
      expect(log.persistent).toBe(false);
      expect(log.location).toBe(':memory:');
    } finally {
      close();
    }
  });

  it('replace puts a fold in place of every entry (an empty fold leaves none); clear forgets the store alone', () => {
    const { log, close } = open();
    try {
      for (let i = 0; i < 5; i++) log.append('a', `{"n":${i}}`);
      log.append('b', '{"n":"b"}');
      log.replace('a', ['{"state":5}']);
      expect([...log.entries('a')]).toEqual(['{"state":5}']);
      expect(log.count('a')).toBe(1);
      log.append('a', '{"n":5}');
      expect([...log.entries('a')]).toEqual(['{"state":5}', '{"n":5}']);
      log.replace('a', []);
      expect(log.has('a')).toBe(false);
      expect(log.count('a')).toBe(0);
      log.append('a', '{"n":6}');
      log.clear('a');
      expect(log.has('a')).toBe(false);
      expect([...log.entries('a')]).toEqual([]);
      expect([...log.entries('b')]).toEqual(['{"n":"b"}']);
    } finally {
      close();
    }
  });

  it('keeps identities by digest: a later state replaces the earlier one and is counted once, per store', () => {
    const { log, close } = open();
    try {
      expect(log.identity('d1')).toBeUndefined();
      expect(log.identityCount('s')).toBe(0);
      log.putIdentity('d1', 's', '{"v":1}');
      log.putIdentity('d2', 's', '{"v":2}');
      log.putIdentity('d3', 't', '{"v":3}');
      expect(log.identityCount('s')).toBe(2);
      expect(log.identityCount('t')).toBe(1);
      log.putIdentity('d1', 's', '{"v":1,"customer_id":"cst_1"}');
      expect(log.identity('d1')).toBe('{"v":1,"customer_id":"cst_1"}');
      expect(log.identityCount('s')).toBe(2);
      expect(log.identity('d3')).toBe('{"v":3}');
      // A world reset keeps identities (tokens stay valid).
      log.clear('s');
      expect(log.identity('d2')).toBe('{"v":2}');
    } finally {
      close();
    }
  });
});
