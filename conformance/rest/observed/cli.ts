// `storefront-contract proxy --upstream <url> [--port N] [--host A] [--store-id S] [--har out.har]
// [--report-dir dir] [--max-body N] [--strict] [--quiet]`: the validating proxy (proxy.ts) as a command.
// Violations go to stdout as they happen, one line each; notes (exchanges not judged, upstream failures)
// to stderr. SIGINT, SIGTERM or `POST /__proxy/stop` stops it: the drift report is written and summarised, exit 0 when no
// exchange broke the contract, 1 when one did, 2 on a usage error. Nothing secret is printed.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { integerOption, stopSignal, UsageError } from '../../../workbench/cli-support.js';
import { reportDirProblem, writeReports } from '../../report/write.js';
import { summaryText } from '../../report/summary.js';
import { unreachableReason } from '../reachable.js';
import { trafficRules, violationLine } from './judge.js';
import { createValidatingProxy, DEFAULT_PROXY_MAX_BODY, PROXY_PREFIX } from './proxy.js';

export const PROXY_USAGE = `Usage: storefront-contract proxy --upstream <url> [options]

A validating proxy: point a client (an app, a POS, an end-to-end suite) at it instead of the server.
Every exchange is forwarded unchanged (bodies streamed both ways, compression passed through) and, once
the client has its answer, judged by the certifier's rules that need no recording: status documented,
JSON content type, response schema, envelope, pagination, a page past the end, credentials enforced.
Each violation is printed as it happens; nothing is ever blocked or altered. Ctrl-C (SIGINT or
SIGTERM, or POST /__proxy/stop) stops it and writes the drift report (report.json, junit.xml,
report.html).

Options:
  --upstream <url>       the server to forward to, its root (e.g. https://staging.example.com)
  --port <n>             the proxy's port (default: a free one)
  --host <address>       the address to listen on (default 127.0.0.1; 0.0.0.0 lets devices on your
                         network through, the summary stays for this machine only)
  --store-id <id>        judge only this store's storefront traffic (default: every store)
  --har <file.har>       also write the traffic as redacted HAR 1.2, as it happens (certify --from-har
                         judges it again offline)
  --report-dir <dir>     where the drift report goes on exit (default .reports/proxy)
  --max-body <bytes>     larger response bodies pass through unjudged, as advice (default
                         ${DEFAULT_PROXY_MAX_BODY / 2 ** 20}MiB; KiB and MiB suffixes work)
  --strict               count warnings as errors
  --quiet                no violation lines (the report still has them)
  --help                 this text

Live summary: GET <proxy>${PROXY_PREFIX}/summary (JSON, outside the contract, for callers on this machine);
POST <proxy>${PROXY_PREFIX}/stop stops it as SIGTERM does (a script whose npx does not pass signals on).
Environment: none. Credentials pass through to the upstream untouched and are never printed or written
(the HAR holds markers instead). Exit 0 when no exchange broke the contract, 1 when one did, 2 on a
usage error.

Example:
  storefront-contract proxy --upstream https://staging.example.com --port 4011 --har session.har`;

/** `4MiB`, `512KiB`, `65536`: a byte count, or a UsageError naming the flag. */
export function byteSize(flag: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const m = /^(\d+)(KiB|MiB)?$/i.exec(raw.trim());
  const n = m ? Number(m[1]) * (m[2]?.toLowerCase() === 'mib' ? 2 ** 20 : m[2] ? 1024 : 1) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > 1024 * 2 ** 20) throw new UsageError(`--${flag} must be a size from 1 byte to 1024MiB (e.g. 4MiB, 512KiB, 65536), got "${raw.slice(0, 40)}"`);
  return n;
}

export async function runProxy(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      upstream: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'store-id': { type: 'string' },
      har: { type: 'string' },
      'report-dir': { type: 'string' },
      'max-body': { type: 'string' },
      strict: { type: 'boolean' },
      quiet: { type: 'boolean', short: 'q' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${PROXY_USAGE}\n`);
    return 0;
  }
  if (!values.upstream) throw new UsageError('--upstream is required: the server to forward to, e.g. --upstream http://127.0.0.1:4010');
  let upstream: URL;
  try {
    upstream = new URL(values.upstream);
  } catch {
    throw new UsageError(`--upstream ${values.upstream} is not a URL (e.g. http://127.0.0.1:4010)`);
  }
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:') throw new UsageError(`--upstream must be http or https, not ${upstream.protocol}`);
  if (/\/api\/v\d+(\/|$)/.test(upstream.pathname)) throw new UsageError(`--upstream ${values.upstream} holds the API path; give the server's root (--upstream ${upstream.origin}): clients keep their own paths`);
  const port = integerOption('port', values.port, 0, 65535);
  const maxBodyBytes = byteSize('max-body', values['max-body'], DEFAULT_PROXY_MAX_BODY);
  const reportDir = values['report-dir'] ?? '.reports/proxy';
  const reportProblem = reportDirProblem(reportDir);
  if (reportProblem) throw new UsageError(reportProblem);
  const harFile = values.har ? path.resolve(values.har) : undefined;
  if (harFile) {
    const harProblem = reportDirProblem(path.dirname(harFile));
    if (harProblem) throw new UsageError(harProblem.replace('--report-dir', '--har'));
  }
  const quiet = values.quiet === true;
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const note = (line: string) => process.stderr.write(`${line}\n`);

  // Ctrl-C, `kill` or POST /__proxy/stop end the run; the signal listeners go with it.
  const signals = stopSignal();
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  void signals.received.then(() => stop());
  try {
    return await serve();
  } finally {
    signals.dispose();
  }

  async function serve(): Promise<number> {
    let proxy;
    try {
      proxy = await createValidatingProxy({
        upstream: upstream.href,
        port,
        host: values.host,
        storeId: values['store-id'],
        strict: values.strict === true,
        harFile,
        maxBodyBytes,
        onViolation: quiet ? undefined : (v) => out(violationLine(v)),
        onNote: quiet ? undefined : note,
        onStop: () => stop(),
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') throw new UsageError(`--port ${port} is in use; pick another port or leave --port out for a free one`);
      if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UsageError(`--host ${values.host} is not an address of this machine; use 127.0.0.1 or 0.0.0.0`);
      throw error;
    }
    const upstreamShown = upstream.href.replace(/\/$/, '');
    out(`proxy: ${proxy.url} -> ${upstreamShown}; judging storefront traffic by ${trafficRules.length} rules (${trafficRules.map((r) => r.id).join(', ')}); Ctrl-C to stop`);
    out(`proxy: live summary at ${proxy.url}${PROXY_PREFIX}/summary${harFile ? `; writing ${path.relative(process.cwd(), harFile)}` : ''}`);
    const reason = await unreachableReason(upstreamShown);
    if (reason) note(`proxy: note: ${reason.replace('--base-url', '--upstream')}; requests are answered 502 until it answers`);

    await stopped;
    const certificate = await proxy.close();
    const files = writeReports(certificate, reportDir);
    out(summaryText(certificate, files.map((f) => path.relative(process.cwd(), f))));
    if (harFile) out(`  har: ${path.relative(process.cwd(), harFile)}`);
    return certificate.verdict === 'certified' ? 0 : 1;
  }
}
