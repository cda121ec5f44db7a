// The scripted conversation with a sender. Phases run one after the other, each raising one event and
// answering its deliveries in one way; a delivery is attributed to a phase by its event_id, so a late
// attempt (a retry after a 2XX, an attempt after a 410) is still judged with the phase it belongs to.
import { performance } from 'node:perf_hooks';
import type { CapturedDelivery, PhaseName, PhaseRecord, TimingModel } from '../../rules/observations/webhooks.js';
import { windowFor } from '../../rules/shared/timing.js';
import type { Answer, Attribution, Subscriber } from './subscriber.js';
import type { RaiseKind, Trigger } from './trigger.js';

export interface PhaseContext {
  trigger: Trigger;
  /** The timing model with the longest event-loop stall so far (waits are that much longer). */
  timing(): TimingModel;
  /** How long to wait for the first delivery of a raised event (real ms). */
  arrivalWaitMs: number;
  progress: (line: string) => void;
}

/** Per-phase state and the attribution policy the subscriber asks for on every arrival. */
export class PhaseBook {
  readonly records: Partial<Record<PhaseName, PhaseRecord>> = {};
  private current: PhaseName | undefined;
  private readonly byEvent = new Map<string, PhaseName>();
  private readonly counts = new Map<PhaseName, number>();
  /** After the run: every delivery is answered 410 so a subscription left enabled gets disabled. */
  cleanupMode = false;

  start(name: PhaseName): PhaseRecord {
    const record: PhaseRecord = { name, deliveries: [], notes: [] };
    this.records[name] = record;
    this.current = name;
    return record;
  }

  stop(): void {
    this.current = undefined;
  }

  attribute = (_d: unknown, eventId: string | undefined): Attribution => {
    let phase = eventId === undefined ? undefined : this.byEvent.get(eventId);
    if (!phase && this.current) {
      phase = this.current;
      if (eventId !== undefined) this.byEvent.set(eventId, phase);
    }
    if (this.cleanupMode) return { phase: phase ?? 'unexpected', answer: 410 };
    if (!phase) return { phase: 'unexpected', answer: 200 };
    const n = this.counts.get(phase) ?? 0;
    this.counts.set(phase, n + 1);
    return { phase, answer: answerFor(phase, n) };
  };

  /** Deliveries of a phase so far (from the subscriber's list). */
  of(subscriber: Subscriber, name: PhaseName): CapturedDelivery[] {
    return subscriber.deliveries.filter((d) => d.phase === name);
  }
}

function answerFor(phase: PhaseName, index: number): Answer {
  switch (phase) {
    case 'delivered':
    case 'test':
      return 200;
    case 'retry':
      return 500;
    case 'timeout':
      // Only the first attempt is left unanswered: one time-out shows it counts as a failure, and the
      // 2XX that follows keeps the run short.
      return index === 0 ? 'hold' : 200;
    case 'gone':
      return 410;
  }
}

const ended = (d: CapturedDelivery | undefined) => d !== undefined && d.endedAt !== undefined;

async function raise(ctx: PhaseContext, record: PhaseRecord, kind: RaiseKind): Promise<boolean> {
  try {
    const result = await ctx.trigger.raise(kind);
    if (!result.ok) {
      record.skipped = `could not raise the event: ${result.note}`;
      return false;
    }
    if (result.eventId) record.eventId = result.eventId;
    if (result.note) record.notes.push(result.note);
    return true;
  } catch (e) {
    record.skipped = `could not raise the event: ${(e as Error).message}`;
    return false;
  }
}

/** Raises an event and waits for its first delivery to end; false (and `skipped`) when none came. */
async function firstDelivery(ctx: PhaseContext, book: PhaseBook, sub: Subscriber, record: PhaseRecord, kind: RaiseKind): Promise<boolean> {
  if (!(await raise(ctx, record, kind))) return false;
  const came = await sub.waitFor(() => book.of(sub, record.name).length > 0, ctx.arrivalWaitMs);
  if (!came) {
    record.skipped = `no delivery arrived within ${ctx.arrivalWaitMs} ms of raising the event`;
    return false;
  }
  return true;
}

