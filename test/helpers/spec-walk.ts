// Walks the spec's YAML files as written, for tests about what the files themselves say.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { getPointer } from '../../src/contract/json-pointer.js';
import { specDir } from '../../scripts/lib/repo.js';

export async function specYamlFiles(dir = specDir): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'inferred') out.push(...(await specYamlFiles(full)));
    } else if (/\.ya?ml$/.test(entry.name)) out.push(full);
  }
  return out.sort();
}

export interface Located {
  /** `openapi/components/schemas/Cart.yaml#/properties/status` (file relative to spec/). */
  location: string;
  node: any;
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Every node of every spec file for which `predicate` holds, with its file#pointer location. */
export async function findNodes(predicate: (node: any) => boolean): Promise<Located[]> {
  const found: Located[] = [];
  for (const file of await specYamlFiles()) {
    const rel = path.relative(specDir, file).split(path.sep).join('/');
    const doc = YAML.parse(await readFile(file, 'utf8'));
    const visit = (node: any, pointer: string) => {
      if (!node || typeof node !== 'object') return;
      if (predicate(node)) found.push({ location: `${rel}#${pointer}`, node });
      for (const [key, child] of Object.entries(node)) visit(child, `${pointer}/${escape(String(key))}`);
    };
    visit(doc, '');
  }
  return found;
}

/** The node at `file#pointer`, or undefined. */
export async function nodeAtLocation(location: string): Promise<unknown> {
  const [file, pointer = ''] = location.split('#');
  let doc: any;
  try {
    doc = YAML.parse(await readFile(path.join(specDir, file), 'utf8'));
  } catch {
    return undefined;
  }
  return getPointer(doc, pointer);
}
