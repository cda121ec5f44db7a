// The live request log to a page, as Server-Sent Events: the recent entries first (after `Last-Event-ID`
// when the browser reconnects), then each request as it finishes. One subscription of the feed per page,
// no polling. A page that reads slower than requests arrive never costs unbounded memory: once the socket
// stops taking data (write() says so), at most `queueLimit` entries wait for its 'drain'; past that each
// new entry is dropped and counted, and the page gets `event: dropped` with the count when it catches up.
import type { ServerResponse } from 'node:http';
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
  /** Bytes node holds for the socket (what write() buffered before saying stop). */
  buffered: number;
  sent: number;
}

export const MAX_STREAMS = 32;

/** Most entries in one write to the socket, and the longest an entry waits for others to join it. */
const BATCH = 64;
const BATCH_MS = 50;

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

  constructor(
    private readonly res: ServerResponse,
    feed: RequestFeed,
    options: StreamOptions = {},
    onClose: () => void = () => {},
  ) {
    this.queueLimit = options.queueLimit ?? 256;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
    });
    // A page that loses the stream tries again after 2 s, with Last-Event-ID.
    res.write('retry: 2000\n\n');
    for (const summary of feed.recent(options.after ?? 0)) this.push(summary);
    const unsubscribe = feed.subscribe((summary) => this.push(summary));
    // Only when the socket takes data: a full one is not idle.
    const heartbeat = setInterval(() => {
      if (!this.waiting && !res.writableEnded) this.write(': keep-alive\n\n', 0);
    }, options.heartbeatMs ?? 15_000);
    heartbeat.unref();
    res.once('close', () => {
      unsubscribe();
      clearInterval(heartbeat);
      this.queue = [];
      onClose();
    });
  }

  get stats(): StreamStats {
    return { queued: this.queue.length, dropped: this.dropped, buffered: this.res.writableLength, sent: this.sent };
  }

  /** Another kind of event on the same stream (the console's `attempt` pings), under the same bound. */
  send(event: string, data: unknown): void {
    this.enqueue(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  private push(summary: FeedSummary): void {
    this.enqueue(`id: ${summary.id}\nevent: request\ndata: ${JSON.stringify(summary)}\n\n`);
  }

  private enqueue(frame: string): void {
    if (this.res.writableEnded || this.res.destroyed) return;
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
      setTimeout(() => this.flushBatch(), BATCH_MS).unref();
    }
  }

  private flushBatch(): void {
    this.scheduled = false;
    const frames = this.batch;
    if (frames.length === 0) return;
    this.batch = [];
    if (this.res.writableEnded || this.res.destroyed) return;
    this.write(frames.length === 1 ? frames[0] : frames.join(''), frames.length);
  }

  private write(text: string, frames: number): void {
    this.sent += frames;
    if (!this.res.write(text)) {
      this.waiting = true;
      this.res.once('drain', () => this.drain());
    }
  }

  /** The socket took what it had: the queued entries go, then the count of those dropped meanwhile. */
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
