// TypeScript types with openapi-typescript: the two OpenAPI documents as they are, and the webhook
// messages through a synthetic OpenAPI document whose schemas are the AsyncAPI payloads.
import openapiTS, { astToString } from 'openapi-typescript';
import { eventTypeName } from './names.js';

export async function openapiTypes(doc: any): Promise<string> {
  const ast = await openapiTS(structuredClone(doc), { alphabetize: false, defaultNonNullable: true, emptyObjectsUnknown: true });
  return astToString(ast);
}

export interface EventMessage {
  event: string;
  payload: any;
}

/** Messages of the AsyncAPI document, by event name, with their payload schema. */
export function eventMessages(asyncapi: any): EventMessage[] {
  return Object.entries<any>(asyncapi.components?.messages ?? {})
    .map(([key, message]) => ({
      event: message.name ?? key,
      payload: message.payload?.schemaFormat ? message.payload.schema : message.payload,
    }))
    .sort((a, b) => a.event.localeCompare(b.event));
}

export async function webhookTypes(asyncapi: any): Promise<string> {
  const messages = eventMessages(asyncapi);
  const synthetic = {
    openapi: '3.1.0',
    info: { title: `${asyncapi.info?.title ?? 'Webhooks'} (message payloads)`, version: asyncapi.info?.version ?? '0' },
    paths: {},
    components: {
      schemas: {
        ...structuredClone(asyncapi.components?.schemas ?? {}),
        ...Object.fromEntries(messages.map((m) => [`${eventTypeName(m.event)}Event`, structuredClone(m.payload)])),
      },
    },
  };
  const schemas = await openapiTypes(synthetic);
  const map = messages
    .map((m) => `  ${JSON.stringify(m.event)}: components['schemas'][${JSON.stringify(`${eventTypeName(m.event)}Event`)}] & { event: ${JSON.stringify(m.event)} };`)
    .join('\n');
  return [
    schemas.trim(),
    '',
    '/** Every webhook message, by event name; `event` is the discriminant. */',
    'export interface WebhookEventMap {',
    map,
    '}',
    '',
    'export type WebhookEventName = keyof WebhookEventMap;',
    '',
    '/** A delivered webhook body (WebhookEnvelope), discriminated on `event`. */',
    'export type WebhookEvent = WebhookEventMap[WebhookEventName];',
    '',
    'export type WebhookEventOf<N extends WebhookEventName> = WebhookEventMap[N];',
    '',
    '/** The event-specific model at `payload.properties`. */',
    "export type WebhookEventProperties<N extends WebhookEventName> = WebhookEventMap[N]['payload']['properties'];",
    '',
  ].join('\n');
}
