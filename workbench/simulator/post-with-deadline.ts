// One POST with the contract's time-out measured as a receiver sees it: "no response within 30 s" counts
// from when the request has been sent, and an answer that arrived before the deadline counts even when this
// process was too busy to read it in time.
//
// undici's `request` with an AbortSignal timer gets both wrong on a busy machine: the timer starts before
// the connection and the write, so a stall there eats the receiver's time (the certifier saw a sender give up
// "after 2 ms" of a 300 ms time-out at a small time scale), and after a stall Node runs due timers before it
// reads the socket, so an answer that came in time is dropped for a time-out and the attempt retried after
// a 2XX. Here the deadline starts at undici's `onRequestSent`, and when it fires the verdict waits one turn
// of the event loop (setImmediate runs after the poll phase), so bytes already in the socket are read first.
//
// undici's dispatch handler with `onRequestSent` is its classic handler interface, which undici 7 still
// calls (test/simulator/post-with-deadline.test.ts holds it to that).
import type { Dispatcher } from 'undici';

export interface DeadlineResult {
  /** The answer's status; null when none came in time (or the exchange failed before one). */
  status: number | null;
  /** Up to `maxBytes` of the body (more when the last chunk ran past it). */
  body: Buffer;
  /** The whole body was read. */
  complete: boolean;
  /** No status came within the time-out after the request was sent (or before the backstop). */
  timedOut: boolean;
  /** The transport error when no status came. */
  error?: unknown;
}

export interface DeadlineOptions {
  /** The time-out, from the moment the request has been written. */
  timeoutMs: number;
  /** Stop reading (and close the exchange) once this many body bytes came. */
  maxBytes: number;
  /** Aborts the exchange (a shutdown); it then ends as a failure or, after a status, as a partial body. */
  signal?: AbortSignal;
}

class DeadlineError extends Error {
  override name = 'DeadlineError';
  readonly code = 'ERR_ATTEMPT_TIMED_OUT';
}

/**
 * Until the request is written: connecting (the agent's own connect time-out) and writing a body of a few
 * KB take no time on a healthy machine; this only ends a write that never completes.
 */
const backstopMs = (timeoutMs: number) => 2 * timeoutMs + 1000;

export function postWithDeadline(dispatcher: Dispatcher, url: string, init: { method?: string; headers: Record<string, string>; body: Buffer | string }, options: DeadlineOptions): Promise<DeadlineResult> {
  const target = new URL(url);
  return new Promise<DeadlineResult>((resolve) => {
    let status: number | null = null;
    const chunks: Buffer[] = [];
    let size = 0;
    let timedOut = false;
    let settled = false;
    let abortExchange: ((reason: Error) => void) | undefined;
    let pendingAbort: Error | undefined;
    let deadline: NodeJS.Timeout | undefined;

    const finish = (complete: boolean, error?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearTimeout(backstop);
      options.signal?.removeEventListener('abort', onSignal);
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      resolve(status === null ? { status, body, complete: false, timedOut, error } : { status, body, complete, timedOut: false });
    };
    const abort = (reason: Error) => {
      if (settled) return;
      if (abortExchange) abortExchange(reason);
      else pendingAbort = reason;
    };
    // The deadline's verdict, one event-loop turn after its timer: an answer already in the socket wins.
    const expire = () =>
      setImmediate(() => {
        if (settled) return;
        if (status === null) timedOut = true;
        abort(new DeadlineError('attempt timed out'));
      });
    const backstop = setTimeout(expire, backstopMs(options.timeoutMs));
    const onSignal = () => abort(options.signal!.reason instanceof Error ? options.signal!.reason : new Error('aborted'));
    if (options.signal?.aborted) onSignal();
    else options.signal?.addEventListener('abort', onSignal, { once: true });

    const handler = {
      onConnect(abortFn: (reason?: Error) => void) {
        abortExchange = abortFn;
        if (pendingAbort) abortFn(pendingAbort);
      },
      onRequestSent() {
        clearTimeout(backstop);
        deadline = setTimeout(expire, options.timeoutMs);
      },
      onHeaders(statusCode: number) {
        // 1XX answers are interim; the final status is what counts.
        if (statusCode < 200) return true;
        status = statusCode;
        return true;
      },
      onData(chunk: Buffer) {
        if (settled) return false;
        chunks.push(chunk);
        size += chunk.length;
        if (size >= options.maxBytes) {
          finish(false);
          abortExchange?.(new Error('body excerpt read'));
          return false;
        }
        return true;
      },
      onComplete() {
        finish(true);
      },
      onError(error: Error) {
        finish(false, error);
      },
    };
    try {
      dispatcher.dispatch(
        { origin: target.origin, path: `${target.pathname}${target.search}`, method: (init.method ?? 'POST') as Dispatcher.HttpMethod, headers: init.headers, body: init.body },
        handler as unknown as Dispatcher.DispatchHandler,
      );
    } catch (error) {
      finish(false, error);
    }
  });
}
