// A recorded scenario (traffic/<scenario>.har + <scenario>.bindings.yaml, as load.ts resolves them) as an
// Arazzo 1.0 document (https://spec.openapis.org/arazzo/v1.0.1): one workflow per scenario, one step per
// recorded exchange, in the recorded order. What the bindings say becomes Arazzo's own words:
//   inputs        -> the workflow's `inputs` schema; their recorded text -> `$inputs.<name>`
//   captures      -> the producing step's `outputs` (`$response.body#<pointer>`); their recorded value in a
//                    later request -> `$steps.<producer>.outputs.<name>`, wherever the replayer puts it
//                    (the same substitution rules as bindings.ts: everywhere, or only `into` its targets)
//   consistency   -> the step's `successCriteria`, beside the recorded status
// Two things Arazzo cannot say are kept as extensions: a derived value (`add: 1`, the page past the end:
// Arazzo expressions have no arithmetic) as `x-derived` on the parameter, which keeps the recorded value;
// a truncated oversized body as `x-body-padding` (the payload is its start; pad it to `bytes`).
// make-arazzo.ts writes the files; test/conformance/arazzo.test.ts keeps them in step.
import path from 'node:path';
import YAML from 'yaml';
import { documents, trafficDir } from '../../workbench/contract/files.js';
import { splitApiPath } from 'storefront-contract/contract';
import { headerOf } from './har.js';
import { parseJson, type CaptureBinding, type Scenario, type Step, type Target, type TargetPlace } from './load.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Headers the replayer never sends as recorded (bindings.ts), and Content-Type (the request body's own). */
const NOT_PARAMETERS = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'accept-encoding', 'x-conformance-step', 'content-type']);

export const ARAZZO_VERSION = '1.0.1';
/** The storefront document, as the Arazzo files beside the recordings name it (the same layout in a clone and in the tools package). */
export const SOURCE_NAME = 'storefront';

interface Replacement {
  from: string;
  expression: string;
  into?: Target[];
}

/** Arazzo step ids are `[A-Za-z0-9_-]+`; an unnamed entry (`#3`) becomes `step-3`. */
export const stepIdOf = (step: Pick<Step, 'name' | 'index'>) => (step.name.startsWith('#') ? `step-${step.index}` : step.name.replace(/[^A-Za-z0-9_-]/g, '-'));

/**
 * What a capture is called among its producer's outputs: its name; a derived one (past_end_page =
 * total_pages + 1) outputs what it is derived from, named by its pointer's last segment (total_pages).
 */
function outputName(c: CaptureBinding, scenario: Pick<Scenario, 'captures'>): string {
  if (c.add === undefined) return c.name;
  const last = c.pointer.split('/').pop()!.replace(/[^A-Za-z0-9_.-]/g, '_');
  return scenario.captures.some((x) => x.name === last) ? `${c.name}_from` : last;
}

/** The replacements a step's request takes: the order of bindings.ts (later captures win over earlier ones and over inputs). */
function replacementsFor(step: Step, scenario: Scenario): Replacement[] {
  const list: Replacement[] = scenario.bindings.inputs.map((i) => ({ from: i.replaces, expression: `$inputs.${i.name}` }));
  for (const c of scenario.captures) {
    if (c.producer >= step.index || c.add !== undefined) continue; // derived values: x-derived, below
    if (c.into?.length && !c.into.some((t) => !t.step || t.step === step.name)) continue;
    list.push({ from: c.recordedValue, expression: `$steps.${stepIdOf(scenario.steps[c.producer])}.outputs.${outputName(c, scenario)}`, into: c.into?.filter((t) => !t.step || t.step === step.name) });
  }
  return list.reverse();
}

function applies(r: Replacement, place: TargetPlace, name?: string): boolean {
  if (!r.into?.length) return true;
  return r.into.some((t) => t.in === place && (!t.name || !name || t.name.toLowerCase() === name.toLowerCase()));
}

/**
 * A recorded value with the bound text replaced by runtime expressions: the bare expression when the
 * whole value is bound, else the text with `{$...}` embedded (Arazzo's embedded expressions).
 */
