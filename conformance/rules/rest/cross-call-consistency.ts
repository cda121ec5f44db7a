// cross-call-consistency: where the contract ties calls together, the answers agree: the variant
// fetched is the one the list named, the cart fetched is the cart asked for and then evaluated. The
// checks are declared in the scenario's bindings (`consistency:`).
import { getPointer } from 'storefront-contract/contract';
import { problem, skip, type Rule } from '../model.js';
import type { Exchange } from '../../rest/exchange.js';

export const crossCallConsistency: Rule<Exchange> = {
  id: 'cross-call-consistency',
  target: 'rest',
  severity: 'error',
  source: { kind: 'stated', ref: 'spec/openapi/storefront.yaml#/paths' },
  summary: 'Values the contract ties across calls agree (declared per scenario under `consistency:`).',
  check({ live, values, consistency }) {
    if (consistency.length === 0) return skip('no consistency check declared for the steps judged');
    if (live.status < 200 || live.status >= 300) return skip(`a ${live.status} carries no values to compare`);
    const checks = consistency.filter((c) => values.has(c.equals));
    if (checks.length === 0) return skip('the bound values were not captured');
    return checks.flatMap((check) => {
      const want = values.get(check.equals);
      const got = getPointer(live.body, check.pointer);
      return String(got) === want ? [] : [problem(check.pointer, `${check.pointer} is ${JSON.stringify(got)} but ${check.description ?? `the binding ${check.equals}`} is ${JSON.stringify(want)}`)];
    });
  },
};
