// The engine's file ports on Node's file system: the documentation site (`SiteFiles` of
// mock/static-docs.ts) read from a folder. The engine asks by relative path; this side resolves it under
// the folder and refuses anything that would leave it (the engine normalises already: this is the second
// lock), so the request path itself imports no node:fs.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { SiteEntry, SiteFiles } from '../mock/static-docs.js';

/** The files of the folder `root` (the built docs site, `docs/site`). */
export function folderFiles(root: string): SiteFiles {
  const base = path.resolve(root);
  const resolve = (relative: string): string | undefined => {
    const file = path.resolve(base, `.${path.posix.normalize(`/${relative}`)}`);
    return file === base || file.startsWith(base + path.sep) ? file : undefined;
  };
  return {
    async stat(relative: string): Promise<SiteEntry | undefined> {
      const file = resolve(relative);
      if (!file) return undefined;
      const info = await stat(file).catch(() => undefined);
      if (info?.isDirectory()) return { kind: 'folder' };
      return info?.isFile() ? { kind: 'file', size: info.size, mtimeMs: info.mtimeMs } : undefined;
    },
    read(relative: string): ReadableStream<Uint8Array> {
      const file = resolve(relative);
      if (!file) return new ReadableStream({ start: (c) => c.error(new Error(`${relative} is outside the site`)) });
      return Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
    },
  };
}
