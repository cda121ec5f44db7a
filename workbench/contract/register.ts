// The register of designed decisions (spec/inferred/, one YAML file per document; its format in that
// folder's README): what `x-contract-source: inferred` points at, and why. Read once per process, for the
// agent tools (../agents/contract-tools.ts). Not in model.ts: the model is bundled into the sandbox's browser
// build, which carries no YAML parser; the register is no contract document, and nothing in the browser
// reads it.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { documents, specDir, type DocumentName } from './files.js';

/** One entry of the register of designed decisions (spec/inferred/, format in its README). */
export interface DecisionEntry {
  id: string;
  title: string;
  decision: string;
  reason: string;
  /** Spec locations the decision covers (`openapi/components/parameters/DebugMode.yaml#`). */
  where: string[];
  /** The register's file: `storefront`, `admin` or `webhooks`. */
  register: DocumentName;
}

let decisions: Promise<DecisionEntry[]> | undefined;

/**
 * The register of what this project designed where the platform's document shows nothing (spec/inferred/,
 * one file per document), read once per process: what `x-contract-source: inferred` points at, and why.
 */
export function decisionRegister(): Promise<DecisionEntry[]> {
  decisions ??= (async () => {
    const out: DecisionEntry[] = [];
    for (const register of Object.keys(documents) as DocumentName[]) {
      const file = path.join(specDir, 'inferred', `${register}.yaml`);
      const entries = parse(await readFile(file, 'utf8')) as Array<Omit<DecisionEntry, 'register'>> | null;
      for (const e of entries ?? []) out.push({ id: String(e.id), title: String(e.title), decision: String(e.decision ?? ''), reason: String(e.reason ?? ''), where: (e.where ?? []).map(String), register });
    }
    return out;
  })();
  decisions.catch(() => (decisions = undefined));
  return decisions;
}
