// The recordings cover the contract: every storefront operation and every documented status code of
// generated/operations/storefront.ts appears in at least one HAR; every HAR is HAR 1.2 with bindings.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { storefrontOperations } from '../../generated/operations/storefront.js';
import { loadScenarios, scenarioNames, trafficDir } from '../../conformance/rest/load.js';

const scenarios = loadScenarios();
const seen = new Set(scenarios.flatMap((s) => s.steps.map((st) => `${st.operation.operationId} ${st.recorded.status}`)));

describe('recorded traffic', () => {
  it('has the four scenarios, each with its bindings', () => {
    expect(scenarioNames()).toEqual(expect.arrayContaining(['browse-catalog', 'customer', 'negative', 'pos']));
    for (const name of scenarioNames()) expect(existsSync(path.join(trafficDir, `${name}.bindings.yaml`)), name).toBe(true);
  });

  it.each(Object.values(storefrontOperations).flatMap((op) => op.responses.map((status) => [op.operationId, status] as const)))('%s %s is recorded', (operationId, status) => {
    expect(seen.has(`${operationId} ${status}`)).toBe(true);
  });

  it('records only documented statuses (the recordings are of a conforming server)', () => {
    for (const s of scenarios) for (const st of s.steps) expect(st.operation.responses as readonly string[], st.id).toContain(String(st.recorded.status));
  });

  it('names every step (the bindings refer to steps by name)', () => {
    for (const s of scenarios) {
      const names = s.steps.map((st) => st.name);
      expect(names.every((n) => !n.startsWith('#')), s.name).toBe(true);
      expect(new Set(names).size, `${s.name} step names are unique`).toBe(names.length);
    }
  });
});
