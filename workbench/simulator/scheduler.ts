// Sends attempts when they fall due. The queue is the store's `scheduled` rows, so nothing lives only in
// memory: one timer is armed for the earliest due time (or lease end), and each wake-up claims due rows
// transactionally (one commit with the events raised in the same turn: group commit, store.ts), signs them
// with the subscription's current secret in the same tick, and sends them with at most `concurrency`
// requests in flight. A restart simply wakes up again on the same rows.
import { crashPoint } from '../store/crash-points.js';
import { newDeliveryId } from './ids.js';
import { isDisable, isSuccess, type Timing } from './rules.js';
import { signAttempt, type Sender } from './deliver.js';
import type { AttemptResult, AttemptRow, Claim, ClockTimes, Completion, CompletionPolicy, SimulatorStore } from './store.js';
import type { Clocks } from '../clock/clocks.js';

const LEASE_CHECK_MS = 250;

export interface SchedulerOptions {
  store: SimulatorStore;
  sender: Sender;
  timing: Timing;
  /** Most attempts in flight at once (all subscriptions together). */
  concurrency: number;
  /** Every store's time (its own clock, or the wall clock); the wall clock for leases and timers. */
  clocks: Clocks;
  /** Identifies this process's claims, so a late answer cannot settle an attempt someone else took over. */
  owner: string;
  onCompleted?: (completion: Completion) => void;
  onError?: (error: Error) => void;
}

export class Scheduler {
  /** The attempts this process is sending now (their `seq`): their leases are renewed, never settled. */
  private readonly sending = new Set<number>();
  private timer: NodeJS.Timeout | undefined;
  private pumpQueued = false;
  private nextLeaseCheck = 0;
  /** Answers received since the last pump, recorded together with the next claims in one transaction. */
  private answered: Array<{ row: AttemptRow; result: AttemptResult }> = [];
  private completed: Completion[] = [];
  private closed = false;
  /** The sender is starting; its readiness kicks a pump (no timer meanwhile). */
  private warming = false;
  private readonly running = new Set<Promise<void>>();
  private readonly policy: CompletionPolicy;
  /**
   * How long a claim stays valid: the time-out plus a margin. A claim past it belonged to a sender that died
   * (crash, kill -9); its attempt is then recorded as failed and the schedule continues (at least once).
   */
  private readonly leaseMs: number;

  constructor(private readonly o: SchedulerOptions) {
    this.policy = { maxAttempts: o.timing.maxAttempts, retryDelaysMs: o.timing.retryDelaysMs, isSuccess, isDisable };
    this.leaseMs = o.timing.timeoutMs + Math.max(o.timing.timeoutMs, 2000);
  }

  /** Asks for a wake-up soon (coalesced): after new attempts were queued or one finished. */
  kick(): void {
    if (this.closed || this.pumpQueued) return;
    this.pumpQueued = true;
    setImmediate(() => {
      this.pumpQueued = false;
      this.pump();
    });
  }

  /** The time of every store with a clock of its own, now (undefined when every store is on the wall clock). */
  private clockTimes(): ClockTimes | undefined {
    const { clocks } = this.o;
    if (!clocks.anyShifted) return undefined;
    const times = new Map<string, number>();
    for (const store of clocks.shifted().keys()) times.set(store, clocks.now(store));
    return times;
  }

  /**
   * Whether the sender can send at once. A sender that must start first (the sending thread) is started
   * when the store has attempts scheduled; until it is ready nothing is claimed (a claim's lease must not
   * run while the sender starts) and its readiness kicks the next pump.
   */
  private senderReady(): boolean {
    const { sender } = this.o;
    if (!sender.warmUp || sender.isReady?.()) return true;
    if (!this.warming && this.o.store.nextWakeAt() !== undefined) {
      this.warming = true;
      void sender.warmUp().then(() => {
        this.warming = false;
        this.kick();
      });
    }
    return false;
  }

  private pump(): void {
    if (this.closed) return;
    const now = this.o.clocks.wallNow();
    const ready = this.senderReady();
    let claims: Claim[] = [];
    try {
      claims = this.o.store.batch(() => {
        this.recordAnswers();
        this.settleExpiredLeases(now);
        return ready ? this.o.store.claimDue(now, this.o.concurrency - this.sending.size, this.o.owner, now + this.leaseMs, this.clockTimes()) : [];
      });
      // Committed (with every event raised in this turn: group commit) before anything claimed is sent.
    } catch (e) {
      // Nothing of the batch was committed: its answers' claims stay in flight until their lease ends, then
      // they are retried (at least once). Reported, never thrown out of a timer.
      this.completed = [];
      this.o.onError?.(e as Error);
    }
    this.emit();
    if (claims.length) crashPoint('attempts-claimed');
    for (const claim of claims) this.start(claim);
    this.arm();
  }

