// A HAR 1.2 file written as exchanges happen: the log's head and tail are written once, and each entry is
// written in place before the tail, so the file is a complete HAR after every entry and nothing of the
// recording is held in memory (`record` and the validating proxy's `--har` both write through here).
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { HarEntry } from '../har.js';

const TAIL = '\n    ]\n  }\n}\n';

export class HarFile {
  private readonly fd: number;
  /** Where the tail starts: the next entry is written here. */
  private at: number;
  private count = 0;

  constructor(
    readonly file: string,
    creator: string,
  ) {
    mkdirSync(path.dirname(file), { recursive: true });
    this.fd = openSync(file, 'w');
    const head = `{\n  "log": {\n    "version": "1.2",\n    "creator": ${JSON.stringify({ name: creator, version: '1' })},\n    "entries": [`;
    this.at = writeSync(this.fd, head + TAIL, 0) - Buffer.byteLength(TAIL);
  }

  /** Appends one entry; the file stays a complete HAR. */
  append(entry: HarEntry): void {
    const text = `${this.count ? ',' : ''}\n${JSON.stringify(entry, null, 2).replace(/^/gm, '      ')}`;
    const bytes = Buffer.from(text + TAIL);
    writeSync(this.fd, bytes, 0, bytes.length, this.at);
    this.at += bytes.length - Buffer.byteLength(TAIL);
    this.count++;
  }

  get entries(): number {
    return this.count;
  }

  close(): void {
    closeSync(this.fd);
  }
}
