// One module of precompiled validators: Ajv's own standalone code for a chosen set of schemas of a
// document (only the functions those schemas reach), as ESM, minified, each export typed.
import { createRequire } from 'node:module';
import standalone from 'ajv/dist/standalone/index.js';
import { transform } from 'esbuild';
import { createAjv } from './validator-ajv.js';
import type { SchemaPointers } from './validator-pointers.js';

// Ajv run-time helpers that are one self-contained function are copied in, taken from the
// installed Ajv (so still Ajv's own code): a module that imports nothing saves a resolution and a
// CommonJS load at first use, and bundlers need no CommonJS interop chunk next to the client.
const INLINED_HELPERS = new Set(['ajv/dist/runtime/ucs2length', 'ajv/dist/runtime/equal']);
const require = createRequire(import.meta.url);

/**
 * Rewrites Ajv's CommonJS `require(...)` of run-time helpers: inlined helpers become a local
 * `{ default: function }`, any other an ESM import. Node and bundlers (esbuild, used by tsx and
 * vitest) disagree on what a CommonJS module's default import is, so an imported namespace is
 * normalised to the object whose properties Ajv's code reads (`.default`, `.fullFormats`).
 */
function toEsmImports(code: string): string {
  const modules = new Map<string, string>();
  const body = code.replace(/require\("([^"]+)"\)/g, (_m, mod: string) => {
    if (!modules.has(mod)) modules.set(mod, `__runtime${modules.size}`);
    return modules.get(mod)!;
  });
  const head: string[] = [];
  for (const [mod, id] of modules) {
    if (INLINED_HELPERS.has(mod)) {
      head.push(`const ${id} = { default: ${String(require(mod).default)} };`);
    } else {
      const spec = mod.endsWith('.js') ? mod : `${mod}.js`;
      head.push(`import * as ${id}_ns from ${JSON.stringify(spec)};`, `const ${id} = __cjs(${id}_ns);`);
    }
  }
  if (head.some((line) => line.startsWith('import'))) {
    head.push('function __cjs(ns) { const d = ns.default; return d && typeof d === "object" && "default" in d ? d : ns; }');
  }
  return `${head.join('\n')}\n${body}`;
}

/** One Ajv holding a document: every module of that document is generated from it, so each schema compiles once. */
export interface CompiledDocument {
  docId: string;
  ajv: ReturnType<typeof createAjv>;
  base: string;
}

export function compileDocument(docId: string, doc: any): CompiledDocument {
  const ajv = createAjv(doc);
  const base = `https://storefront-contract.local/${docId}.json`;
  // Root keys such as AsyncAPI's `id` are not schema keywords; only the pointers given later are compiled.
  const { id: _documentId, ...schemaRoot } = doc;
  ajv.addSchema(schemaRoot, base);
  return { docId, ajv, base };
}

/** Ajv standalone code exporting the validators of `pointers` (export name -> JSON pointer), and only the functions they reach. */
export function standaloneCode(compiled: CompiledDocument, pointers: SchemaPointers): string {
  const refs = Object.fromEntries(Object.entries(pointers).map(([name, ptr]) => [name, `${compiled.base}${ptr}`]));
  return toEsmImports(standalone.default(compiled.ajv, refs).replace(/^"use strict";/, ''));
}

/**
 * The module text: standalone code minified (the modules are machine code, and their size is what
 * a first use pays to load), then esbuild's closing `export { a as name }` turned into one typed
 * export per validator.
 */
export async function validatorModule(compiled: CompiledDocument, pointers: SchemaPointers, rawValidatorModule: string): Promise<string> {
  const { code } = await transform(standaloneCode(compiled, pointers), { loader: 'js', format: 'esm', minify: true, treeShaking: true, legalComments: 'none', target: 'es2022' });
  const match = /export\s*\{([^}]*)\};?\s*$/.exec(code);
  const names = Object.keys(pointers);
  const exported = new Map(
    (match?.[1] ?? '')
      .split(',')
      .filter((s) => s.trim())
      .map((spec) => {
        const [local, as] = spec.trim().split(/\s+as\s+/);
        return [as ?? local, local] as const;
      }),
  );
  const missing = names.filter((name) => !exported.has(name));
  if (missing.length) throw new Error(`${compiled.docId}: the minified validators lost the exports ${missing.join(', ')}`);
  const body = match ? code.slice(0, match.index) : code;
  return [
    '// @ts-nocheck',
    `import type { RawValidator } from '${rawValidatorModule}';`,
    body.trim(),
    ...names.map((name) => `export const ${name}: RawValidator = ${exported.get(name)};`),
    '',
  ].join('\n');
}