function bind(value: string, replacements: Replacement[], place: TargetPlace, name?: string): string {
  const marks: string[] = [];
  let out = value;
  const done = new Set<string>();
  for (const r of replacements) {
    if (done.has(r.from) || !applies(r, place, name)) continue;
    if ((r.into?.length && out === r.from) || out.includes(r.from)) {
      out = out.split(r.from).join(`\u0000${marks.length}\u0000`);
      marks.push(r.expression);
      done.add(r.from);
    }
  }
  const whole = /^\u0000(\d+)\u0000$/.exec(out);
  if (whole) return marks[Number(whole[1])];
  return out.replace(/\u0000(\d+)\u0000/g, (_m, i: string) => `{${marks[Number(i)]}}`);
}

function bindJson(value: unknown, replacements: Replacement[]): Json {
  if (typeof value === 'string') return bind(value, replacements, 'body');
  if (Array.isArray(value)) return value.map((v) => bindJson(v, replacements));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bindJson(v, replacements)]));
  return value as Json;
}

/** A derived capture aimed at this parameter: the recorded value stays, with where it comes from. */
function derivedFor(step: Step, scenario: Scenario, place: TargetPlace, name: string): Record<string, Json> | undefined {
  const c = scenario.captures.find((x) => x.add !== undefined && x.producer < step.index && x.into?.some((t) => (!t.step || t.step === step.name) && t.in === place && (!t.name || t.name.toLowerCase() === name.toLowerCase())));
  return c ? { from: `$steps.${stepIdOf(scenario.steps[c.producer])}.outputs.${outputName(c, scenario)}`, add: c.add! } : undefined;
}

/** The values of the operation's path parameters in a recorded path (`/catalog/products/{product_id}` against `/catalog/products/prd_1`). */
function pathParameters(template: string, inner: string): [string, string][] {
  const want = template.split('/');
  const got = inner.split('/');
  return want.flatMap((segment, i) => {
    const m = /^\{(.+)\}$/.exec(segment);
    return m && got[i] !== undefined ? [[m[1], decodeURIComponent(got[i])] as [string, string]] : [];
  });
}

function parameterValue(raw: string, step: Step, scenario: Scenario, replacements: Replacement[], place: TargetPlace, name: string): Record<string, Json> {
  const derived = derivedFor(step, scenario, place, name);
  const value = derived ? raw : bind(raw, replacements, place, name);
  return { name, in: place, value: /^\d+$/.test(value) && place === 'query' ? Number(value) : value, ...(derived ? { 'x-derived': derived } : {}) };
}

/** A query string as people read it (`sort_by={"name":"asc"}`), or as sent when it does not decode. */
function readable(search: string): string {
  try {
    return decodeURIComponent(search.replace(/\+/g, ' '));
  } catch {
    return search;
  }
}

