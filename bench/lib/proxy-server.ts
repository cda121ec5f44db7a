// A proxy child process for the proxy suite: `node --conditions=sfc-source --import tsx
// bench/lib/proxy-server.ts <validating|plain> <port> <upstream>`. `validating` is the validating proxy
// (`storefront-contract proxy`: forwarding plus the judge, no HAR, violations counted, not printed;
// `validating-inline` with the judge on the proxy's own thread, for comparison);
// `plain` is the baseline, a minimal pass-through written here: node:http in, undici out, the body piped
// back, hop-by-hop headers dropped, nothing else.
import http from 'node:http';
import { pipeline } from 'node:stream/promises';
import { Agent, request } from 'undici';
import { createValidatingProxy } from '../../conformance/rest/observed/proxy.js';

const [kind, port, upstream] = process.argv.slice(2);
// A clean exit on SIGINT, so `--cpu-prof` writes its profile.
process.on('SIGINT', () => process.exit(0));
if (kind === 'validating' || kind === 'validating-inline') {
  let violations = 0;
  await createValidatingProxy({ upstream, port: Number(port), inline: kind === 'validating-inline', onViolation: () => violations++ });
  process.on('SIGTERM', () => process.exit(violations ? 1 : 0));
} else {
  const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'upgrade', 'te', 'trailer', 'proxy-connection']);
  const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
  http
    .createServer(async (req, res) => {
      try {
        const headers: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP.has(k)) headers[k] = v;
        const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
        const reply = await request(`${upstream}${req.url}`, { method: req.method as 'GET', headers, body: hasBody ? req : undefined, dispatcher });
        const out: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(reply.headers)) if (v !== undefined && !HOP.has(k)) out[k] = v;
        res.writeHead(reply.statusCode, out);
        await pipeline(reply.body, res);
      } catch {
        if (!res.headersSent) res.writeHead(502).end();
        else res.destroy();
      }
    })
    .listen(Number(port), '127.0.0.1');
}
