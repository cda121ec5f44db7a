// Bugs a reviewer made in core code that the whole suite once let through (issue 38), kept so they stay
// caught: `npm run test:known-bugs` (scripts/known-bugs.ts) makes each again, in place, runs the test folders
// that must catch it, and fails if they still pass (or if they fail without the bug, which would prove
// nothing). A bug whose `find` text is no longer in its file must be rewritten against the new code, never
// dropped: the runner says so.

export interface KnownBug {
  name: string;
  /** The file the bug is made in, from the repository root. */
  file: string;
  /** Text that occurs exactly once in the file, and what it becomes. */
  find: string;
  replace: string;
  /** Test files or folders of which at least one test must fail with the bug. */
  caughtBy: string[];
}

export const knownBugs: KnownBug[] = [
  {
    name: 'the webhook sender certifier accepts a retry that comes hours late (only early retries checked)',
    file: 'conformance/rules/webhooks/sender-retry-schedule.ts',
    find: 'if (gap < w.min || gap > w.max) {',
    replace: 'if (gap < w.min) {',
    caughtBy: ['test/conformance/rules/webhooks/sender-retry-schedule.test.ts'],
  },
  {
    name: "the raw-socket 405 for CONNECT loses its Allow header (RFC 9110 section 15.5.6 requires it)",
    file: 'workbench/adapters/node-http.ts',
    find: ", [], { allow: 'GET, POST, OPTIONS' }));",
    replace: ', []));',
    caughtBy: ['test/workbench/raw-socket-refusals.test.ts'],
  },
  {
    name: "a customer group's explicit \"no promotion\" falls back to the item's own promotion",
    file: 'workbench/sandbox/pricing.ts',
    find: 'promotion: price.promotion !== undefined ? price.promotion : own.promotion,',
    replace: 'promotion: price.promotion ?? own.promotion,',
    caughtBy: ['test/sandbox/pricing.test.ts', 'test/sandbox/behaviour.test.ts'],
  },
];
