// Docs scaling rows: the events reference's build time against the number of events. The real AsyncAPI
// document (dereferenced, with provenance) is built as is, then with every message repeated 4x and 16x
// under new names (same families, same payloads), each into a throwaway folder; the whole-site build is
// timed once as well. Events are the part of the site that grows with the contract.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildEvents } from '../../scripts/docs/events.js';
import { renderInferredRegister } from '../../scripts/docs/inferred.js';
import { renderMarkdown } from '../../scripts/docs/markdown.js';
import { dereferenceWithProvenance, loadRegisterEntries } from '../../scripts/docs/provenance.js';

export const EVENT_MULTIPLIERS = [1, 4, 16];

export interface DocsRow {
  events: number;
  pages: number;
  seconds: number;
  msPerEvent: number;
}

export async function docsRows(): Promise<DocsRow[]> {
  const entries = await loadRegisterEntries(renderMarkdown(await renderInferredRegister()).html);
  const doc = await dereferenceWithProvenance('webhooks', entries);
  const rows: DocsRow[] = [];
  for (const k of EVENT_MULTIPLIERS) {
    const messages = Object.entries<Record<string, unknown>>(doc.components.messages);
    const grown = Object.fromEntries(messages.flatMap(([name, m]) => Array.from({ length: k }, (_, i) => [i ? `${name}.copy${i}` : name, m])));
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sfc-docs-scaling-'));
    try {
      process.stderr.write(`scaling: events reference with ${Object.keys(grown).length} events\n`);
      const started = performance.now();
      const result = await buildEvents(dir, { ...doc, components: { ...doc.components, messages: grown } }, []);
      const ms = performance.now() - started;
      rows.push({ events: Object.keys(grown).length, pages: result.pages.length, seconds: Number((ms / 1000).toFixed(2)), msPerEvent: Number((ms / Object.keys(grown).length).toFixed(1)) });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return rows;
}
