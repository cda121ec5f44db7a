// Node's Buffer in the sandbox's browser build: the `buffer` package (the polyfill bundlers use), plus the
// one encoding the sandbox needs that it lacks: `base64url` (tokens, identities.ts). The build injects it
// wherever the bundled code names the global `Buffer`.
import { Buffer } from 'buffer';

const toString = Buffer.prototype.toString;
Buffer.prototype.toString = function (this: Buffer, encoding?: string, start?: number, end?: number): string {
  if (encoding !== 'base64url') return toString.call(this, encoding as BufferEncoding, start, end);
  return toString.call(this, 'base64', start, end).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
} as typeof toString;

export { Buffer };
