// A Sender (deliver.ts) whose requests run on a thread of their own (send-worker.ts): the main thread
// triggers, claims, signs and records; the sending thread does the HTTP exchange (undici's request and
// response work, the deadline's timer, the excerpt). Attempts signed in one turn go over in one message,
// answers come back in one message per turn of the sending thread. Started with the first attempt, not at
// start-up. The ratio it buys and why: bench/NOTES.md ("Simulator fan-out").
//
// Nothing durable crosses the thread: an attempt is claimed (committed) before it is handed over, and its
// answer is recorded by the main thread. If the thread dies, every attempt it held comes back as a
// `network_error` failure (retried by the schedule), and the next attempt starts a new thread.
import { Worker } from 'node:worker_threads';
import { createSender, type SendResult, type Sender, type SignedAttempt } from './sender.js';

/** Main -> sending thread: attempts as [id, url, body, headers, writeOnly]; or abort every attempt; or close. */
export interface ToSender {
  attempts?: Array<[number, string, Uint8Array, Record<string, string>, string[]]>;
  abortAll?: true;
  close?: true;
}

/** Sending thread -> main: answers as [id, result]; or ready (loaded, undici included); or closed. */
export interface FromSender {
  answers?: Array<[number, SendResult]>;
  ready?: true;
  closed?: true;
}

const LOST: SendResult = { responseStatus: null, errorClass: 'network_error', excerpt: null, truncated: false };

export function createThreadedSender(options: { timeoutMs: number; denyPrivate: boolean; connections: number }): Sender {
  let worker: Worker | undefined;
  let ready = false;
  let warming: Promise<void> | undefined;
  let onReady: (() => void) | undefined;
  /** This thread's own sender, used for good when the sending thread cannot start. */
  let fallback: Sender | undefined;
  let nextId = 1;
  const pending = new Map<number, (result: SendResult) => void>();
  let outgoing: NonNullable<ToSender['attempts']> = [];
  let flushQueued = false;
  let closedWaiter: (() => void) | undefined;

  function start(): Worker {
    const file = import.meta.url.endsWith('.ts') ? './send-worker-source.mjs' : './send-worker.js';
    const w = new Worker(new URL(file, import.meta.url), { workerData: options });
    w.on('message', (message: FromSender) => {
      if (message.answers) {
        for (const [id, result] of message.answers) {
          const resolve = pending.get(id);
          pending.delete(id);
          resolve?.(result);
        }
        if (pending.size === 0) w.unref();
      }
      if (message.ready) {
        ready = true;
        onReady?.();
      }
      if (message.closed) closedWaiter?.();
    });
    const lost = () => {
      if (worker === w) {
        worker = undefined;
        ready = false;
        warming = undefined;
        // A warm-up waiting on this thread ends; the scheduler asks again (and a new thread starts).
        onReady?.();
      }
      for (const resolve of pending.values()) resolve(LOST);
      pending.clear();
      closedWaiter?.();
    };
    w.on('error', (e) => {
      if (!ready) {
        // It never started (a missing file in a broken install, say): sending stays on this thread.
        fallback ??= createSender(options);
        process.stderr.write(`webhooks: the sending thread did not start, sending on the main thread: ${e.message}\n`);
      } else {
        process.stderr.write(`webhooks: the sending thread stopped (its attempts are retried; the next one starts a new thread): ${e.message}\n`);
      }
      lost();
    });
    w.on('exit', lost);
    return w;
  }

  function flush(): void {
    flushQueued = false;
    const attempts = outgoing;
    outgoing = [];
    if (!attempts.length) return;
    const w = (worker ??= start());
    // Attempts in flight keep the process alive, as their sockets would on this thread; an idle thread does not.
    w.ref();
    // Each body's bytes are moved, not copied twice: a fresh buffer of its own, handed over.
    w.postMessage({ attempts } satisfies ToSender, attempts.map((a) => a[2].buffer as ArrayBuffer));
  }

  return {
    isReady: () => ready || fallback !== undefined,
    warmUp() {
      if (ready || fallback) return Promise.resolve();
      warming ??= new Promise<void>((resolve) => {
        onReady = () => {
          onReady = undefined;
          resolve();
        };
        worker ??= start();
      });
      return warming;
    },
    send(attempt: SignedAttempt): Promise<SendResult> {
      if (fallback) return fallback.send(attempt);
      const id = nextId++;
      // A copy with a buffer of its own (small Buffers share Node's 8 KB pool, which cannot be moved).
      outgoing.push([id, attempt.url, new Uint8Array(attempt.body), attempt.headers, attempt.writeOnly]);
      if (!flushQueued) {
        flushQueued = true;
        queueMicrotask(flush);
      }
      return new Promise<SendResult>((resolve) => pending.set(id, resolve));
    },
    abortAll() {
      fallback?.abortAll();
      worker?.postMessage({ abortAll: true } satisfies ToSender);
    },
    async close() {
      await fallback?.close();
      const w = worker;
      if (!w) return;
      await new Promise<void>((resolve) => {
        closedWaiter = resolve;
        w.postMessage({ close: true } satisfies ToSender);
      });
      worker = undefined;
      await w.terminate();
    },
  };
}
