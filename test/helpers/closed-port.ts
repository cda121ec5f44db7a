// A loopback port that nothing listens on, for tests of "connection refused".
//
// Binding port 0 and releasing it is racy under a parallel run: the kernel hands the same port to the
// next server that listens on port 0 (another test file's receiver, a child workbench), and the "refused"
// attempt then reaches that server. Ports below the kernel's ephemeral range are never handed out for
// port 0, so one checked free there stays free for the test's life (no test listens on a fixed port).
import { readFileSync } from 'node:fs';
import net from 'node:net';

function ephemeralLow(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isSafeInteger(low) && low! > 2_048) return low!;
  } catch {
    // Not Linux: the IANA dynamic range starts at 49152.
  }
  return 49_152;
}

/** True when nothing listens on the port: binding it succeeds (then it is released at once). */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

export async function closedPort(): Promise<number> {
  const high = ephemeralLow() - 1;
  const low = Math.max(1_024, high - 10_000);
  for (let tries = 0; tries < 50; tries++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (await bindable(port)) return port;
  }
  throw new Error(`closedPort: no free port found between ${low} and ${high}`);
}
