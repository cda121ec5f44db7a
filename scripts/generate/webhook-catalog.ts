// The webhook contract's machine-readable parts: the delivery rules (`x-delivery-rules` at the
// AsyncAPI root) and the event catalog (one entry per message, with its first named example), so
// the simulator, the receiver kit and the certifier read the spec's numbers instead of their own.
import { eventMessages } from './types.js';
import { eventExportName } from './names.js';

export function webhookCatalogModule(asyncapi: any): string {
  const rules = asyncapi['x-delivery-rules'];
  if (!rules) throw new Error('spec/asyncapi/webhooks.yaml has no `x-delivery-rules` at the root');
  const byEvent = new Map(eventMessages(asyncapi).map((m) => [m.event, m]));
  const events = Object.entries<any>(asyncapi.components?.messages ?? {})
    .map(([key, message]) => {
      const event = message.name ?? key;
      const example = (message.examples ?? [])[0];
      return {
        event,
        validator: eventExportName(event),
        family: message['x-event-family'] ?? null,
        contractSource: message['x-contract-source'] ?? null,
        marketplaceScoped: Boolean(message['x-marketplace-scoped']),
        title: message.title ?? null,
        summary: message.summary ?? null,
        example: example ? { name: example.name ?? null, headers: example.headers ?? null, payload: example.payload ?? null } : null,
      };
    })
    .filter((e) => byEvent.has(e.event))
    .sort((a, b) => a.event.localeCompare(b.event));
  return [
    `export const deliveryRules = ${JSON.stringify(rules, null, 2)} as const;`,
    '',
    `export const webhookEvents = ${JSON.stringify(events, null, 2)} as const;`,
    '',
    'export type WebhookCatalogEntry = (typeof webhookEvents)[number];',
    '',
  ].join('\n');
}
