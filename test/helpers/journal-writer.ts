// A child for test/sandbox/compaction-crash.test.ts: appends stock moves to a journal (each to its own
// variant, so every write stays visible after folding) and compacts whenever it is due, as the sandbox does
// after a write; prints `ack <i>` once a write and any compaction it triggered returned (the sandbox
// answers then). The journal's test hook (SFC_TEST_COMPACTION_CRASH_AT) kills it at a compaction point.
// Usage: node --import tsx test/helpers/journal-writer.ts <dir> <compact-after> <first> <count>
import { Journal } from '../../workbench/sandbox/journal.js';

const [dir, compactAfter, first, count] = process.argv.slice(2);
const journal = Journal.open(dir, { compactEntries: Number(compactAfter), log: () => {} });
const lot = (n: number) => ({ lot_batch: `LOT-${n}`, manufacturer: 'Crash Test', mfg_date: '2026-01-01', exp_date: '2028-01-01', stock_quantity: n });
for (let i = Number(first); i < Number(first) + Number(count); i++) {
  journal.append({ v: 2, store: `s${i % 3}`, at: new Date().toISOString(), op: 'put', puts: [{ kind: 'stock', product_id: 'prd_1', variant_id: `var_${i}`, inventory: [lot(i)] }] });
  if (journal.due) journal.compact([]);
  process.stdout.write(`ack ${i}\n`);
}
journal.close();
