// certifySender: listens as a subscriber, has the sender deliver (through a Trigger), walks the phases
// (200, test, no answer, 500 every time, 410) and judges everything received with the sender rules.
import { performance } from 'node:perf_hooks';
import type { WebhookCertificate } from '../../report/certificate.js';
import { senderRules } from '../../rules/webhooks/index.js';
import { runRules } from '../../rules/run.js';
import { buildWebhookCertificate, deliveryRows } from '../certificate.js';
import { ms } from '../../rules/shared/timing.js';
import { describeTolerances, timingModel, withMeasuredDelay } from '../timing.js';
import type { PhaseName, SenderObservations } from '../../rules/observations/webhooks.js';
import { PhaseBook, runDelivered, runGone, runRetry, runTimeout, type PhaseContext } from './phases.js';
import { watchLoopDelay } from './loop-delay.js';
import { startSubscriber } from './subscriber.js';
import type { Trigger } from './trigger.js';

export interface CertifySenderOptions {
  trigger: Trigger;
  /** The event raised in every phase. Default order.created. */
  event?: string;
  /** Where the sender is, for the report (no credentials); default: the subscriber URL it delivered to. */
  target?: string;
  /** Subscriber port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** The sender's time scale; default: what the trigger detects (the simulator says), else 1. */
  timeScale?: number;
  lateSlackMs?: number;
  quietMs?: number;
  /** Real ms to wait for the first delivery of a raised event. Default 10 s. */
  arrivalWaitMs?: number;
  /** Warnings count as errors. */
  strict?: boolean;
  progress?: (line: string) => void;
}

export interface SenderCertification {
  certificate: WebhookCertificate;
  observations: SenderObservations;
}

export async function certifySender(options: CertifySenderOptions): Promise<SenderCertification> {
  const started = Date.now();
  const t0 = performance.now();
  const progress = options.progress ?? (() => {});
  const notes: string[] = [];
  let scale = options.timeScale;
  if (scale === undefined) {
    scale = (await options.trigger.detectTimeScale?.().catch(() => undefined)) ?? 1;
    if (scale !== 1) notes.push(`time scale ${scale} reported by the sender`);
  }
  const planned = timingModel({ timeScale: scale, lateSlackMs: options.lateSlackMs, quietMs: options.quietMs });
  const book = new PhaseBook();
  const subscriber = await startSubscriber({ port: options.port, attribute: book.attribute });
  const loopDelay = watchLoopDelay();
  const timing = () => withMeasuredDelay(planned, loopDelay.maxMs());
  let measuredDelayMs = 0;
  let secret = '';
  let customHeaders: Record<string, string> = {};
  try {
    const setup = await options.trigger.setup(subscriber.url);
    secret = setup.secret;
    customHeaders = setup.customHeaders;
    notes.push(...setup.notes);
    progress(`listening at ${subscriber.url}; time scale ${planned.timeScale} (time-out ${ms(planned.timeoutMs)}, retries after ${planned.retryDelaysMs.map(ms).join(', ')})`);

    const ctx: PhaseContext = { trigger: options.trigger, timing, arrivalWaitMs: options.arrivalWaitMs ?? 10_000, progress };
    await runDelivered(ctx, book, subscriber, 'delivered');
    if (options.trigger.canTest) await runDelivered(ctx, book, subscriber, 'test');
    await runTimeout(ctx, book, subscriber);
    await runRetry(ctx, book, subscriber);
    await runGone(ctx, book, subscriber);
  } finally {
    // A subscription the 410 phase did not disable is disabled now: answer 410 to a last test delivery.
    // (The Admin API has no delete; a 410 is the contract's way to end a subscription.)
    const disabled = subscriber.deliveries.some((d) => d.answer === 410 && d.endedAt !== undefined);
    if (options.trigger.canTest && secret !== '' && !disabled) {
      book.cleanupMode = true;
      const raised = await options.trigger.raise('test').catch(() => ({ ok: false as const, note: '' }));
      if (raised.ok) await subscriber.waitFor(() => subscriber.deliveries.some((d) => d.answer === 410 && d.endedAt !== undefined), options.arrivalWaitMs ?? 10_000);
      notes.push('the subscription was disabled at the end with a 410 to a test delivery');
    }
    await options.trigger.cleanup?.().catch(() => undefined);
    await subscriber.close();
    measuredDelayMs = loopDelay.stop();
    for (const d of subscriber.deliveries) d.stampDelayMs = loopDelay.around(d.receivedAt, d.endedAt);
  }

  const phases: SenderObservations['phases'] = {};
  for (const [name, record] of Object.entries(book.records) as [PhaseName, NonNullable<SenderObservations['phases'][PhaseName]>][]) {
    record.deliveries = subscriber.deliveries.filter((d) => d.phase === name);
    phases[name] = record;
    for (const note of record.notes) notes.push(`${name}: ${note}`);
    if (record.skipped) notes.push(`${name}: ${record.skipped}`);
    if (record.afterGone) notes.push(`${name}: ${record.afterGone.note}`);
  }
  const unexpected = subscriber.deliveries.filter((d) => d.phase === 'unexpected').length;
  if (unexpected) notes.push(`${unexpected} delivery(ies) arrived outside any phase; they were answered 200 and judged by the per-delivery rules`);

  // Each timing rule widens its windows by the stalls around the deliveries it compares; the longest is reported.
  const judged = withMeasuredDelay(planned, measuredDelayMs);
  const observations: SenderObservations = { secret, customHeaders, deliveries: subscriber.deliveries, phases, timing: judged };
  const strict = options.strict ?? false;
  const certificate = buildWebhookCertificate({
    certifies: 'webhook-sender',
    target: options.target ?? `sender delivering to ${subscriber.url}`,
    rules: runRules(senderRules, observations, { strict }),
    strict,
    startedAt: new Date(started),
    durationMs: Date.now() - started,
    settings: {
      event: options.event ?? 'order.created',
      trigger: options.trigger.description,
      timeScale: judged.timeScale,
      timeoutMs: judged.timeoutMs,
      retryDelaysMs: judged.retryDelaysMs.join(', '),
      maxAttempts: judged.maxAttempts,
      quietMs: judged.quietMs,
      eventLoopDelayMaxMs: judged.measuredDelayMs,
      tolerances: describeTolerances(judged),
      deliveriesReceived: subscriber.deliveries.length,
    },
    notes,
    deliveries: deliveryRows(subscriber.deliveries, t0),
  });
  return { certificate, observations };
}
