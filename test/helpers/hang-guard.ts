// Hang guards, not speed checks (speed is `npm run bench`): how long a test, a hook, a poll or a child
// process may take before it is taken for hung. `npm run test:under-load` stretches them by the slowdown it
// causes (SFC_TEST_TIMEOUT_SCALE, set from its workers and CPU hogs per core): there the drift gate's three
// generations or `certify --all` take minutes, which is slow, not hung. vitest.config.ts stretches the
// default test, hook and poll time-outs the same way; a test that sets its own passes it through here.

const raw = process.env.SFC_TEST_TIMEOUT_SCALE;
const scale = Number(raw ?? 1);
if (!(Number.isFinite(scale) && scale >= 1 && scale <= 20)) throw new Error(`SFC_TEST_TIMEOUT_SCALE "${raw}" is not a number from 1 to 20; unset it or use e.g. 4.`);

/** A hang guard of `ms` on an unloaded machine, stretched under load. */
export function hangGuard(ms: number): number {
  return ms * scale;
}
