// npm run bench -- --scaling [mock] [simulator] [certify] [docs] [memory] [stores] [storage] [simulator-retention]
// How throughput, tail latency, memory and size change with load: writes bench/scaling.json (the rows
// measured now, merged into the ones kept from earlier runs for parts not asked for) and renders
// bench/SCALING.md from it. Every row is measured, none estimated.
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { certifyRows } from './certify.js';
import { docsRows } from './docs.js';
import { memoryRows, touchedStoresRows } from './memory.js';
import { mockRows } from './mock.js';
import { renderScaling } from './render.js';
import { simulatorRetentionRows, simulatorRows } from './simulator.js';
import { storageRows } from './storage.js';
import type { Scaling } from './types.js';

const PARTS = ['mock', 'simulator', 'certify', 'docs', 'memory', 'stores', 'storage', 'simulator-retention'] as const;
const benchDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

export async function runScaling(args: string[]): Promise<void> {
  const unknown = args.filter((a) => !(PARTS as readonly string[]).includes(a));
  if (unknown.length) {
    console.error(`bench --scaling: unknown part ${unknown.join(', ')}; the parts are ${PARTS.join(', ')} (none = all)`);
    process.exitCode = 2;
    return;
  }
  const wanted = args.length ? args : [...PARTS];
  const file = path.join(benchDir, 'scaling.json');
  const previous: Partial<Scaling> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const loadBefore = os.loadavg();
  const result: Scaling = {
    ...previous,
    generatedAt: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    loadAverage: loadBefore.map((n) => Number(n.toFixed(2))),
  };
  if (wanted.includes('mock')) result.mock = await mockRows();
  if (wanted.includes('simulator')) result.simulator = await simulatorRows();
  if (wanted.includes('simulator-retention')) result.simulatorRetention = await simulatorRetentionRows();
  if (wanted.includes('certify')) result.certify = await certifyRows();
  if (wanted.includes('docs')) result.docsRows = await docsRows();
  if (wanted.includes('memory')) result.memory = await memoryRows();
  if (wanted.includes('stores')) result.touchedStores = await touchedStoresRows();
  if (wanted.includes('storage')) result.storage = await storageRows();
  await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(path.join(benchDir, 'SCALING.md'), renderScaling(result));
  console.log(`bench: wrote ${path.relative(process.cwd(), file)} and bench/SCALING.md (${wanted.join(', ')}); load average at start ${result.loadAverage.join(' ')}`);
}
