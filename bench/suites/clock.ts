// What a store's own clock costs the webhook simulator (workbench/clock/). Subject: events of a store whose
// clock runs a day ahead (set through the clock the back office sets), with 100 other stores on clocks of
// their own, fanned out to 5 subscriptions on a loopback receiver; the scheduler then claims with the
// per-store times in its SQL. Baseline: the same events of a store on the wall clock with no store clocked
// (the original claim statement), in the same run. Rounds alternate; the median of each side counts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { median } from '../lib/alternate.js';
import { metric, type BenchSuite } from '../lib/metric.js';
import { createSimulator } from '../../workbench/simulator/index.js';

const EVENTS = 300;
const SUBSCRIPTIONS = 5;
const ROUNDS = 5;
const OTHER_CLOCKED_STORES = 100;

const suite: BenchSuite = {
  name: 'clock',
  async run() {
    const receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-length': '2' }).end('ok'));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const sim = createSimulator({ concurrency: 64 });
    try {
      let delivered = 0;
      let waiter: { target: number; resolve: () => void } | undefined;
      sim.onAttempt((d) => {
        if (d.outcome === 'delivered') delivered++;
        if (waiter && delivered >= waiter.target) (waiter.resolve(), (waiter = undefined));
      });
      for (const store of ['wall-store', 'clocked-store']) {
        for (let i = 0; i < SUBSCRIPTIONS; i++) await sim.service.createWebhook(store, { url, events: ['order.created'] });
      }
      const round = async (store: string) => {
        const target = delivered + EVENTS * SUBSCRIPTIONS;
        const done = new Promise<void>((resolve) => (waiter = { target, resolve }));
        const started = performance.now();
        for (let i = 0; i < EVENTS; i++) {
          sim.trigger(store, 'order.created', { order_number: `SO-C${i}` });
          if (i % 64 === 63) await new Promise((r) => setImmediate(r));
        }
        await done;
        return (EVENTS * SUBSCRIPTIONS) / ((performance.now() - started) / 1000);
      };
      const clockedOn = () => {
        sim.clocks.set('clocked-store', Date.now() + 86_400_000, false);
        for (let i = 0; i < OTHER_CLOCKED_STORES; i++) sim.clocks.set(`other-${i}`, Date.now() + i * 1000, false);
      };
      const clockedOff = () => {
        sim.clocks.release('clocked-store');
        for (let i = 0; i < OTHER_CLOCKED_STORES; i++) sim.clocks.release(`other-${i}`);
      };
      await round('wall-store'); // warm-up
      const wall: number[] = [];
      const clocked: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        wall.push(await round('wall-store'));
        clockedOn();
        clocked.push(await round('clocked-store'));
        clockedOff();
      }
      return [
        metric({
          id: 'simulator.clockedStores.vs.wallClock',
          description: `Fan-out of ${EVENTS} events x ${SUBSCRIPTIONS} subscriptions of a store on its own clock, with ${OTHER_CLOCKED_STORES} more stores clocked, vs a store on the wall clock with none (in-memory store)`,
          unit: 'attempts/s',
          subject: { label: 'clocked', value: median(clocked) },
          baseline: { label: 'wall clock', value: median(wall) },
          target: { op: '>=', ratio: 0.9 },
        }),
      ];
    } finally {
      await sim.close();
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  },
};

export default suite;