  /** Listeners run after the commit, so their code can never roll a transaction back. */
  private emit(): void {
    const done = this.completed;
    if (!done.length) return;
    this.completed = [];
    for (const c of done) this.o.onCompleted?.(c);
  }

  private recordAnswers(): void {
    const answered = this.answered;
    if (!answered.length) return;
    this.answered = [];
    for (const completion of this.o.store.completeMany(answered, this.o.owner, this.policy, (result) => newDeliveryId(result.completedAt))) this.settle(completion);
  }

  private settleExpiredLeases(now: number): void {
    // Expired leases only exist after a crash: looked for at most every LEASE_CHECK_MS, not on every pump.
    if (now >= this.nextLeaseCheck) {
      this.nextLeaseCheck = now + LEASE_CHECK_MS;
      for (const row of this.o.store.expiredLeases(now)) {
        // Still being sent by this process (a busy machine, a slow sending thread): the lease is a guard
        // against a sender that died, so this live one keeps its claim. Settling it would count an attempt
        // whose 200 is still on its way as failed, and retry an event its receiver had accepted.
        if (row.claimed_by === this.o.owner && this.sending.has(row.seq) && this.o.store.renewLease(row.seq, this.o.owner, now + this.leaseMs)) continue;
        const result = { completedAt: this.o.clocks.now(row.store_id), responseStatus: null, errorClass: 'network_error' as const, excerpt: null, truncated: false };
        this.settle(this.o.store.complete(row, row.claimed_by ?? '', result, this.policy, () => newDeliveryId(now)));
      }
    }
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    // Saturated: every finishing attempt calls kick(), which claims what is due; no timer needed. Starting
    // the sender: its readiness kicks.
    if (this.closed || this.warming || this.sending.size >= this.o.concurrency) return;
    const { clocks } = this.o;
    const wall = clocks.wallNow();
    let clocked: Map<string, (t: number) => number | undefined> | undefined;
    if (clocks.anyShifted) {
      clocked = new Map();
      for (const [store, state] of clocks.shifted()) {
        // A running clock reaches store time t at wall time t - offset; a frozen one only if it stands past t.
        clocked.set(store, state.kind === 'running' ? (t) => t - state.offsetMs : (t) => (t <= state.at ? wall : undefined));
      }
    }
    const next = this.o.store.nextWakeAt(clocked);
    if (next === undefined) return;
    const delay = Math.max(0, next - wall);
    // Timers cap at about 24.8 days; a later wake-up just re-arms.
    this.timer = setTimeout(() => this.pump(), Math.min(delay, 2 ** 31 - 1));
  }

  private start(claim: Claim): void {
    const { row } = claim;
    this.sending.add(row.seq);
    // Signed now, in the tick that claimed it with the current secret: a rotation can never be skipped.
    const attempt = signAttempt(
      row.url,
      { event: row.event, eventId: row.event_id, deliveryId: row.delivery_id, sentAt: row.sent_at!, isTest: row.is_test === 1, payloadJson: claim.payloadJson },
      claim.secret,
      claim.customHeaders,
    );
    const task = this.o.sender
      .send(attempt)
      .then((result) => {
        // Recorded by the next pump (this same turn of the event loop), batched with the other answers.
        crashPoint('attempt-answered');
        this.answered.push({ row, result: { completedAt: this.o.clocks.now(row.store_id), ...result } });
      })
      .finally(() => {
        this.sending.delete(row.seq);
        this.running.delete(task);
        this.kick();
      });
    this.running.add(task);
  }

  private settle(completion: Completion | undefined): void {
    if (completion) this.completed.push(completion);
  }

  /**
   * Stops claiming, gives attempts in flight up to `graceMs` to answer, then aborts the rest (recorded as
   * failed with their retry scheduled, so nothing is lost). Pending attempts stay in the store.
   */
  async close(graceMs: number): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.running.size === 0) return this.flushOnClose();
    let graceTimer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.running]), new Promise<void>((r) => (graceTimer = setTimeout(r, graceMs)))]);
    clearTimeout(graceTimer);
    this.o.sender.abortAll();
    await Promise.allSettled([...this.running]);
    this.flushOnClose();
  }

  private flushOnClose(): void {
    try {
      this.o.store.batch(() => this.recordAnswers());
    } catch (e) {
      this.o.onError?.(e as Error);
    }
    this.emit();
  }
}
