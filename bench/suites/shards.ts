// Issue 28 benchmark: what sharding costs. Subject: `certify --generate 50 --seed 7 --shard i/4` for
// i = 1..4, one after another in this process, then `certify merge` of the four reports; baseline: the
// same run unsharded. Both against one sandbox in process. The work is the CPU time of this process
// (certifier and sandbox alike) per run: a 4-job matrix also spends each shard's set-up (recordings,
// spec, split) and the recorded steps each shard replays to learn its operations' ids. The slowest shard
// is the wall time of the matrix. Runs are short, so after two warm-ups per side the rounds alternate and
// the median round counts (BENCH_VERBOSE=1 prints every round).
// Issue 37 item 14: how even the split is, the slowest of the four shards against their mean in the same
// round (units weighed by their measured cost, conformance/traffic/costs.json; 1 is a perfect split), in
// CPU time: certifier and sandbox share this process, so a shard's work is its CPU time, which other
// load on the machine does not change (its wall time does: on a busy machine one round's ratio swung
// from 1.17 to 1.79 with the same split).
import { median } from '../lib/alternate.js';
import { metric, type BenchSuite } from '../lib/metric.js';
import { certify } from '../../conformance/rest/certify.js';
import { mergeShards } from '../../conformance/rest/merge.js';
import { createWorkbench, sandboxApiKey } from '../../workbench/index.js';

const WARMUPS = 2;
const ROUNDS = 7;
const N = 50;
const SHARDS = 4;

interface Round {
  wallMs: number;
  cpuMs: number;
  /** The sharded side: its slowest shard's wall time. */
  slowestMs?: number;
  /** The sharded side: the CPU time of its most expensive shard, and the mean of its shards' CPU times. */
  slowestCpuMs?: number;
  meanShardCpuMs?: number;
}

interface ShardTime {
  wallMs: number;
  cpuMs: number;
}

const cpuMsSince = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

async function measured(work: () => Promise<ShardTime[] | undefined>): Promise<Round> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const shards = await work();
  const wallMs = performance.now() - started;
  const cpus = shards?.map((s) => s.cpuMs) ?? [];
  const shardTimes = shards
    ? { slowestMs: Math.max(...shards.map((s) => s.wallMs)), slowestCpuMs: Math.max(...cpus), meanShardCpuMs: cpus.reduce((a, b) => a + b, 0) / cpus.length }
    : {};
  return { wallMs, cpuMs: cpuMsSince(cpu), ...shardTimes };
}

const suite: BenchSuite = {
  name: 'shards',
  async run() {
    const sandbox = await createWorkbench({ port: 0, quiet: true, webhooks: false, preloadPrism: true });
    const key = sandboxApiKey('demo-store');
    const options = { baseUrl: sandbox.url, apiKey: key, inputs: { restricted_api_key: key }, generate: N, seed: 7 };
    let exchanges = 0;
    const sharded = () =>
      measured(async () => {
        const reports = [];
        const times: ShardTime[] = [];
        for (let i = 1; i <= SHARDS; i++) {
          const t = performance.now();
          const cpu = process.cpuUsage();
          const { shard } = await certify({ ...options, shard: { index: i, total: SHARDS } });
          times.push({ wallMs: performance.now() - t, cpuMs: cpuMsSince(cpu) });
          reports.push({ file: `shard ${i}`, report: shard! });
        }
        const merged = mergeShards(reports);
        if (merged.verdict !== 'certified') throw new Error('the merged shards of the sandbox were not certified during the benchmark');
        exchanges = merged.exchangeSummary.exchanges;
        return times;
      });
    const whole = () =>
      measured(async () => {
        const { certificate } = await certify(options);
        if (certificate.verdict !== 'certified') throw new Error('the sandbox failed certification during the benchmark');
        return undefined;
      });
    try {
      for (let i = 0; i < WARMUPS; i++) {
        await sharded();
        await whole();
      }
      const subject: Round[] = [];
      const baseline: Round[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        if (r % 2 === 0) {
          subject.push(await sharded());
          baseline.push(await whole());
        } else {
          baseline.push(await whole());
          subject.push(await sharded());
        }
        if (process.env.BENCH_VERBOSE) process.stderr.write(`shards round ${r}: sharded ${JSON.stringify(subject.at(-1))}, whole ${JSON.stringify(baseline.at(-1))}\n`);
      }
      const of = (rounds: Round[], key: keyof Round) => median(rounds.map((x) => x[key] as number));
      const balance = subject.map((r) => r.slowestCpuMs! / r.meanShardCpuMs!);
      const evenest = subject[balance.indexOf([...balance].sort((a, b) => a - b)[Math.floor(balance.length / 2)])];
      return [
        metric({
          id: 'certify.shards4.cpu.vs.unsharded',
          description: `certify --generate ${N} as ${SHARDS} shards run one after another plus certify merge (${exchanges} exchanges) vs the same run unsharded, same seed, against the sandbox in process: CPU time per run`,
          unit: 'CPU ms per run',
          subject: { label: `${SHARDS} shards + merge`, value: of(subject, 'cpuMs') },
          baseline: { label: 'unsharded', value: of(baseline, 'cpuMs') },
          target: { op: '<=', ratio: 1.3 },
          notes: `median of ${ROUNDS} alternating rounds after ${WARMUPS} warm-ups per side; wall time per run ${of(subject, 'wallMs').toFixed(0)} vs ${of(baseline, 'wallMs').toFixed(0)} ms`,
        }),
        metric({
          id: 'certify.shards4.slowest.vs.unsharded',
          description: `the slowest of the ${SHARDS} shards (the wall time of a ${SHARDS}-job matrix) vs the unsharded run`,
          unit: 'ms',
          subject: { label: 'slowest shard', value: of(subject, 'slowestMs') },
          baseline: { label: 'unsharded', value: of(baseline, 'wallMs') },
          target: { op: '<=', ratio: 0.5 },
          notes: `medians of ${ROUNDS} rounds`,
        }),
        metric({
          id: 'certify.shards4.slowest.vs.mean',
          description: `how even the split of certify --generate ${N} into ${SHARDS} shards is: the most expensive shard vs the mean of the ${SHARDS}, each a certify --shard i/${SHARDS} run against the sandbox in process (units weighed by their measured cost): CPU time`,
          unit: 'CPU ms',
          // Both sides from one round (the round whose ratio is the median): medians taken apart would pair
          // a slow round's slowest shard with a quick round's mean.
          subject: { label: 'slowest shard', value: evenest.slowestCpuMs! },
          baseline: { label: 'mean shard', value: evenest.meanShardCpuMs! },
          target: { op: '<=', ratio: 1.3 },
          notes: `the round of median ratio of ${ROUNDS} (ratios ${balance.map((r) => r.toFixed(2)).join(', ')}); 1 would be a perfect split`,
        }),
      ];
    } finally {
      await sandbox.close();
    }
  },
};

export default suite;
