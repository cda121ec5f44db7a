// What a failed store operation was, by SQLite's error code (no import of the driver: the sandbox's write
// path reads it, and runs in the browser too, where the store is in memory).

/** The store could not keep a write: SQLite's reason (SQLITE_FULL: the disk is full; SQLITE_IOERR...), else undefined. */
export function storeFailureCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && /^SQLITE_(FULL|IOERR|READONLY|BUSY|LOCKED|CANTOPEN|CORRUPT|NOTADB|PROTOCOL)/.test(code) ? code : undefined;
}
