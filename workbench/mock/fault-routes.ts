// The back office of fault injection, under /__simulator/stores/{store_id}/faults: NOT part of the
// contract. List a store's rules, add one, delete one or all (faults.ts has the rules and the check).
// Declared routes of the pipeline (http/control-routes.ts): its matcher, body reader, local-caller guard,
// `X-Simulator: outside-contract` and error writer serve them; they are never faulted themselves.
import { successEnvelope } from 'storefront-contract/contract';
import { describeRoutes } from '../http/control-routes.js';
import { fail } from '../http/errors.js';
import type { ControlRoute, Reply, WorkbenchExtension } from '../http/extension.js';
import { MAX_DELAY_MS, MAX_RULES_PER_STORE, type FaultRegistry } from './faults.js';

const FAULTS = '/__simulator/stores/{store_id}/faults';
const done = (status: number, message: string, content: unknown): Reply => ({ status, body: successEnvelope(message, content) });

type FaultRoute = Omit<ControlRoute, 'handle'> & { handle(registry: FaultRegistry, request: Parameters<ControlRoute['handle']>[0]): Reply };

const ROUTES: FaultRoute[] = [
  {
    method: 'GET',
    path: FAULTS,
    summary: "the store's fault rules, in the order they are tried (with how often each was applied)",
    handle: (registry, { params }) =>
      done(200, `Fault rules of store ${params.store_id} (outside the contract)`, {
        store_id: params.store_id,
        rules: registry.list(params.store_id),
        limits: { rules_per_store: MAX_RULES_PER_STORE, max_delay_ms: MAX_DELAY_MS },
      }),
  },
  {
    method: 'POST',
    path: FAULTS,
    summary: 'add a fault rule: {"operation": "listProducts" | "*", "delay_ms": 800 | {"min", "max"}, "status": 404, "drop": true, "rate": 0.3, "times": 5, "seed": "s1", "allow_undocumented": false}',
    body: 'json-object',
    handle: (registry, { params, body }) => {
      const rule = registry.add(params.store_id, body!);
      return done(201, `Fault rule ${rule.id} added to store ${params.store_id}.`, { rule });
    },
  },
  {
    method: 'DELETE',
    path: FAULTS,
    summary: "delete every fault rule of the store (the --fault ones too)",
    handle: (registry, { params }) => {
      const removed = registry.clear(params.store_id);
      return done(200, `${removed} fault rule(s) of store ${params.store_id} deleted.`, { removed });
    },
  },
  {
    method: 'DELETE',
    path: `${FAULTS}/{fault_id}`,
    summary: 'delete one fault rule',
    handle: (registry, { params }) => {
      const rule = registry.remove(params.store_id, params.fault_id);
      if (!rule) return fail(404, 'not_found', `Store ${params.store_id} has no fault rule ${params.fault_id.slice(0, 100)}; see GET ${FAULTS.replace('{store_id}', params.store_id)}.`, [{ location: 'path', name: 'fault_id', message: 'no fault rule with this id' }]);
      return done(200, `Fault rule ${rule.id} of store ${params.store_id} deleted.`, { rule });
    },
  },
];

/** The routes, for GET /__simulator and the docs. */
export const FAULT_ROUTES: Record<string, string> = describeRoutes(ROUTES);

/** The workbench extension that plugs the fault back office into the pipeline. */
export function faultsExtension(registry: FaultRegistry): WorkbenchExtension {
  return { controlRoutes: ROUTES.map((route) => ({ ...route, handle: (request) => route.handle(registry, request) })) };
}
