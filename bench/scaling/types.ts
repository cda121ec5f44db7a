// The shape of bench/scaling.json, shared by the runner and the renderer.
import type { CertifyRow } from './certify.js';
import type { DocsRow } from './docs.js';
import type { MemoryRow, touchedStoresRows } from './memory.js';
import type { MockRow } from './mock.js';
import type { SimulatorRetentionRow, SimulatorRow } from './simulator.js';
import type { StorageRow } from './storage.js';

export interface Scaling {
  generatedAt: string;
  node: string;
  cpus: number;
  loadAverage: number[];
  mock?: MockRow[];
  simulator?: SimulatorRow[];
  simulatorRetention?: SimulatorRetentionRow[];
  certify?: CertifyRow[];
  docsRows?: DocsRow[];
  memory?: MemoryRow[];
  touchedStores?: Awaited<ReturnType<typeof touchedStoresRows>>;
  storage?: StorageRow[];
}
