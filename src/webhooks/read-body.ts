// Reads a node:http request body with a hard cap, for the node and Express adapters. An oversized
// body is refused from `Content-Length` before a byte is read, or as soon as the running total passes
// the cap for chunked bodies: the receiver never buffers more than `maxBytes` + one chunk.
import type { Readable } from 'node:stream';

export type ReadBodyResult = { ok: true; body: Buffer } | { ok: false; reason: 'too-large' | 'aborted' };

/** True when the request declares more than `maxBytes` (a malformed Content-Length is left to the HTTP parser). */
export function declaresTooLarge(contentLength: unknown, maxBytes: number): boolean {
  if (typeof contentLength !== 'string' || !/^\d+$/.test(contentLength)) return false;
  return Number(contentLength) > maxBytes;
}

export function readLimited(stream: Readable, maxBytes: number): Promise<ReadBodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const finish = (result: ReadBodyResult) => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onAbort);
      stream.off('close', onAbort);
      resolve(result);
    };
    const onData = (chunk: Buffer | string) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      total += buffer.byteLength;
      if (total > maxBytes) {
        // Stop pulling: the rest stays in the socket and is discarded when the connection closes.
        stream.pause();
        finish({ ok: false, reason: 'too-large' });
        return;
      }
      chunks.push(buffer);
    };
    const onEnd = () => finish({ ok: true, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total) });
    const onAbort = () => finish({ ok: false, reason: 'aborted' });
    // A stream that some middleware already read to the end will never emit 'end' again.
    if (stream.readableEnded) {
      resolve({ ok: false, reason: 'aborted' });
      return;
    }
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onAbort);
    stream.once('close', onAbort);
  });
}

/**
 * After a 413, reads and throws away what the sender is still writing (never buffered) and only then
 * lets the connection close: closing while the sender is still writing resets the connection, and the
 * reset can reach the sender before it has read the 413. Bounded in bytes and time; past either the
 * connection is cut. `done` runs once, when the discarding stops for any reason.
 */
export function discardRest(stream: Readable, limits: { maxBytes: number; maxMs: number }, done: () => void): void {
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    done();
  };
  const cut = () => {
    finish();
    stream.destroy();
  };
  const timer = setTimeout(cut, limits.maxMs);
  timer.unref();
  if (stream.readableEnded || stream.destroyed) return finish();
  let seen = 0;
  stream.on('data', (chunk: Buffer | string) => {
    seen += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
    if (seen > limits.maxBytes) cut();
  });
  stream.once('end', finish);
  stream.once('close', finish);
  stream.resume();
}
