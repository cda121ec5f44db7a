// The files of a folder tree, for the scripts that compare trees (check:generated, diff --base).
import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** Every file under `dir` as a path relative to it, sorted; none when `dir` cannot be read. */
export async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries) {
    const rel = path.join(prefix, entry.name);
    if (entry.isDirectory()) files.push(...(await listFiles(path.join(dir, entry.name), rel)));
    else files.push(rel);
  }
  return files.sort();
}
