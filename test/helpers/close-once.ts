// Closing a test's workbench (or any server) once: a test closes it to restart on the same data
// directory, and its cleanup closes whatever is still open, so close() may be called twice. The second
// call gets the first call's promise instead of closing again.

/** `fn` runs on the first call only; later calls get the same promise. */
export function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}

/** Replaces `target.close` by one that closes once (see `once`), and returns `target`. */
export function closeOnce<T extends { close(): Promise<void> }>(target: T): T {
  target.close = once(target.close.bind(target));
  return target;
}
