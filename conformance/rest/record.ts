// npm run record -- --upstream <url> --out <file.har> [--port N]
// A recording proxy on loopback: point a client at it, use the API, stop with Ctrl-C. Every exchange
// is written to the HAR file as it happens, with API keys, bearer tokens, refresh/access tokens and
// OTPs redacted.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createRecordingProxy } from './recorder/proxy.js';
import type { Har } from './har.js';

const USAGE = 'usage: npm run record -- --upstream <url> --out <file.har> [--port <n>]';

function fail(message: string): never {
  process.stderr.write(`record: ${message}\n${USAGE}\n`);
  process.exit(2);
}

let values: { upstream?: string; out?: string; port?: string; help?: boolean };
try {
  ({ values } = parseArgs({ options: { upstream: { type: 'string' }, out: { type: 'string' }, port: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }));
} catch (e) {
  fail((e as Error).message);
}
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (!values.upstream) fail('--upstream is required');
if (!values.out) fail('--out is required');
try {
  new URL(values.upstream);
} catch {
  fail(`--upstream ${values.upstream} is not a URL`);
}
const out = path.resolve(values.out);
mkdirSync(path.dirname(out), { recursive: true });

function save(har: Har): void {
  const tmp = `${out}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(har, null, 2)}\n`);
  renameSync(tmp, out);
}

const proxy = await createRecordingProxy({
  upstream: values.upstream,
  port: values.port ? Number(values.port) : 0,
  onEntry: (entry, har) => {
    save(har);
    process.stderr.write(`record: ${entry.request.method} ${new URL(entry.request.url).pathname} ${entry.response.status}\n`);
  },
});
save(proxy.har());
process.stdout.write(`record: proxy on ${proxy.url} -> ${values.upstream}; writing ${path.relative(process.cwd(), out)}; Ctrl-C to stop\n`);

const stop = async () => {
  await proxy.close();
  save(proxy.har());
  process.stderr.write(`record: ${proxy.har().log.entries.length} entries in ${path.relative(process.cwd(), out)}\n`);
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
