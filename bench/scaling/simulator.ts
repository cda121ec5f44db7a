// Simulator scaling rows: 1k / 10k / 100k events x 1 / 5 subscriptions on a durable store, each row in a
// fresh process (bench/scaling/simulator-row.ts) on a fresh data directory, so memory and size are its own.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));

export const SIMULATOR_EVENTS = [1_000, 10_000, 100_000];
export const SIMULATOR_SUBSCRIPTIONS = [1, 5];
/** A row that takes longer is stopped and reported as not measured (the machine has 2 cores). */
const ROW_LIMIT_MS = 15 * 60_000;

export interface SimulatorRow {
  events: number;
  subscriptions: number;
  deliveries?: number;
  seconds?: number;
  deliveriesPerSecond?: number;
  p50Ms?: number;
  p99Ms?: number;
  peakRssMB?: number;
  peakHeapMB?: number;
  dataDirMB?: number;
  /** Why the row has no numbers. */
  notMeasured?: string;
}

export async function simulatorRows(only?: (events: number, subscriptions: number) => boolean): Promise<SimulatorRow[]> {
  const rows: SimulatorRow[] = [];
  for (const events of SIMULATOR_EVENTS) {
    for (const subscriptions of SIMULATOR_SUBSCRIPTIONS) {
      if (only && !only(events, subscriptions)) continue;
      process.stderr.write(`scaling: simulator ${events} events x ${subscriptions} subscriptions\n`);
      const dir = await mkdtemp(path.join(os.tmpdir(), 'scaling-simulator-'));
      try {
        const { stdout } = await exec(process.execPath, ['--import', 'tsx', path.join(here, 'simulator-row.ts'), String(events), String(subscriptions), dir], {
          timeout: ROW_LIMIT_MS,
          killSignal: 'SIGKILL',
          maxBuffer: 1024 * 1024,
        });
        rows.push(JSON.parse(stdout.trim().split('\n').pop()!) as SimulatorRow);
      } catch (e) {
        const killed = (e as { killed?: boolean }).killed;
        rows.push({ events, subscriptions, notMeasured: killed ? `stopped after ${ROW_LIMIT_MS / 60_000} min` : String((e as Error).message).split('\n')[0].slice(0, 200) });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
  }
  return rows;
}

export const UNRECEIVED_EVENTS = [10_000, 100_000];

export interface SimulatorRetentionRow {
  events: number;
  seconds?: number;
  eventsPerSecond?: number;
  /** Events still listed at the end (the retention's 1,000 unreceived per store). */
  kept?: number;
  peakRssMB?: number;
  peakDataDirMB?: number;
  dataDirMB?: number;
  notMeasured?: string;
}

/** Data size and memory after events no subscription receives (default retention), each row in a fresh process. */
export async function simulatorRetentionRows(): Promise<SimulatorRetentionRow[]> {
  const rows: SimulatorRetentionRow[] = [];
  for (const events of UNRECEIVED_EVENTS) {
    process.stderr.write(`scaling: simulator retention, ${events} events without subscribers\n`);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'scaling-retention-'));
    try {
      const { stdout } = await exec(process.execPath, ['--import', 'tsx', path.join(here, 'simulator-unreceived-row.ts'), String(events), dir], {
        timeout: ROW_LIMIT_MS,
        killSignal: 'SIGKILL',
        maxBuffer: 1024 * 1024,
      });
      rows.push(JSON.parse(stdout.trim().split('\n').pop()!) as SimulatorRetentionRow);
    } catch (e) {
      const killed = (e as { killed?: boolean }).killed;
      rows.push({ events, notMeasured: killed ? `stopped after ${ROW_LIMIT_MS / 60_000} min` : String((e as Error).message).split('\n')[0].slice(0, 200) });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return rows;
}
