// Issue 7 benchmark: what the receiver kit costs on top of the unavoidable work. Subject: the full
// handler path in process (verify + strict UTF-8 + JSON.parse + schema validation + dedupe + dispatch)
// on a ~31 KB signed order.created delivery with a new event_id every iteration (so dedupe never takes
// its cheap "duplicate" exit). Baseline: bare HMAC-SHA256 + JSON.parse of the same bytes. Both sides
// get a freshly built and signed delivery in `beforeEach`, outside the timed region.
import { createHmac } from 'node:crypto';
import { Bench } from 'tinybench';
import { metric, type BenchSuite } from '../lib/metric.js';
import { createWebhookHandler } from '../../src/webhooks/handler.js';
import { signPayload } from '../../src/webhooks/verify.js';
import { buildDelivery, padTo, SECRET } from '../../conformance/vectors/webhook-fixtures.js';

const TARGET_BYTES = 31 * 1024;
const EVT = 'evt_bench_placeholder_000000';
const DLV = 'dlv_bench_placeholder_000000';
const ROUNDS = 5;

const suite: BenchSuite = {
  name: 'receiver',
  async run() {
    const template = JSON.stringify(buildDelivery({ eventId: EVT, deliveryId: DLV, mutate: (b) => padTo(b, TARGET_BYTES) }).body);
    let n = 0;
    let raw = Buffer.alloc(0);
    let headers: Record<string, string> = {};
    const next = () => {
      n += 1;
      const eventId = `evt_bench_${String(n).padStart(18, '0')}`;
      const deliveryId = `dlv_bench_${String(n).padStart(18, '0')}`;
      raw = Buffer.from(template.replaceAll(EVT, eventId).replaceAll(DLV, deliveryId));
      headers = {
        'content-type': 'application/json',
        'x-svc-event': 'order.created',
        'x-svc-signature': signPayload(raw, SECRET),
        'x-svc-event-id': eventId,
        'x-svc-delivery-id': deliveryId,
      };
    };

    let handled = 0;
    const handler = createWebhookHandler({ secrets: [SECRET], on: { 'order.created': () => void handled++ } as never });

    next();
    const probe = await handler.handle({ rawBody: raw, headers, method: 'POST' });
    if (probe.status !== 200) throw new Error(`bench delivery refused: ${probe.status} ${probe.body}`);

    // Several short rounds, alternating which side runs first, and the median of each side's per-round
    // median latency: on a shared 2-core machine a load spike during one side's only run would otherwise
    // decide the ratio.
    const subjectTask = async () => {
      const reply = await handler.handle({ rawBody: raw, headers, method: 'POST' });
      if (reply.status !== 200) throw new Error(`refused: ${reply.body}`);
    };
    const baselineTask = () => {
      createHmac('sha256', SECRET).update(raw).digest();
      JSON.parse(raw.toString('utf8'));
    };
    const rounds: Array<{ subject: number; baseline: number; subjectMean: number; baselineMean: number }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      const bench = new Bench({ time: 400, warmupTime: 100 });
      const tasks = [
        ['subject', subjectTask],
        ['baseline', baselineTask],
      ] as const;
      for (const [name, fn] of round % 2 === 0 ? tasks : [...tasks].reverse()) bench.add(name, fn, { beforeEach: next });
      await bench.run();
      const p50 = (name: string) => bench.tasks.find((t) => t.name === name)!.result!.latency.p50! * 1000;
      const mean = (name: string) => bench.tasks.find((t) => t.name === name)!.result!.latency.mean * 1000;
      rounds.push({ subject: p50('subject'), baseline: p50('baseline'), subjectMean: mean('subject'), baselineMean: mean('baseline') });
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const subject = median(rounds.map((r) => r.subject));
    const baseline = median(rounds.map((r) => r.baseline));
    if (handled < 100) throw new Error(`handler ran only ${handled} times`);
    return [
      metric({
        id: 'receiver.handle31KB.vs.hmacJsonParse',
        description: `full receiver path on a ${(raw.length / 1024).toFixed(1)} KB signed order.created delivery, new event_id each time, vs HMAC-SHA256 + JSON.parse of the same bytes`,
        unit: 'µs (median)',
        subject: { label: 'createWebhookHandler().handle', value: subject },
        baseline: { label: 'HMAC + JSON.parse', value: baseline },
        // 1.1 is below what the profile allows: schema validation of the 31 KB body alone is 9-11 % of
        // HMAC + decode + parse, before dedupe, the header checks and the reply (bench/NOTES.md, receiver
        // kit, issue 30): the floor is about 1.14-1.16, so 1.2 leaves room for noise, not for new work.
        target: { op: '<=', ratio: 1.2 },
        notes:
          `validator: generated (precompiled); ${handled} deliveries handled; ${ROUNDS} rounds; ` +
          `mean latency (GC and scheduling included): ${median(rounds.map((r) => r.subjectMean)).toFixed(1)} vs ${median(rounds.map((r) => r.baselineMean)).toFixed(1)} µs`,
      }),
    ];
  },
};

export default suite;
