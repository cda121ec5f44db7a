// Where the schemas to precompile are: per operation (its JSON request body and each JSON
// response), and per webhook message (its payload). Export names come from names.ts.
import { getPointer } from '../../src/contract/json-pointer.js';
import { HTTP_METHODS, eventExportName, pointerSegment, requestExportName, responseExportName } from './names.js';

const JSON_MEDIA = 'application/json';

/** Export name -> JSON pointer of the schema. */
export type SchemaPointers = Record<string, string>;

export interface OperationSchemas {
  operationId: string;
  pointers: SchemaPointers;
}

function followRef(doc: any, pointer: string): string {
  // Returns the pointer of the node at `pointer`, following local $refs (responses lifted into components).
  let current = pointer;
  for (let hops = 0; hops < 10; hops++) {
    const node: any = getPointer(doc, current);
    if (node && typeof node.$ref === 'string' && node.$ref.startsWith('#/')) current = node.$ref;
    else return current;
  }
  throw new Error(`too many $ref hops from ${pointer}`);
}

function jsonSchemaPointer(doc: any, pointer: string): string | undefined {
  const target = followRef(doc, pointer);
  return (getPointer(doc, target) as any)?.content?.[JSON_MEDIA]?.schema ? `${target}/content/${pointerSegment(JSON_MEDIA)}/schema` : undefined;
}

/** Every operation of an OpenAPI document with the pointers of its JSON bodies, by operationId. */
export function operationSchemas(doc: any): OperationSchemas[] {
  const out: OperationSchemas[] = [];
  for (const p of Object.keys(doc.paths ?? {})) {
    const itemPtr = followRef(doc, `#/paths/${pointerSegment(p)}`);
    for (const method of HTTP_METHODS) {
      const opPtr = `${itemPtr}/${method}`;
      const op: any = getPointer(doc, opPtr);
      if (!op) continue;
      const pointers: SchemaPointers = {};
      const request = op.requestBody ? jsonSchemaPointer(doc, `${opPtr}/requestBody`) : undefined;
      if (request) pointers[requestExportName(op.operationId)] = request;
      for (const status of Object.keys(op.responses ?? {})) {
        const response = jsonSchemaPointer(doc, `${opPtr}/responses/${pointerSegment(status)}`);
        if (response) pointers[responseExportName(op.operationId, status)] = response;
      }
      out.push({ operationId: op.operationId, pointers });
    }
  }
  return out.sort((a, b) => a.operationId.localeCompare(b.operationId));
}

/** Export name -> JSON pointer, for every JSON request body and response of the document. */
export function openapiSchemaPointers(doc: any): SchemaPointers {
  return Object.assign({}, ...operationSchemas(doc).map((op) => op.pointers));
}

export interface MessageSchema {
  event: string;
  exportName: string;
  pointer: string;
}

/** Each message payload of an AsyncAPI 3 document (components.messages), by event name. */
export function messageSchemas(doc: any): MessageSchema[] {
  return Object.keys(doc.components?.messages ?? {})
    .map((key) => {
      const msgPtr = followRef(doc, `#/components/messages/${pointerSegment(key)}`);
      const message: any = getPointer(doc, msgPtr);
      const event: string = message?.name ?? key;
      // A multi-format schema object wraps the schema in `schema`.
      const pointer = message?.payload?.schemaFormat ? `${msgPtr}/payload/schema` : `${msgPtr}/payload`;
      return { event, exportName: eventExportName(event), pointer };
    })
    .sort((a, b) => a.event.localeCompare(b.event));
}

/** The envelope every delivery shares, whatever its event: what a receiver checks an event outside its catalog against. */
export const ENVELOPE_EXPORT = 'webhookEnvelope';

/** Export name -> JSON pointer of each message payload, and of the shared envelope (`webhookEnvelope`). */
export function asyncapiSchemaPointers(doc: any): SchemaPointers {
  const envelope: SchemaPointers = doc.components?.schemas?.WebhookEnvelope ? { [ENVELOPE_EXPORT]: followRef(doc, '#/components/schemas/WebhookEnvelope') } : {};
  return { ...Object.fromEntries(messageSchemas(doc).map((m) => [m.exportName, m.pointer])), ...envelope };
}
