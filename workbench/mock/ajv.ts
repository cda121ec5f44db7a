// One Ajv for the front: JSON Schema 2020-12 (the dialect the OpenAPI documents declare), formats on,
// strict off because the schemas carry OpenAPI and `x-` keywords Ajv does not know.
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import * as ajvFormats from 'ajv-formats';

// ajv-formats is CommonJS: its module object is the plugin, with the plugin again as `default`. Node's
// ESM import (and esbuild's, in the sandbox's browser build) gives that object as `default`; a static
// import (not createRequire) lets the browser build bundle it.
const formatsModule = (ajvFormats as unknown as { default: { default?: unknown } }).default;
const addFormats = (formatsModule.default ?? formatsModule) as (ajv: Ajv2020) => Ajv2020;

/** Another Ajv instance (other options: the agent tools' defaults) with the same formats. */
export function ajvWithFormats(options: ConstructorParameters<typeof Ajv2020>[0]): Ajv2020 {
  return addFormats(new Ajv2020({ strictNumbers: true, validateFormats: true, ...options }));
}

let shared: Ajv2020 | undefined;

export function getAjv(): Ajv2020 {
  if (!shared) {
    // strict: false also turns strictNumbers off (Infinity and NaN would pass `type: number`): on again.
    // verbose: an error carries the schema it came from, so a refused field can list the fields the object takes.
    // multipleOfPrecision as in scripts/generate/validator-ajv.ts: `multipleOf: 1` then accepts whole
    // numbers from 1e21 up, which the default check (`x !== parseInt(x)`) refuses (Ajv issue #2561).
    shared = new Ajv2020({ strict: false, strictNumbers: true, multipleOfPrecision: 12, allErrors: true, validateFormats: true, verbose: true });
    addFormats(shared);
  }
  return shared;
}

const compiled = new WeakMap<object, ValidateFunction>();

/** Compiles once per schema object (the dereferenced spec shares objects, so reuse is common). */
export function compile(schema: object): ValidateFunction {
  let fn = compiled.get(schema);
  if (!fn) {
    fn = getAjv().compile(schema);
    compiled.set(schema, fn);
  }
  return fn;
}

