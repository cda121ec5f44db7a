// Loads the recorded scenarios: each `traffic/<scenario>.har` with its `<scenario>.bindings.yaml`,
// resolved into steps (operation, recorded answer, which earlier steps it depends on). Every error
// names the file, the place and the fix.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { trafficDir } from '../../workbench/contract/files.js';
import { headerOf, type Har, type HarEntry } from './har.js';
import { matchOperation, splitStorefrontPath, type OperationMeta } from './operations.js';
import { getPointer } from 'storefront-contract/contract';

export { trafficDir };

export type TargetPlace = 'path' | 'query' | 'header' | 'body';

export interface Target {
  /** Only this step; default every later step. */
  step?: string;
  in: TargetPlace;
  /** Query parameter or header name (query/header places). */
  name?: string;
}

export interface InputBinding {
  name: string;
  /** The recorded text the value replaces (a redaction marker or a recorded id). */
  replaces: string;
  description?: string;
  default?: string;
  required?: boolean;
}

export interface CaptureBinding {
  name: string;
  /** The producing step (name or `#index`). */
  step: string;
  pointer: string;
  /** Numeric offset added to the captured number (a page past the end: total_pages + 1). */
  add?: number;
  into?: Target[];
}

export interface ConsistencyCheck {
  step: string;
  pointer: string;
  /** The binding (capture or input) whose live value the response must carry at `pointer`. */
  equals: string;
  description?: string;
}

export interface Bindings {
  scenario: string;
  description?: string;
  inputs: InputBinding[];
  captures: CaptureBinding[];
  consistency: ConsistencyCheck[];
}

export interface Step {
  scenario: string;
  index: number;
  /** The entry's comment (the driver's step name), or `#index`. */
  name: string;
  id: string;
  entry: HarEntry;
  operation: OperationMeta;
  recordedStoreId: string;
  recorded: { status: number; contentType?: string; body: unknown };
  /** Indexes (in the scenario) of steps whose captures this one uses. */
  needs: number[];
}

export interface ResolvedCapture extends CaptureBinding {
  producer: number;
  recordedValue: string;
}

export interface Scenario {
  name: string;
  harFile: string;
  bindingsFile: string;
  steps: Step[];
  bindings: Bindings;
  captures: ResolvedCapture[];
}

export class LoadError extends Error {}

export function scenarioNames(dir = trafficDir): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.har'))
    .map((f) => f.replace(/\.har$/, ''))
    .sort();
}

export function loadScenarios(dir = trafficDir, names = scenarioNames(dir)): Scenario[] {
  return names.map((n) => loadScenario(dir, n));
}

