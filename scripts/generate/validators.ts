// Precompiled validators: Ajv standalone code (JSON Schema 2020-12 + ajv-formats), one export per
// request body, per response of every operation and per webhook message. Nothing compiles at run time.
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import standalone from 'ajv/dist/standalone/index.js';
import { getPointer } from '../../src/contract/json-pointer.js';
import { HTTP_METHODS, eventExportName, pointerSegment, requestExportName, responseExportName } from './names.js';

const JSON_MEDIA = 'application/json';

export function createAjv() {
  // strict:false because OpenAPI/AsyncAPI schemas carry annotations Ajv does not know (example,
  // x-contract-source, discriminator); unknown formats would be a spec error caught by lint.
  const ajv = new Ajv2020({
    strict: false,
    allErrors: false,
    allowUnionTypes: true,
    // Shared functions per $ref instead of inlined copies: the webhook messages reuse the same models.
    inlineRefs: false,
    validateSchema: false,
    logger: false,
    code: { esm: true, source: true, optimize: true },
  });
  // CommonJS modules: under NodeNext the callable is their `default` property.
  ajvFormats.default(ajv);
  return ajv;
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

/** Export name -> JSON pointer of the schema, for every JSON request body and response. */
export function openapiSchemaPointers(doc: any): Record<string, string> {
  const pointers: Record<string, string> = {};
  for (const p of Object.keys(doc.paths ?? {})) {
    const itemPtr = followRef(doc, `#/paths/${pointerSegment(p)}`);
    for (const method of HTTP_METHODS) {
      const opPtr = `${itemPtr}/${method}`;
      const op: any = getPointer(doc, opPtr);
      if (!op) continue;
      if (op.requestBody) {
        const bodyPtr = followRef(doc, `${opPtr}/requestBody`);
        if ((getPointer(doc, bodyPtr) as any)?.content?.[JSON_MEDIA]?.schema) {
          pointers[requestExportName(op.operationId)] = `${bodyPtr}/content/${pointerSegment(JSON_MEDIA)}/schema`;
        }
      }
      for (const status of Object.keys(op.responses ?? {})) {
        const resPtr = followRef(doc, `${opPtr}/responses/${pointerSegment(status)}`);
        if ((getPointer(doc, resPtr) as any)?.content?.[JSON_MEDIA]?.schema) {
          pointers[responseExportName(op.operationId, status)] = `${resPtr}/content/${pointerSegment(JSON_MEDIA)}/schema`;
        }
      }
    }
  }
  return pointers;
}

/** Export name -> JSON pointer of each message payload (AsyncAPI 3 components.messages). */
export function asyncapiSchemaPointers(doc: any): Record<string, string> {
  const pointers: Record<string, string> = {};
  for (const [key, raw] of Object.entries<any>(doc.components?.messages ?? {})) {
    const msgPtr = followRef(doc, `#/components/messages/${pointerSegment(key)}`);
    const message: any = getPointer(doc, msgPtr);
    const eventName = message?.name ?? key;
    // A multi-format schema object wraps the schema in `schema`.
    const payloadPtr = message?.payload?.schemaFormat ? `${msgPtr}/payload/schema` : `${msgPtr}/payload`;
    pointers[eventExportName(eventName)] = payloadPtr;
    void raw;
  }
  return pointers;
}

/**
 * Rewrites Ajv's CommonJS `require(...)` of runtime helpers into ESM imports. Node and bundlers
 * (esbuild, used by tsx and vitest) disagree on what a CommonJS module's default import is, so the
 * namespace is normalised to the object whose properties Ajv's code reads (`.default`, `.fullFormats`).
 */
function toEsmImports(code: string): string {
  const modules = new Map<string, string>();
  const body = code.replace(/require\("([^"]+)"\)/g, (_m, mod: string) => {
    const spec = mod.endsWith('.js') ? mod : `${mod}.js`;
    if (!modules.has(spec)) modules.set(spec, `__runtime${modules.size}`);
    return modules.get(spec)!;
  });
  const imports = [...modules]
    .map(([spec, id]) => `import * as ${id}_ns from ${JSON.stringify(spec)};\nconst ${id} = __cjs(${id}_ns);`)
    .join('\n');
  const helper = 'function __cjs(ns) { const d = ns.default; return d && typeof d === "object" && "default" in d ? d : ns; }';
  return `${imports}\n${helper}\n${body.replace(/^"use strict";/, '')}`;
}

export function validatorsModule(docId: string, doc: any, pointers: Record<string, string>): string {
  const ajv = createAjv();
  const base = `https://storefront-contract.local/${docId}.json`;
  // Root keys such as AsyncAPI's `id` are not schema keywords; only the pointers below are compiled.
  const { id: _documentId, ...schemaRoot } = doc;
  ajv.addSchema(schemaRoot, base);
  const refs = Object.fromEntries(Object.entries(pointers).map(([name, ptr]) => [name, `${base}${ptr}`]));
  const code = toEsmImports(standalone.default(ajv, refs));
  // Type each export; the body is machine code, not worth type-checking.
  const typed = code.replace(/export const (\w+) = /g, 'export const $1: RawValidator = ');
  return [
    '// @ts-nocheck',
    "import type { RawValidator } from './raw-validator.js';",
    typed.trim(),
    '',
  ].join('\n');
}

export const rawValidatorTypes = `import type { ErrorObject } from 'ajv';

/** A precompiled Ajv validator: returns true when valid, else sets \`errors\`. */
export type RawValidator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };
`;