export async function runDelivered(ctx: PhaseContext, book: PhaseBook, sub: Subscriber, name: 'delivered' | 'test'): Promise<void> {
  const record = book.start(name);
  ctx.progress(name === 'test' ? 'test delivery: answering 200' : 'first event: answering 200');
  if (await firstDelivery(ctx, book, sub, record, name === 'test' ? 'test' : 'event')) {
    await sub.waitFor(() => ended(book.of(sub, name)[0]), ctx.arrivalWaitMs);
  }
  book.stop();
}

/** 500 on every attempt: waits for each retry in its window, up to maxAttempts attempts. */
export async function runRetry(ctx: PhaseContext, book: PhaseBook, sub: Subscriber): Promise<void> {
  const record = book.start('retry');
  const t = ctx.timing();
  ctx.progress(`retry schedule: answering 500 to every attempt (expecting ${t.maxAttempts} attempts)`);
  if (await firstDelivery(ctx, book, sub, record, 'event')) {
    for (let i = 1; i < t.maxAttempts; i++) {
      const prev = () => book.of(sub, 'retry')[i - 1];
      await sub.waitFor(() => ended(prev()), ctx.arrivalWaitMs);
      const window = windowFor(t, t.retryDelaysMs[i - 1] ?? 0, ctx.timing().measuredDelayMs);
      const ref = t.from === 'end' ? prev().endedAt ?? performance.now() : prev().receivedAt;
      const came = await sub.waitFor(() => book.of(sub, 'retry').length > i, ref + window.max - performance.now());
      ctx.progress(`  attempt ${i + 1}: ${came ? 'arrived' : 'did not arrive in its window'}`);
      if (!came) break;
    }
    const all = book.of(sub, 'retry');
    await sub.waitFor(() => ended(all[all.length - 1]), ctx.arrivalWaitMs);
  }
  book.stop();
}

/** No answer to the first attempt: the sender must give up at its time-out and retry. */
export async function runTimeout(ctx: PhaseContext, book: PhaseBook, sub: Subscriber): Promise<void> {
  const record = book.start('timeout');
  const t = ctx.timing();
  ctx.progress('time-out: leaving the first attempt unanswered');
  if (await firstDelivery(ctx, book, sub, record, 'event')) {
    const first = book.of(sub, 'timeout')[0];
    const gaveUp = await sub.waitFor(() => first.endedAt !== undefined, first.receivedAt + windowFor(t, t.timeoutMs, ctx.timing().measuredDelayMs).max - performance.now());
    if (!gaveUp) {
      record.notes.push('the sender still held the attempt open after the time-out window; the certifier closed it');
      sub.releaseHeld();
    }
    const ref = first.endedAt ?? performance.now();
    await sub.waitFor(() => book.of(sub, 'timeout').length > 1, ref + windowFor(t, t.retryDelaysMs[0] ?? 0, ctx.timing().measuredDelayMs).max - performance.now());
    await sub.waitFor(() => ended(book.of(sub, 'timeout')[1]) || book.of(sub, 'timeout').length < 2, ctx.arrivalWaitMs);
  }
  sub.releaseHeld();
  book.stop();
}

/** 410 to the first attempt; then nothing more may come, not even for a new event. */
export async function runGone(ctx: PhaseContext, book: PhaseBook, sub: Subscriber): Promise<void> {
  const record = book.start('gone');
  const t = ctx.timing();
  ctx.progress(`410: answering 410, then watching ${Math.round(t.quietMs)} ms, raising another event, watching again`);
  if (await firstDelivery(ctx, book, sub, record, 'event')) {
    await sub.waitFor(() => false, t.quietMs);
    const again = await ctx.trigger.raise('event').catch((e: Error) => ({ ok: false as const, note: e.message }));
    record.afterGone = again.ok
      ? { triggered: true, note: `another event was raised after the 410${again.eventId ? ` (${again.eventId})` : ''}` }
      : { triggered: false, note: `raising another event after the 410 was refused (${again.note}), as a disabled subscription should be` };
    await sub.waitFor(() => false, t.quietMs);
  }
  book.stop();
}
