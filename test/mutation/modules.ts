// The code where a bug costs most, in modules for `npm run test:mutation` (scripts/mutation.ts): each module
// names the files StrykerJS mutates and the test files that must kill those mutants. The tests are the fast,
// focused files for that code (unit and loopback HTTP), not the whole suite: a mutant is judged by the tests
// written for its code, and a module's run stays within minutes on two cores.
//
// test/mutation/results.test.ts checks that every file named here exists, that every module has a result in
// test/mutation/results/, and that the README's table is the one those results render.

export interface MutationModule {
  /** Short name: `--module <name>`, the results file, the README row. */
  name: string;
  /** What the module is, for the README row. */
  title: string;
  /** Files to mutate, relative to the repository root. */
  mutate: string[];
  /** Test files that judge the mutants (relative paths, or folders whose `*.test.ts` files all count). */
  tests: string[];
}

export const MUTATION_THRESHOLD = 85;

export const mutationModules: MutationModule[] = [
  {
    name: 'webhook-signing',
    title: 'Webhook signing and verification (the receiver kit, the sender\'s signature)',
    mutate: ['src/webhooks/verify.ts', 'src/webhooks/staleness.ts', 'src/webhooks/headers.ts', 'src/webhooks/parse-delivery.ts'],
    tests: ['test/webhooks/verify.test.ts', 'test/webhooks/vectors.test.ts', 'test/webhooks/staleness.test.ts', 'test/webhooks/spec-examples.test.ts'],
  },
  {
    name: 'url-policy',
    title: 'Webhook URL policy (SSRF)',
    mutate: ['workbench/simulator/url-policy.ts'],
    tests: ['test/simulator/url-policy.test.ts'],
  },
  {
    name: 'rest-rules',
    title: 'REST certification rules and the shard merge',
    mutate: ['conformance/rules/rest/*.ts', 'conformance/rules/observations/rest.ts', 'conformance/rules/run.ts', 'conformance/rules/model.ts', 'conformance/rest/merge.ts'],
    tests: ['test/conformance/rules/rest', 'test/conformance/shards.test.ts'],
  },
  {
    name: 'webhook-rules',
    title: 'Webhook certification rules (sender and receiver)',
    mutate: ['conformance/rules/webhooks/*.ts', 'conformance/rules/shared/*.ts', 'conformance/rules/observations/webhooks.ts'],
    tests: ['test/conformance/rules/webhooks', 'test/conformance-webhooks/timing.test.ts'],
  },
  {
    name: 'error-writer',
    title: 'The error writer',
    mutate: ['workbench/http/errors.ts'],
    tests: ['test/workbench/error-writer.test.ts'],
  },
  {
    name: 'paging',
    title: 'Paging',
    mutate: ['workbench/http/paging.ts'],
    tests: ['test/workbench/paging.test.ts', 'test/simulator/paging.test.ts'],
  },
  {
    name: 'pricing',
    title: 'Pricing, coupons and cart totals',
    mutate: ['workbench/sandbox/pricing.ts', 'workbench/sandbox/money.ts', 'workbench/sandbox/coupons.ts', 'workbench/sandbox/cart.ts'],
    tests: ['test/sandbox/behaviour.test.ts'],
  },
  {
    name: 'journal',
    title: 'The sandbox journal (durable writes)',
    mutate: ['workbench/sandbox/journal.ts'],
    // journal-unit drives every path of the journal through its API in process. Left out, as slow for what
    // they add: compaction-crash.test.ts (its writers are child processes, where Stryker's vitest runner
    // cannot switch a mutant on) and journal-recovery.test.ts (its CLI case, a child, costs about 20 s a
    // mutant under load; its in-process cases are journal-unit's too).
    tests: ['test/sandbox/journal-unit.test.ts'],
  },
  {
    name: 'clock',
    title: 'The clock (per-store time, advances, date-time bounds)',
    mutate: ['workbench/clock/clocks.ts', 'workbench/clock/advance.ts', 'workbench/http/date-time.ts'],
    // clock.test.ts and clock-bounds.test.ts (a workbench over HTTP each, about 10 s a mutant) stay out:
    // clock-unit drives the same code through its own API.
    tests: ['test/workbench/clock-unit.test.ts', 'test/workbench/clock-edges.test.ts'],
  },
];
