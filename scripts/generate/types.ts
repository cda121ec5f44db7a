// TypeScript types with openapi-typescript: the two OpenAPI documents as they are, and the webhook
// messages through a synthetic OpenAPI document whose schemas are the AsyncAPI payloads.
import openapiTS, { astToString, UNDEFINED } from 'openapi-typescript';
import ts from 'typescript';
import { eventTypeName } from './names.js';

export async function openapiTypes(doc: any): Promise<string> {
  const ast = await openapiTS(structuredClone(doc), { alphabetize: false, defaultNonNullable: true, emptyObjectsUnknown: true });
  return astToString(optionalParametersTakeUndefined(ast));
}

/**
 * openapi-typescript writes an optional parameter as `limit?: T`, which under `exactOptionalPropertyTypes`
 * refuses `limit: undefined` (TS2375): an app would spread every optional filter in conditionally. This
 * writes `limit?: T | undefined` for every optional query and header parameter of every operation and path
 * item (openapi-fetch leaves an undefined value out of the request), as the client's own options take
 * `undefined`. Path parameters and required ones keep refusing it. openapi-typescript has no option for it
 * (its issue #2457), and its hooks cannot say it: `postTransform` types a parameter's schema, not the
 * property, and is called with the same path for the schema's `items` (a list filter came out as
 * `(string | undefined)[] | undefined`); `transform` is not called for a `$ref` or enum-only schema. So the
 * property signatures are updated on the syntax tree openapiTS returns, before it is printed.
 */
export function optionalParametersTakeUndefined(nodes: ts.Node[]): ts.Node[] {
  return nodes.map((node) => {
    if (!ts.isInterfaceDeclaration(node)) return node;
    const holds = OPERATION_HOLDERS[node.name.text];
    if (!holds) return node;
    const members = node.members.map((member) => (ts.isPropertySignature(member) ? withType(member, holds) : member));
    return ts.factory.updateInterfaceDeclaration(node, node.modifiers, node.name, node.typeParameters, node.heritageClauses, members);
  });
}

type Rewrite = (type: ts.TypeLiteralNode) => ts.TypeLiteralNode;
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** `parameters: { query?: {...}; header?: {...}; path: {...}; cookie?: ... }`: its query and header groups. */
const parameterGroups: Rewrite = (type) => rewriteMembers(type, (where) => (where === 'query' || where === 'header' ? optionalTakeUndefined : undefined));
/** An operation: its `parameters`. */
const operation: Rewrite = (type) => rewriteMembers(type, (name) => (name === 'parameters' ? parameterGroups : undefined));
/** A path item: its own `parameters`, and those of the operations written inline under its methods. */
const pathItem: Rewrite = (type) => rewriteMembers(type, (name) => (name === 'parameters' ? parameterGroups : HTTP_METHODS.has(name) ? operation : undefined));
const pathItems: Rewrite = (type) => rewriteMembers(type, () => pathItem);

/** The top-level interfaces that hold parameters, and how each member's type holds them. */
const OPERATION_HOLDERS: Record<string, Rewrite> = {
  paths: pathItem,
  webhooks: pathItem,
  operations: operation,
  components: (type) => rewriteMembers(type, (name) => (name === 'pathItems' ? pathItems : undefined)),
};

/** `name?: T` -> `name?: T | undefined`, for each optional member. */
const optionalTakeUndefined: Rewrite = (type) =>
  ts.factory.updateTypeLiteralNode(
    type,
    ts.factory.createNodeArray(
      type.members.map((member) =>
        ts.isPropertySignature(member) && member.questionToken && member.type
          ? ts.factory.updatePropertySignature(member, member.modifiers, member.name, member.questionToken, orUndefined(member.type))
          : member,
      ),
    ),
  );

/** `T | undefined`; a union's members joined flat (`"a" | "b" | undefined`), undefined written once. */
function orUndefined(type: ts.TypeNode): ts.TypeNode {
  const members = ts.isUnionTypeNode(type) ? [...type.types] : [type];
  if (members.some((m) => m.kind === ts.SyntaxKind.UndefinedKeyword)) return type;
  return ts.factory.createUnionTypeNode([...members, UNDEFINED]);
}

function withType(member: ts.PropertySignature, rewrite: Rewrite): ts.PropertySignature {
  if (!member.type || !ts.isTypeLiteralNode(member.type)) return member;
  return ts.factory.updatePropertySignature(member, member.modifiers, member.name, member.questionToken, rewrite(member.type));
}

/** A type literal whose members named so (`pick(name)` gives a rewrite) have their literal types rewritten. */
function rewriteMembers(type: ts.TypeLiteralNode, pick: (name: string) => Rewrite | undefined): ts.TypeLiteralNode {
  return ts.factory.updateTypeLiteralNode(
    type,
    ts.factory.createNodeArray(
      type.members.map((member) => {
        if (!ts.isPropertySignature(member)) return member;
        const name = ts.isIdentifier(member.name) || ts.isStringLiteral(member.name) || ts.isNumericLiteral(member.name) ? member.name.text : undefined;
        const rewrite = name === undefined ? undefined : pick(name);
        return rewrite ? withType(member, rewrite) : member;
      }),
    ),
  );
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
