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
    // spec-examples.test.ts (the spec's signed examples accepted) re-reads and dereferences the AsyncAPI
    // documents on every run; parse-delivery.test.ts checks the same acceptance field by field.
    tests: ['test/webhooks/verify.test.ts', 'test/webhooks/parse-delivery.test.ts', 'test/webhooks/vectors.test.ts', 'test/webhooks/staleness.test.ts'],
  },
  {
    name: 'url-policy',
    title: 'Webhook URL policy (SSRF)',
    mutate: ['workbench/simulator/url-policy.ts'],
    // The policy's functions without a workbench; url-policy.test.ts checks the same policy over HTTP.
    tests: ['test/simulator/url-policy-unit.test.ts'],
  },
  {
    name: 'rest-rules',
    title: 'REST certification rules (and the rule model and tally they run in)',
    mutate: ['conformance/rules/rest/*.ts', 'conformance/rules/observations/rest.ts', 'conformance/rules/run.ts', 'conformance/rules/model.ts'],
    tests: ['test/conformance/rules/rest', 'test/conformance/rules/run.test.ts', 'test/conformance/rules/completeness.test.ts'],
  },
  {
    // Judged by shard reports built in process (test/conformance/merge.test.ts); shards.test.ts and
    // merge-hostile.test.ts prove the same through a sandbox and the CLI, too slow to run per mutant.
    name: 'certify-merge',
    title: 'The shard merge of certify (certify merge)',
    mutate: ['conformance/rest/merge.ts'],
    tests: ['test/conformance/merge.test.ts'],
  },
  {
    name: 'webhook-rules',
    title: 'Webhook certification rules (sender and receiver)',
    mutate: ['conformance/rules/webhooks/*.ts', 'conformance/rules/shared/*.ts', 'conformance/rules/observations/webhooks.ts'],
    tests: ['test/conformance/rules/webhooks', 'test/conformance-webhooks/timing.test.ts', 'test/conformance/rules/completeness.test.ts', 'test/conformance/rules/shared.test.ts'],
  },
  {
    name: 'error-writer',
    title: 'The error writer',
    mutate: ['workbench/http/errors.ts'],
    // The writer on its own over loopback (milliseconds a mutant); error-writer.test.ts, which starts a
    // workbench and a proxy to show every server answers through it, kills nothing this file does not.
    tests: ['test/workbench/error-writer-unit.test.ts'],
  },
  {
    name: 'paging',
    title: 'Paging',
    mutate: ['workbench/http/paging.ts'],
    // The rule as functions, both sides of every bound; the HTTP files (test/workbench/paging.test.ts,
    // test/simulator/paging.test.ts) start a workbench per run and kill nothing this file does not.
    tests: ['test/workbench/paging-window.test.ts'],
  },
  {
    name: 'pricing',
    title: 'Pricing, coupons and cart totals',
    mutate: ['workbench/sandbox/pricing.ts', 'workbench/sandbox/money.ts', 'workbench/sandbox/coupons.ts', 'workbench/sandbox/cart.ts'],
    // Focused files on small worlds; behaviour.test.ts checks the same over HTTP but starts a workbench per run.
    tests: ['test/sandbox/pricing.test.ts', 'test/sandbox/cart-totals.test.ts'],
  },
  {
    name: 'store',
    title: 'The store (world log, upgrade from 0.2.x)',
    mutate: ['workbench/store/world-log.ts', 'workbench/upgrade/index.ts'],
    // world-log drives both implementations of the port in process; upgrade-unit every path of the upgrade
    // on directories made by 0.2.x's writers; from-0.2 a data directory written by 0.2.0, through a workbench
    // in process. outbox-crash.test.ts stays out: its workbenches are
    // child processes, where Stryker's vitest runner cannot switch a mutant on.
    tests: ['test/store/world-log.test.ts', 'test/upgrade/upgrade-unit.test.ts', 'test/upgrade/from-0.2.test.ts'],
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
