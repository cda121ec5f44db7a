// What every example receiver shares: the handlers of a tiny order-sync application. The handlers only
// record and queue work; the slow part runs after the 2XX (the sender waits at most 30 s, seed 8).
import { createStalenessGuard, type WebhookHandlerOptions } from 'storefront-contract/webhooks';

/** Secrets from the environment: the current one, and during a rotation the previous one too. */
export function secretsFromEnv(): string[] {
  const secrets = [process.env.WEBHOOK_SECRET, process.env.WEBHOOK_SECRET_PREVIOUS].filter((s): s is string => !!s);
  if (secrets.length === 0) throw new Error('Set WEBHOOK_SECRET (and WEBHOOK_SECRET_PREVIOUS while rotating).');
  return secrets;
}

const guard = createStalenessGuard();
const work: Array<() => Promise<void>> = [];

// A stand-in for a job queue: drained after the response, one job at a time.
setInterval(() => void work.shift()?.().catch((error) => console.error('job failed:', error.message)), 50).unref();

export const handlers: Pick<WebhookHandlerOptions, 'on' | 'onTest' | 'onError' | 'onReject'> = {
  // Each handler's event is typed from the contract (generated/types/webhooks.ts) by its event name.
  on: {
    'order.created': async (e) => {
      work.push(async () => console.log(`new order ${e.payload.properties.order_number}`));
    },
    'order.updated': async (e) => {
      const key = `${e.payload.store_id}:${e.payload.properties.order_number}`;
      const outcome = await guard.run(key, e.payload.timestamp, () => {
        work.push(async () => console.log(`order ${e.payload.properties.order_number} is now ${e.payload.properties.status}`));
      });
      if (!outcome.applied) console.log(`skipped stale update ${e.event_id} (newer state from ${outcome.latest})`);
    },
  },
  onTest: (e) => console.log(`test delivery ${e.event_id} received`),
  onError: (error, info) => console.error(`${info.stage} failed for ${info.eventId ?? '-'}:`, (error as Error).message),
  // Never log secrets or signatures; the reason is enough to spot an attack or a misconfiguration.
  onReject: (r) => console.warn(`refused delivery: ${r.status} ${r.reason}`),
};

export const port = Number(process.env.PORT ?? 3000);
