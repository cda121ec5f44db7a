// The live request log to a page, as Server-Sent Events: the recent entries first (after `Last-Event-ID`
// when the browser reconnects), then each request as it finishes. One subscription of the feed per page,
// no polling. The events are the body of the answer, a ReadableStream the transport pulls from as the
// connection takes data (the node adapter reads on only once the socket drains). A page that reads slower
// than requests arrive never costs unbounded memory: once the stream's queue is full (STREAM_BYTES), at
// most `queueLimit` entries wait for the next pull; past that each new entry is dropped and counted, and
// the page gets `event: dropped` with the count when it catches up. The stream ends when the transport
// cancels it (the connection closed).
import type { FeedSummary, RequestFeed } from '../http/request-feed.js';

export interface StreamOptions {
  /** Entries held for a page whose socket is full; more are dropped (counted). Default 256. */
  queueLimit?: number;
  /** A comment line this often keeps proxies and the browser from closing an idle stream. Default 15 s. */
  heartbeatMs?: number;
  /** Entries after this id are sent first (the browser's `Last-Event-ID`); default: every entry held. */
  after?: number;
  /** Streams open at once; one more is refused (409), so memory stays bounded however many connect. Default 32. */
  maxStreams?: number;
}

/** One open stream, as the console lists them (tests, GET /__simulator/console). */
export interface StreamStats {
  /** Entries waiting for the socket to drain (at most queueLimit). */
  queued: number;
  /** Entries dropped so far for this page. */
  dropped: number;
  /** Bytes the stream holds for the connection (what it took before saying stop). */
  buffered: number;
  sent: number;
}

export const MAX_STREAMS = 32;

/** Most entries in one write to the socket, and the longest an entry waits for others to join it. */
const BATCH = 64;
const BATCH_MS = 50;
/** Bytes the stream queues for a connection that stopped taking data, before entries wait (as a socket's buffer). */
const STREAM_BYTES = 16 * 1024;
const encoder = new TextEncoder();

/** The headers of the event stream's answer. */
export const STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  'x-accel-buffering': 'no',
  'x-content-type-options': 'nosniff',
};

export class FeedStream {
  private queue: string[] = [];
  private batch: string[] = [];
  private scheduled = false;
  private waiting = false;
  /** Dropped since the page was last told. */
  private unreported = 0;
  dropped = 0;
  sent = 0;
  private readonly queueLimit: number;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private ended = false;
  /** The answer's body: the events, pulled by the transport. */
  readonly body: ReadableStream<Uint8Array>;

  constructor(
    feed: RequestFeed,
    options: StreamOptions = {},
    onClose: () => void = () => {},
  ) {
    this.queueLimit = options.queueLimit ?? 256;
    let unsubscribe = () => {};
    let heartbeat: ReturnType<typeof setInterval> | undefined;
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
          // A page that loses the stream tries again after 2 s, with Last-Event-ID.
          this.write('retry: 2000\n\n', 0);
          for (const summary of feed.recent(options.after ?? 0)) this.push(summary);
          unsubscribe = feed.subscribe((summary) => this.push(summary));
          // Only when the connection takes data: a full one is not idle.
          heartbeat = setInterval(() => {
            if (!this.waiting && !this.ended) this.write(': keep-alive\n\n', 0);
          }, options.heartbeatMs ?? 15_000);
          (heartbeat as { unref?: () => void }).unref?.();
        },
        pull: () => {
          if (this.waiting) this.drain();
        },
        cancel: () => {
          this.ended = true;
          unsubscribe();
          clearInterval(heartbeat);
          this.queue = [];
          this.batch = [];
          onClose();
        },
      },
      { highWaterMark: STREAM_BYTES, size: (chunk) => chunk.byteLength },
    );
  }

  get stats(): StreamStats {
    return { queued: this.queue.length, dropped: this.dropped, buffered: this.ended ? 0 : STREAM_BYTES - (this.controller.desiredSize ?? 0), sent: this.sent };
  }

  /** Another kind of event on the same stream (the console's `attempt` pings), under the same bound. */
  send(event: string, data: unknown): void {
    this.enqueue(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  private push(summary: FeedSummary): void {
    this.enqueue(`id: ${summary.id}\nevent: request\ndata: ${JSON.stringify(summary)}\n\n`);
  }

  private enqueue(frame: string): void {
    if (this.ended) return;
    if (this.waiting) {
      if (this.queue.length < this.queueLimit) this.queue.push(frame);
      else {
        this.dropped++;
        this.unreported++;
      }
      return;
    }
    // Entries go out together, every BATCH_MS or BATCH entries, whichever comes first: a socket write is
    // a system call, and one per request was most of what an open page cost the workbench (bench/NOTES.md).
    this.batch.push(frame);
    if (this.batch.length >= BATCH) this.flushBatch();
    else if (!this.scheduled) {
      this.scheduled = true;
      const timer = setTimeout(() => this.flushBatch(), BATCH_MS);
      (timer as { unref?: () => void }).unref?.();
    }
  }

  private flushBatch(): void {
    this.scheduled = false;
    const frames = this.batch;
    if (frames.length === 0) return;
    this.batch = [];
    if (this.ended) return;
    this.write(frames.length === 1 ? frames[0] : frames.join(''), frames.length);
  }

  private write(text: string, frames: number): void {
    this.sent += frames;
    this.controller.enqueue(encoder.encode(text));
    // The queue is full: the next entries wait for the transport's next pull (drain).
    if ((this.controller.desiredSize ?? 0) <= 0) this.waiting = true;
  }

  /** The connection took what it had: the queued entries go, then the count of those dropped meanwhile. */
  private drain(): void {
    this.waiting = false;
    while (this.queue.length && !this.waiting) {
      const frames = this.queue.splice(0, BATCH);
      this.write(frames.join(''), frames.length);
    }
    if (!this.waiting && this.unreported > 0) {
      const count = this.unreported;
      this.unreported = 0;
      this.write(`event: dropped\ndata: {"count":${count}}\n\n`, 0);
    }
  }
}
