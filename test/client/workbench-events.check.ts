// The workbench raises events of the catalog only: the sandbox's event sink is typed by the generated event
// map (generated/types/webhooks.ts), so a misspelt event name is a compile error, not an event no receiver
// subscribed to. Type-checked by client-types.test.ts (tsconfig.types.json); never run.
import type { EventSink, RaiseSpec } from '../../workbench/sandbox/event-sink.js';

declare const raise: EventSink;
const actor = { userId: 'cus_1', adminUserId: null };

raise('demo-store', 'order.created', {}, actor);
raise('demo-store', 'inventory.updated', {}, actor);
// @ts-expect-error: not an event of the catalog
raise('demo-store', 'order.craeted', {}, actor);
// @ts-expect-error: a computed name must be narrowed to the catalog's names first
raise('demo-store', `order.${String(Date.now())}`, {}, actor);

// The same for the events a write raises (Sandbox.commit's third argument).
export const raised: RaiseSpec[] = [['cart.updated', {}, actor]];
// @ts-expect-error: not an event of the catalog
export const misspelt: RaiseSpec = ['cart.upated', {}, actor];
