// npx tsx conformance/rest/make-recordings.ts [scenario...]
// Re-records conformance/traffic/<scenario>.har: starts the mock (strict auth, so tokens are real and
// differ between runs), puts the recording proxy in front of it, and drives each scenario through the
// proxy. The bindings files beside the recordings are written by hand; check them after re-recording,
// then regenerate the Arazzo workflows (npx tsx conformance/rest/make-arazzo.ts).
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createMockServer } from '../../workbench/adapters/node-http.js';
import { createRecordingProxy } from './recorder/proxy.js';
import { scenarioDrivers } from './scenarios/index.js';
import { createSession } from './scenarios/session.js';
import { trafficDir } from './load.js';

const wanted = process.argv.slice(2);
const mock = await createMockServer({ port: 0, quiet: true, strictAuth: true });
try {
  for (const driver of scenarioDrivers) {
    if (wanted.length && !wanted.includes(driver.name)) continue;
    const proxy = await createRecordingProxy({ upstream: mock.url });
    try {
      const keys = { apiKey: `sk_live_${randomBytes(12).toString('hex')}`, restrictedApiKey: `sk_pos_${randomBytes(12).toString('hex')}` };
      await driver.drive(createSession(proxy.url, 'demo-store', keys));
      const har = proxy.har();
      har.log.comment = `${driver.name}: ${driver.description} Recorded against the mock by conformance/rest/make-recordings.ts.`;
      const file = path.join(trafficDir, `${driver.name}.har`);
      writeFileSync(file, `${JSON.stringify(har, null, 2)}\n`);
      process.stderr.write(`recorded ${har.log.entries.length} entries -> ${path.relative(process.cwd(), file)}\n`);
    } finally {
      await proxy.close();
    }
  }
} finally {
  await mock.close();
}
process.stderr.write('next: check the bindings, then npx tsx conformance/rest/make-arazzo.ts (the Arazzo workflows beside the recordings)\n');
