// cross-call-consistency: where the contract ties calls together, the answers agree: the variant
// fetched is the one the list named, the cart fetched is the cart asked for and then evaluated. The
// checks are declared in the scenario's bindings (`consistency:`).
import { getPointer } from '../../../src/contract/json-pointer.js';
import type { Rule } from '../../rest/types.js';

export const crossCallConsistency: Rule = {
  id: 'cross-call-consistency',
  severity: 'error',
  summary: 'Values the contract ties across calls agree (declared per scenario under `consistency:`).',
  check({ live, values, consistency }) {
    if (live.status < 200 || live.status >= 300) return [];
    const problems: string[] = [];
    for (const check of consistency) {
      const want = values.get(check.equals);
      if (want === undefined) continue;
      const got = getPointer(live.body, check.pointer);
      if (String(got) !== want) {
        problems.push(`${check.pointer} is ${JSON.stringify(got)} but ${check.description ?? `the binding ${check.equals}`} is ${JSON.stringify(want)}`);
      }
    }
    return problems;
  },
};
