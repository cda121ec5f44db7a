// What the journal does with files it did not leave whole (journal.ts, "Recovery" in the sandbox README):
// a torn last line (no newline, or not JSON) was never acknowledged and is dropped; a bad line before the
// last, an oversized line, a broken snapshot or a tail of a later generation stop the start with the file,
// the line, why and the known-good prefix; leftover .tmp files and a tail older than its snapshot (a
// compaction killed between its two renames) are cleaned up with a note. From the CLI a data dir it cannot
// start from is one line and exit 2. Table-driven over real files, in process (the CLI case: a child).
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../helpers/cleanup.js';
import { repoRoot } from '../../scripts/lib/repo.js';
import { Journal, JournalReadError, type Entry } from '../../workbench/sandbox/journal.js';
import { hangGuard } from '../helpers/hang-guard.js';

const { tempDir } = cleanupAfterEach();

const dir = () => tempDir('recovery-');

const lot = (n: number) => ({ lot_batch: 'LOT-1', manufacturer: 'Test', mfg_date: '2026-01-01', exp_date: '2028-01-01', stock_quantity: n });
const move = (n: number): Entry => ({ v: 2, store: 's', at: '2026-01-01T00:00:00Z', op: 'put', puts: [{ kind: 'stock', product_id: 'prd_1', variant_id: 'var_1', inventory: [lot(n)] }] });
const line = (e: unknown) => `${JSON.stringify(e)}\n`;
const stockOf = (j: Journal) => j.entriesOf('s').flatMap((e) => (e.op === 'put' || e.op === 'state' ? e.puts : [])).map((p) => (p.kind === 'stock' ? p.inventory[0].stock_quantity : -1));

/** A data dir with three moves (1, 2, 3) in the tail; compacted first when `compacted`. */
async function written(compacted = false): Promise<string> {
  const d = await dir();
  const j = Journal.open(d);
  j.append(move(1));
  j.append(move(2));
  if (compacted) j.compact([]);
  j.append(move(3));
  j.close();
  return d;
}

const tail = (d: string) => path.join(d, 'sandbox.jsonl');
const snapshot = (d: string) => path.join(d, 'sandbox.snapshot.jsonl');

describe('torn and leftover files are repaired, with a note', () => {
  const cases: Array<[string, { damage: (d: string) => void; compacted?: boolean; note: RegExp; stock: number[] }]> = [
    ['a last line without its newline', { damage: (d) => appendFileSync(tail(d), '{"v":2,"store":"s","op":"pu'), note: /dropped an incomplete last line/, stock: [1, 2, 3] }],
    ['a last line that is not JSON (its bytes reached the disk out of order)', { damage: (d) => appendFileSync(tail(d), '{"v":2,"st\u0000\u0000\u0000\n'), note: /dropped the last line .* which is not JSON/, stock: [1, 2, 3] }],
    ['an oversized last line without its newline', { damage: (d) => appendFileSync(tail(d), 'x'.repeat(5000)), note: /dropped an incomplete last line/, stock: [1, 2, 3] }],
    ['.tmp files of a compaction killed before its commit point', { damage: (d) => (writeFileSync(`${snapshot(d)}.tmp`, '{"v":2,"op":"snap'), writeFileSync(`${tail(d)}.tmp`, '')), note: /removed sandbox\.snapshot\.jsonl\.tmp/, stock: [1, 2, 3] }],
    [
      'a tail older than its snapshot (killed between the two renames)',
      {
        compacted: true,
        // The old tail (generation 0, no header) holding 1 and 2, beside the snapshot that folded them.
        damage: (d) => writeFileSync(tail(d), line(move(1)) + line(move(2))),
        note: /dropped sandbox\.jsonl of an earlier generation/,
        stock: [2],
      },
    ],
  ];
  it.each(cases)('%s', async (_name, { damage, compacted, note, stock }) => {
    const d = await written(compacted);
    damage(d);
    const notes: string[] = [];
    const j = Journal.open(d, { maxLineBytes: 1000, log: (l) => notes.push(l) });
    try {
      expect([...j.notes, ...notes].join('\n')).toMatch(note);
      expect(stockOf(j)).toEqual(stock);
      expect(existsSync(`${tail(d)}.tmp`) || existsSync(`${snapshot(d)}.tmp`)).toBe(false);
      // The repaired journal takes writes on a clean line and reads them back.
      j.append(move(9));
    } finally {
      j.close();
    }
    const again = Journal.open(d);
    expect(stockOf(again).at(-1)).toBe(9);
    again.close();
  });
});

describe('files the sandbox did not write stop the start, naming the line and the good prefix', () => {
  const cases: Array<[string, { damage: (d: string) => void; compacted?: boolean; message: RegExp }]> = [
    ['garbage before the last line', { damage: (d) => appendFileSync(tail(d), `garbage\n${line(move(4))}`), message: /sandbox\.jsonl line 4 is not valid JSON .*The 3 line\(s\) before it \(the first \d+ bytes\) are good: keep them with `truncate -s \d+ .*sandbox\.jsonl`/ }],
    ['an oversized line', { damage: (d) => appendFileSync(tail(d), `${'x'.repeat(5000)}\n${line(move(4))}`), message: /sandbox\.jsonl line 4 is longer than 1000 bytes, longer than any entry the sandbox writes\. The 3 line\(s\)/ }],
    ['a stock move with a negative quantity', { damage: (d) => appendFileSync(tail(d), line(move(-1))), message: /line 4 is a sandbox journal entry of the wrong shape: field puts\[0\]\.inventory\[0\]\.stock_quantity must be a number/ }],
    ['a version-1 entry with a stock put (only version 2 has them)', { damage: (d) => appendFileSync(tail(d), line({ ...move(1), v: 1 })), message: /line 4 .*field puts\[0\]\.kind must be one of "product", "customer", "cart", "order", "cart-deleted"\. / }],
    ['a snapshot without its end line', { compacted: true, damage: (d) => writeFileSync(snapshot(d), readFileSync(snapshot(d), 'utf8').split('\n').slice(0, -2).join('\n') + '\n'), message: /sandbox\.snapshot\.jsonl line 3 is missing: the end line was not found; a snapshot is written whole or not at all/ }],
    ['a tail of a later generation than the snapshot', { compacted: true, damage: (d) => writeFileSync(tail(d), line({ v: 2, op: 'begin', generation: 7, at: '2026-01-01T00:00:00Z' })), message: /line 1 begins generation 7 but sandbox\.snapshot\.jsonl holds 1/ }],
  ];
  it.each(cases)('%s', async (_name, { damage, compacted, message }) => {
    const d = await written(compacted);
    damage(d);
    const before = readFileSync(tail(d));
    expect(() => Journal.open(d, { maxLineBytes: 1000 })).toThrow(JournalReadError);
    expect(() => Journal.open(d, { maxLineBytes: 1000 })).toThrow(message);
    // Nothing was changed: the user decides.
    expect(readFileSync(tail(d))).toEqual(before);
  });

  it('from the CLI: one line naming --data-dir, the file and the line, exit 2', async () => {
    const d = await written();
    appendFileSync(tail(d), `garbage\n${line(move(4))}`);
    const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'cli/storefront-contract.ts'), 'mock', '--port', '0', '--quiet', '--data-dir', d], { cwd: repoRoot, encoding: 'utf8', timeout: hangGuard(60_000) });
    expect(r.status, r.stderr).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^storefront-contract mock: --data-dir ${d}: .*sandbox\\.jsonl line 4 is not valid JSON .* are good: keep them with \`truncate -s \\d+ `));
  }, hangGuard(60_000));
});