function stepOf(step: Step, scenario: Scenario): Record<string, Json> {
  const request = step.entry.request;
  const url = new URL(request.url);
  const inner = splitApiPath(url.pathname)?.innerPath ?? url.pathname;
  const replacements = replacementsFor(step, scenario);
  const parameters: Record<string, Json>[] = [];
  for (const [name, raw] of pathParameters(step.operation.path, inner)) parameters.push(parameterValue(raw, step, scenario, replacements, 'path', name));
  // A repeated query name (category_id=a&category_id=b) is one parameter with an array value (form, explode).
  const query = new Map<string, string[]>();
  for (const [name, value] of url.searchParams) query.set(name, [...(query.get(name) ?? []), value]);
  for (const [name, values] of query) {
    const bound = values.map((v) => parameterValue(v, step, scenario, replacements, 'query', name));
    parameters.push(values.length === 1 ? bound[0] : { ...bound[0], value: bound.map((b) => b.value) });
  }
  for (const { name, value } of request.headers) {
    const lower = name.toLowerCase();
    if (NOT_PARAMETERS.has(lower) || lower.startsWith(':')) continue;
    parameters.push(parameterValue(value, step, scenario, replacements, 'header', lower));
  }

  const out: Record<string, Json> = {
    stepId: stepIdOf(step),
    description: `${request.method.toUpperCase()} ${inner}${readable(url.search)}: recorded answer ${step.recorded.status}.`,
    operationId: step.operation.operationId,
  };
  if (parameters.length) out.parameters = parameters;
  const post = request.postData;
  if (post) {
    const contentType = headerOf(request.headers, 'content-type') ?? post.mimeType;
    const parsed = /json/i.test(contentType) && !post._truncated ? parseJson(post.text) : undefined;
    // Malformed JSON on purpose (the negative scenario) stays text, as it was sent.
    const payload = parsed !== undefined && typeof parsed !== 'string' ? bindJson(parsed, replacements) : bind(post.text, replacements, 'body');
    out.requestBody = { contentType, payload, ...(post._truncated ? { 'x-body-padding': { bytes: request.bodySize, with: post._padWith || ' ' } } : {}) };
  }
  const criteria: Record<string, Json>[] = [{ condition: `$statusCode == ${step.recorded.status}` }];
  for (const check of scenario.bindings.consistency) {
    if (check.step !== step.name && check.step !== `#${step.index}`) continue;
    const capture = scenario.captures.find((c) => c.name === check.equals);
    const expected = capture ? `$steps.${stepIdOf(scenario.steps[capture.producer])}.outputs.${outputName(capture, scenario)}` : `$inputs.${check.equals}`;
    criteria.push({ condition: `$response.body#${check.pointer} == ${expected}` });
  }
  out.successCriteria = criteria;
  const produced = scenario.captures.filter((c) => c.producer === step.index);
  if (produced.length) out.outputs = Object.fromEntries(produced.map((c) => [outputName(c, scenario), `$response.body#${c.pointer}`]));
  return out;
}

/** The Arazzo document of one scenario; `from` is the folder the file will be written to (for the source's relative URL). */
export function scenarioToArazzo(scenario: Scenario, options: { version: string; from?: string } = { version: '1.0.0' }): Record<string, Json> {
  const from = options.from ?? trafficDir;
  const inputs = scenario.bindings.inputs;
  const properties = Object.fromEntries(
    inputs.map((i) => [i.name, { type: 'string', ...(i.description ? { description: i.description } : {}), ...(i.required ? {} : { default: i.default ?? i.replaces }) }]),
  );
  const required = inputs.filter((i) => i.required).map((i) => i.name);
  const har = path.basename(scenario.harFile);
  const bindings = path.basename(scenario.bindingsFile);
  return {
    arazzo: ARAZZO_VERSION,
    info: {
      title: `Certification scenario ${scenario.name}`,
      summary: scenario.bindings.description ?? `The recorded scenario ${scenario.name}.`,
      description: `The exchanges of ${har} in their recorded order, with the values that differ between servers taken from ${bindings}: workflow inputs, and captures from earlier answers as step outputs. The version is that of the storefront document the recording was made against.`,
      version: options.version,
    },
    sourceDescriptions: [{ name: SOURCE_NAME, url: path.relative(from, documents.storefront).split(path.sep).join('/'), type: 'openapi' }],
    workflows: [
      {
        workflowId: scenario.name,
        summary: scenario.bindings.description ?? scenario.name,
        description: `Replays ${har} (${scenario.steps.length} steps). Run it against a store with a server override for the storefront source, e.g. redocly respect ${scenario.name}.arazzo.yaml --server ${SOURCE_NAME}=<base URL>/api/v1/<store id>/storefront --input api_key=<key>.`,
        ...(inputs.length ? { inputs: { type: 'object', ...(required.length ? { required } : {}), properties } } : {}),
        steps: scenario.steps.map((s) => stepOf(s, scenario)),
      },
    ],
  };
}

export function renderArazzo(doc: Record<string, Json>, scenario: Pick<Scenario, 'name'>): string {
  return `# Arazzo workflow of the certification scenario ${scenario.name}: generated from ${scenario.name}.har and
# ${scenario.name}.bindings.yaml by \`npx tsx conformance/rest/make-arazzo.ts\`. Do not edit: edit those, then
# regenerate (test/conformance/arazzo.test.ts fails while this file differs).
${YAML.stringify(doc, { lineWidth: 0, aliasDuplicateObjects: false })}`;
}

export const arazzoFile = (dir: string, scenario: string) => path.join(dir, `${scenario}.arazzo.yaml`);
