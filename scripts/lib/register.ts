// The register of inferred decisions (spec/inferred/*.yaml): read and shape-checked in one place for the
// docs renderer and the register tests.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { specDir } from './repo.js';

export interface RegisterEntry {
  id: string;
  title: string;
  decision: string;
  reason: string;
  /** Spec locations, `file#pointer` relative to spec/. */
  where: string[];
}

export const REGISTER_FILES = ['storefront.yaml', 'admin.yaml', 'webhooks.yaml'] as const;

/** One register file; an entry missing a field is an error naming the file, the entry and the fix. */
export async function readRegister(file: string): Promise<RegisterEntry[]> {
  const entries = (YAML.parse(await readFile(path.join(specDir, 'inferred', file), 'utf8')) ?? []) as RegisterEntry[];
  for (const [i, e] of entries.entries()) {
    for (const key of ['id', 'title', 'decision', 'reason', 'where'] as const) {
      if (!e?.[key]) throw new Error(`spec/inferred/${file}: entry ${i + 1} (${e?.id ?? 'no id'}) has no \`${key}\`; see spec/inferred/README.md for the entry shape.`);
    }
  }
  return entries;
}
