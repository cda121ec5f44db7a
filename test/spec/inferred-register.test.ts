// The register of inferred decisions (spec/inferred/*.yaml) must cover every element the spec marks
// `x-contract-source: inferred`, and every entry must point at something real and give its reason.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { specDir } from '../../scripts/lib/repo.js';
import { readRegister, type RegisterEntry } from '../../scripts/lib/register.js';
import { findNodes, nodeAtLocation } from '../helpers/spec-walk.js';

async function loadRegister(): Promise<Array<RegisterEntry & { file: string }>> {
  const files = (await readdir(path.join(specDir, 'inferred'))).filter((f) => f.endsWith('.yaml')).sort();
  const entries = [];
  for (const file of files) for (const entry of await readRegister(file)) entries.push({ ...entry, file });
  return entries;
}

function covers(where: string, location: string): boolean {
  const [wFile, wPtr = ''] = where.split('#');
  const [lFile, lPtr = ''] = location.split('#');
  return wFile === lFile && (lPtr === wPtr || lPtr.startsWith(`${wPtr}/`) || wPtr === '');
}

describe('register of inferred decisions', async () => {
  const register = await loadRegister();
  const inferred = await findNodes((node) => node['x-contract-source'] === 'inferred');

  it('has entries and inferred elements to cover', () => {
    expect(register.length).toBeGreaterThan(10);
    expect(inferred.length).toBeGreaterThan(10);
  });

  it('has unique ids and a title, decision and reason in every entry', () => {
    const ids = register.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const entry of register) {
      expect(entry.id, `${entry.file}`).toMatch(/^(SF|AD|WH)-\d{3}$/);
      for (const field of ['title', 'decision', 'reason'] as const) {
        expect(typeof entry[field] === 'string' && entry[field].trim().length > 10, `${entry.id}.${field}`).toBe(true);
      }
      expect(Array.isArray(entry.where) && entry.where.length > 0, `${entry.id}.where`).toBe(true);
    }
  });

  it('covers every element marked x-contract-source: inferred', () => {
    const uncovered = inferred.map((n) => n.location).filter((loc) => !register.some((e) => e.where.some((w) => covers(w, loc))));
    expect(uncovered, 'inferred elements missing from spec/inferred/*.yaml').toEqual([]);
  });

  it('never points at a node the spec marks as stated by the seed', async () => {
    const contradictions: string[] = [];
    for (const entry of register) {
      for (const where of entry.where) {
        const node = (await nodeAtLocation(where)) as Record<string, unknown> | undefined;
        if (node && typeof node === 'object' && node['x-contract-source'] === 'seed') contradictions.push(`${entry.id}: ${where}`);
      }
    }
    expect(contradictions, 'register entries (designed) pointing at nodes marked x-contract-source: seed').toEqual([]);
  });

  it('points only at nodes that exist', async () => {
    const dangling: string[] = [];
    for (const entry of register) {
      for (const where of entry.where) if ((await nodeAtLocation(where)) === undefined) dangling.push(`${entry.id}: ${where}`);
    }
    expect(dangling).toEqual([]);
  });

  it('uses only the two documented values of x-contract-source', async () => {
    const bad = await findNodes((node) => 'x-contract-source' in node && !['seed', 'inferred'].includes(node['x-contract-source']));
    expect(bad.map((b) => b.location)).toEqual([]);
  });
});
