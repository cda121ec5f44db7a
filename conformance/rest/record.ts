// `storefront-contract record --upstream <url> --out <file.har> [--port N]` (npm run record --)
// A recording proxy on loopback: point a client at it, use the API, stop with Ctrl-C. Every exchange
// is written to the HAR file as it happens, with API keys, bearer tokens, refresh/access tokens and
// OTPs redacted.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { integerOption, stopSignal, UsageError } from '../../workbench/cli-support.js';
import { HarFile } from './recorder/har-file.js';
import { createRecordingProxy } from './recorder/proxy.js';

export const RECORD_USAGE = `Usage: storefront-contract record --upstream <url> --out <file.har> [--port <n>]

A recording proxy on 127.0.0.1: point a client at it, use the API, stop with Ctrl-C. Every exchange is
written to the HAR file as it happens, with API keys, bearer tokens, refresh/access tokens and OTPs
redacted: a recording to share, or to replay as a scenario of certification (in a clone of the
repository: conformance/traffic/ and conformance/README.md, "Adding a scenario").

Options:
  --upstream <url>   the server to record (e.g. http://127.0.0.1:4010)
  --out <file.har>   where the recording goes (written after every exchange)
  --port <n>         the proxy's port (default: a free one)
  --help             this text

Environment: none needed; credentials in the recorded traffic are redacted, never written.

Example:
  storefront-contract record --upstream http://127.0.0.1:4010 --out traffic/checkout.har`;

export async function runRecord(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { upstream: { type: 'string' }, out: { type: 'string' }, port: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    process.stdout.write(`${RECORD_USAGE}\n`);
    return 0;
  }
  if (!values.upstream) throw new UsageError('--upstream is required: the server to record, e.g. --upstream http://127.0.0.1:4010');
  if (!values.out) throw new UsageError('--out is required: the HAR file to write, e.g. --out traffic/session.har');
  try {
    new URL(values.upstream);
  } catch {
    throw new UsageError(`--upstream ${values.upstream} is not a URL (e.g. http://127.0.0.1:4010)`);
  }
  const port = integerOption('port', values.port, 0, 65535);
  const out = path.resolve(values.out);
  // Every exchange is appended as it happens (the file is a complete HAR after each), nothing kept in memory.
  const file = new HarFile(out, 'storefront-contract record');
  const proxy = await createRecordingProxy({
    upstream: values.upstream,
    port,
    keepEntries: false,
    onEntry: (entry) => {
      file.append(entry);
      process.stderr.write(`record: ${entry.request.method} ${new URL(entry.request.url).pathname} ${entry.response.status}\n`);
    },
  });
  // Listening for the signal before saying so: stopped right after this line, it still closes the HAR file.
  const stop = stopSignal();
  process.stdout.write(`record: proxy on ${proxy.url} -> ${values.upstream}; writing ${path.relative(process.cwd(), out)}; Ctrl-C to stop\n`);

  await stop.received;
  await proxy.close();
  file.close();
  process.stderr.write(`record: ${file.entries} entries in ${path.relative(process.cwd(), out)}\n`);
  return 0;
}
