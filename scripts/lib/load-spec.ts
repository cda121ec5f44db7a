// Loads a spec document with every $ref resolved, for scripts and tests.
// `dereference` keeps shared objects shared (same JS object for the same $ref), which is what
// validators and walkers want; `bundle` keeps internal $refs for tools that print the document.
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { readFile } from 'node:fs/promises';
import YAML from 'yaml';
import { documents, type DocumentName } from './repo.js';

export type JsonObject = Record<string, any>;

const cache = new Map<string, Promise<JsonObject>>();

/** The document with all $refs replaced by their targets (shared, possibly circular objects). */
export function loadDereferenced(name: DocumentName): Promise<JsonObject> {
  const key = `deref:${name}`;
  if (!cache.has(key)) {
    cache.set(key, $RefParser.dereference(documents[name], { dereference: { circular: 'ignore' } }) as Promise<JsonObject>);
  }
  return cache.get(key)!;
}

/** The document as one object with external files inlined and internal $refs kept. */
export function loadBundled(name: DocumentName): Promise<JsonObject> {
  return $RefParser.bundle(documents[name]) as Promise<JsonObject>;
}

/** One YAML file as written (no $ref resolution). */
export async function loadRaw(file: string): Promise<JsonObject> {
  return YAML.parse(await readFile(file, 'utf8'));
}