export function loadScenario(dir: string, name: string): Scenario {
  const harFile = path.join(dir, `${name}.har`);
  const bindingsFile = path.join(dir, `${name}.bindings.yaml`);
  const rel = (f: string) => path.relative(process.cwd(), f);
  if (!existsSync(harFile)) throw new LoadError(`${rel(harFile)}: no such recording (record one with storefront-contract record)`);
  let har: Har;
  try {
    har = JSON.parse(readFileSync(harFile, 'utf8'));
  } catch (e) {
    throw new LoadError(`${rel(harFile)}: not JSON (${(e as Error).message}); re-record it`);
  }
  if (har?.log?.version !== '1.2' || !Array.isArray(har.log.entries)) throw new LoadError(`${rel(harFile)}: not a HAR 1.2 log (log.version must be "1.2")`);
  const bindings = readBindings(bindingsFile, name);

  const steps: Step[] = har.log.entries.map((entry, index) => {
    const url = new URL(entry.request.url);
    const parsed = splitStorefrontPath(url.pathname);
    const where = `${rel(harFile)} entry ${index} (${entry.request.method} ${url.pathname})`;
    if (!parsed) throw new LoadError(`${where}: not a storefront URL (/api/v1/{store_id}/storefront/...); remove the entry`);
    const operation = matchOperation(entry.request.method, parsed.inner);
    if (!operation) throw new LoadError(`${where}: matches no storefront operation of the contract; remove the entry or fix the spec`);
    const contentType = headerOf(entry.response.headers, 'content-type') ?? entry.response.content.mimeType;
    return {
      scenario: name,
      index,
      name: entry.comment || `#${index}`,
      id: `${name}/${entry.comment || `#${index}`}`,
      entry,
      operation,
      recordedStoreId: parsed.storeId,
      recorded: { status: entry.response.status, contentType, body: parseJson(entry.response.content.text) },
      needs: [],
    };
  });

  const byName = (ref: string, what: string): Step => {
    const step = ref.startsWith('#') ? steps[Number(ref.slice(1))] : steps.find((s) => s.name === ref);
    if (!step) throw new LoadError(`${rel(bindingsFile)}: ${what} names step "${ref}", which ${rel(harFile)} does not have (steps: ${steps.map((s) => s.name).join(', ')})`);
    return step;
  };

  const captures: ResolvedCapture[] = bindings.captures.map((c) => {
    const producer = byName(c.step, `capture ${c.name}`);
    const raw = getPointer(producer.recorded.body, c.pointer);
    if (raw === undefined || raw === null || typeof raw === 'object') {
      throw new LoadError(`${rel(bindingsFile)}: capture ${c.name}: ${c.pointer} is not a value in the recorded response of step ${producer.name}; fix the pointer`);
    }
    const recordedValue = c.add !== undefined ? String(Number(raw) + c.add) : String(raw);
    if (!c.into?.length && recordedValue.length < 4) {
      throw new LoadError(`${rel(bindingsFile)}: capture ${c.name}: the recorded value "${recordedValue}" is too short to substitute wherever it occurs; add "into" naming the step and place`);
    }
    for (const t of c.into ?? []) if (t.step) byName(t.step, `capture ${c.name} into`);
    return { ...c, producer: producer.index, recordedValue };
  });
  for (const check of bindings.consistency) byName(check.step, `consistency check on ${check.pointer}`);

  for (const step of steps) {
    const text = requestText(step.entry);
    const needs = new Set<number>();
    for (const c of captures) {
      if (c.producer >= step.index) continue;
      const targeted = c.into?.some((t) => !t.step || t.step === step.name);
      if (targeted || (!c.into?.length && text.includes(c.recordedValue))) needs.add(c.producer);
    }
    for (const check of bindings.consistency) {
      if (byName(check.step, 'consistency').index !== step.index) continue;
      const c = captures.find((x) => x.name === check.equals);
      if (c && c.producer !== step.index) needs.add(c.producer);
    }
    step.needs = [...needs].sort((a, b) => a - b);
  }
  return { name, harFile, bindingsFile, steps, bindings, captures };
}

function readBindings(file: string, scenario: string): Bindings {
  const rel = path.relative(process.cwd(), file);
  if (!existsSync(file)) return { scenario, inputs: [], captures: [], consistency: [] };
  let doc: any;
  try {
    doc = YAML.parse(readFileSync(file, 'utf8')) ?? {};
  } catch (e) {
    throw new LoadError(`${rel}: not YAML (${(e as Error).message.split('\n')[0]})`);
  }
  const list = (key: string): any[] => {
    const v = doc[key] ?? [];
    if (!Array.isArray(v)) throw new LoadError(`${rel}: "${key}" must be a list`);
    return v;
  };
  const need = (item: any, key: string, where: string) => {
    if (typeof item?.[key] !== 'string' || item[key] === '') throw new LoadError(`${rel}: ${where} needs a string "${key}"`);
  };
  const inputs = list('inputs');
  inputs.forEach((i, n) => (need(i, 'name', `inputs[${n}]`), need(i, 'replaces', `inputs[${n}]`)));
  const captures = list('captures');
  captures.forEach((c, n) => {
    need(c, 'name', `captures[${n}]`);
    need(c, 'step', `captures[${n}]`);
    need(c, 'pointer', `captures[${n}]`);
    if (!String(c.pointer).startsWith('/')) throw new LoadError(`${rel}: captures[${n}] (${c.name}): pointer must be a JSON pointer starting with /`);
    for (const t of c.into ?? []) {
      if (!['path', 'query', 'header', 'body'].includes(t.in)) throw new LoadError(`${rel}: captures[${n}] (${c.name}): into.in must be path, query, header or body`);
    }
  });
  const consistency = list('consistency');
  consistency.forEach((c, n) => (need(c, 'step', `consistency[${n}]`), need(c, 'pointer', `consistency[${n}]`), need(c, 'equals', `consistency[${n}]`)));
  const names = new Set([...inputs.map((i) => i.name), ...captures.map((c) => c.name)]);
  for (const c of consistency) if (!names.has(c.equals)) throw new LoadError(`${rel}: consistency on ${c.step}: equals "${c.equals}" is neither an input nor a capture`);
  return { scenario: doc.scenario ?? scenario, description: doc.description, inputs, captures, consistency };
}

export function requestText(entry: HarEntry): string {
  return [entry.request.url, ...entry.request.headers.map((h) => h.value), entry.request.postData?.text ?? ''].join('\n');
}

export function parseJson(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
