// Module hooks (they run on Node's loader thread): log each loaded file URL, change nothing.
import { appendFileSync } from 'node:fs';

let log;

export function initialize(data) {
  log = data.log;
}

export async function load(url, context, next) {
  if (log && url.startsWith('file:')) appendFileSync(log, `${url}\n`);
  return next(url, context);
}
