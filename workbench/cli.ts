// `npm start`: the mock workbench on 127.0.0.1:4010. Parses flags, starts createMockServer, prints
// where everything is, and shuts down cleanly on SIGINT/SIGTERM.
import { parseArgs } from 'node:util';
import { createWorkbench } from './index.js';
import { parseTimeScale } from './simulator/index.js';

const HELP = `Usage: npm start -- [options]

Serves the storefront contract on its real paths with Prism's engine.

Options:
  --port <n>             port (env PORT, default 4010; 0 = any free port)
  --host <addr>          interface (default 127.0.0.1)
  --dynamic              Prism dynamic bodies instead of the named examples
  --strict-auth          accept only access tokens issued by POST /auth/anonymous
  --max-body-bytes <n>   reject bodies larger than this with 413 (default 1048576)
  --spec <file>          storefront document (default spec/openapi/storefront.yaml)
  --admin-spec <file>    admin document (default spec/openapi/admin.yaml)
  --quiet                no request log
  --data-dir <dir>       webhook simulator: keep subscriptions, pending retries and the log there (default: in memory)
  --time-scale <x>       webhook simulator: multiply retry delays and the time-out (env WEBHOOK_TIME_SCALE; 0.01 = 100x faster)
  --deny-private         webhook simulator: refuse loopback, private, link-local and metadata receiver addresses
  --help                 this text

Per request: "Prefer: code=404", "Prefer: example=<Name>", "Prefer: dynamic=true".`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${HELP}\n`);
  process.exit(2);
}

function intOption(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) fail(`--${name} must be a non-negative integer, got "${raw}".`);
  return Number(raw);
}

async function main(): Promise<void> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        dynamic: { type: 'boolean' },
        'strict-auth': { type: 'boolean' },
        'max-body-bytes': { type: 'string' },
        spec: { type: 'string' },
        'admin-spec': { type: 'string' },
        quiet: { type: 'boolean' },
        'data-dir': { type: 'string' },
        'time-scale': { type: 'string' },
        'deny-private': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (e) {
    fail((e as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  const port = intOption('port', (values.port as string | undefined) ?? process.env.PORT, 4010);
  if (port > 65535) fail(`--port must be at most 65535, got ${port}.`);
  const maxBodyBytes = intOption('max-body-bytes', values['max-body-bytes'] as string | undefined, 1024 * 1024);

  let timeScale: number | undefined;
  try {
    timeScale = parseTimeScale((values['time-scale'] as string | undefined) ?? process.env.WEBHOOK_TIME_SCALE);
  } catch (e) {
    fail(`--time-scale: ${(e as Error).message}`);
  }
  const server = await createWorkbench({
    // The webhook simulator serves the Admin webhook API for real.
    webhooks: {
      dataDir: values['data-dir'] as string | undefined,
      timeScale,
      denyPrivate: values['deny-private'] === true,
      log: values.quiet ? undefined : (line) => process.stderr.write(`${line}\n`),
    },
    port,
    host: (values.host as string | undefined) ?? '127.0.0.1',
    dynamic: values.dynamic === true,
    strictAuth: values['strict-auth'] === true,
    maxBodyBytes,
    quiet: values.quiet === true,
    specs: { storefront: values.spec as string | undefined, admin: values['admin-spec'] as string | undefined },
  });

  process.stdout.write(
    [
      `Mock workbench listening on ${server.url}${values['strict-auth'] ? ' (strict auth)' : ''}${values.dynamic ? ' (dynamic)' : ''}`,
      ...server.describe(),
      '',
    ].join('\n'),
  );

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    process.stderr.write(`mock: ${signal} received, closing\n`);
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  // Last line of defence: a bug in one request must not take the workbench down for everyone.
  process.on('uncaughtException', (err) => process.stderr.write(`mock: uncaught error: ${err.message}\n`));
}

main().catch((err) => {
  process.stderr.write(`mock: failed to start: ${(err as Error).message}\n`);
  process.exit(1);
});
