// `storefront-contract webhooks listen --forward-to`: what the local loop costs a developer on top of a
// direct subscription. Subject: order.created events raised in a workbench in process, delivered to a
// temporary subscription of `webhooks listen` (the real CLI in a child process, as developers run it),
// which verifies each, re-signs it and forwards it to a plain
// loopback receiver. Baseline: the same events delivered by the same simulator straight to that receiver
// through a subscription of their own. Rounds alternate which side runs first; the median counts.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { median } from '../lib/alternate.js';
import { metric, type BenchSuite } from '../lib/metric.js';
import { repoRoot } from '../../scripts/lib/repo.js';
import { createWorkbench } from '../../workbench/index.js';

const EVENTS = 300;
const ROUNDS = 5;

const suite: BenchSuite = {
  name: 'listen',
  async run() {
    const counts = { direct: 0, listen: 0 };
    const waiting: Array<() => void> = [];
    const receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        counts[req.url === '/direct' ? 'direct' : 'listen']++;
        res.writeHead(200, { 'content-length': '2' }).end('ok');
        for (const w of waiting.splice(0)) w();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    const wb = await createWorkbench({ port: 0, quiet: true, sandbox: false });
    let child: ChildProcess | undefined;
    try {
      const sim = wb.simulator!;
      const created = await sim.service.createWebhook('direct-store', { url: `${base}/direct`, events: ['order.created'] });
      if (created.status !== 201) throw new Error(`bench: createWebhook answered ${created.status}`);
      child = spawn(process.execPath, ['--conditions=sfc-source', '--import', 'tsx', path.join(repoRoot, 'cli/storefront-contract.ts'), 'webhooks', 'listen', '--url', wb.url, '--store', 'listen-store', '--events', 'order.created', '--forward-to', `${base}/listen`], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise<void>((resolve, reject) => {
        let out = '';
        child!.stdout!.on('data', (c) => {
          out += c;
          if (out.includes('Ready!')) resolve();
        });
        child!.once('exit', (code) => reject(new Error(`bench: listen exited with ${code}: ${out}`)));
      });
      child.stdout!.resume();

      const round = async (side: 'direct' | 'listen', events: number) => {
        const target = counts[side] + events;
        const started = performance.now();
        for (let i = 0; i < events; i++) sim.trigger(`${side}-store`, 'order.created', { order_number: `SO-L${i}` });
        const deadline = Date.now() + 120_000;
        while (counts[side] < target) {
          if (Date.now() > deadline) throw new Error(`bench: ${side} round timed out at ${counts[side]}/${target}`);
          await new Promise<void>((resolve) => {
            waiting.push(resolve);
            setTimeout(resolve, 200);
          });
        }
        return events / ((performance.now() - started) / 1000);
      };
      await round('direct', 30); // warm-up: JIT, connections, listen's first requests
      await round('listen', 30);
      const direct: number[] = [];
      const listen: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        if (r % 2 === 0) {
          listen.push(await round('listen', EVENTS));
          direct.push(await round('direct', EVENTS));
        } else {
          direct.push(await round('direct', EVENTS));
          listen.push(await round('listen', EVENTS));
        }
      }
      return [
        metric({
          id: 'listen.forward.vs.direct',
          description: `${EVENTS} order.created deliveries through webhooks listen --forward-to (verify, re-sign, forward, print) vs the same simulator delivering straight to the receiver`,
          unit: 'deliveries/s',
          subject: { label: 'through webhooks listen', value: median(listen) },
          baseline: { label: 'direct subscription', value: median(direct) },
          target: { op: '>=', ratio: 0.3 },
          notes: `median of ${ROUNDS} alternating rounds; listen is a child process: one more HTTP hop per delivery (the delivery log is read only for later attempts)`,
        }),
      ];
    } finally {
      if (child && child.exitCode === null) {
        const exited = new Promise((resolve) => child!.once('exit', resolve));
        child.kill('SIGINT'); // removes its subscription first
        await exited;
      }
      await wb.close();
      receiver.closeAllConnections();
      receiver.close();
    }
  },
};

export default suite;
